#!/bin/sh
# The part of the official nginx image's entrypoint the frontends use (20-envsubst-on-templates.sh): each
# $NGINX_ENVSUBST_TEMPLATE_DIR/*.template becomes $NGINX_ENVSUBST_OUTPUT_DIR/<name without .template>, with only the
# variables defined in the environment substituted (nginx's own $uri, $host... stay as they are).
set -eu
if [ "${1:-}" = "nginx" ] || [ "${1:-}" = "nginx-debug" ]; then
  template_dir="${NGINX_ENVSUBST_TEMPLATE_DIR:-/etc/nginx/templates}"
  suffix="${NGINX_ENVSUBST_TEMPLATE_SUFFIX:-.template}"
  output_dir="${NGINX_ENVSUBST_OUTPUT_DIR:-/etc/nginx/conf.d}"
  if [ -d "$template_dir" ]; then
    if [ ! -w "$output_dir" ]; then
      echo "$0: ERROR: $template_dir exists, but $output_dir is not writable" >&2
      exit 1
    fi
    defined_envs=$(printf '${%s} ' $(env | cut -d= -f1))
    find "$template_dir" -follow -type f -name "*$suffix" -print | while read -r template; do
      relative_path="${template#"$template_dir/"}"
      output_path="$output_dir/${relative_path%"$suffix"}"
      mkdir -p "$(dirname "$output_path")"
      echo "$0: rendering $template to $output_path"
      envsubst "$defined_envs" < "$template" > "$output_path"
    done
  fi
fi
exec "$@"
