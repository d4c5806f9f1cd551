#!/usr/bin/env bash
# What the tests need on this machine: Debian's Chromium, nginx, unzip and SimpleSAMLphp (with PHP), PostgreSQL and
# RabbitMQ on loopback. Installs or starts each only when it is missing, so it is quick on a ready machine.
set -euo pipefail

# chromium: the browser journeys; nginx: the deployment checks run the frontends' real nginx configs;
# unzip: they take helm and kubectl out of an npm package's zip (k8s/test/k8s-binaries.ts).
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v unzip >/dev/null || missing+=(unzip)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]} ..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# SimpleSAMLphp, run by PHP's built-in web server with its XML extensions: the SSO journey against a real identity
# provider (e2e/test/browser/staff-sso-simplesamlphp.journey.test.ts, and the passkeys journey of an SSO-only
# handler, passkeys.journey.test.ts). Without recommends and after nginx (which
# satisfies its "a web server" dependency), apt installs no Apache service that would start on port 80. Where it
# cannot be installed that journey skips, saying why, except in CI (CI set, e.g. CI=true), where it must run.
if [ ! -f /usr/share/simplesamlphp/www/index.php ] || ! command -v php >/dev/null || ! php -m 2>/dev/null | grep -x dom >/dev/null; then
  echo "Installing Debian packages: simplesamlphp php-cli php-xml ..."
  if ! { apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends simplesamlphp php-cli php-xml >/dev/null; }; then
    case "${CI:-false}" in false | "") ;; *) echo "SimpleSAMLphp could not be installed" >&2 && exit 1 ;; esac
    echo "SimpleSAMLphp could not be installed: its SSO journey will be skipped" >&2
  fi
fi

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "Starting PostgreSQL ..."
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi

rabbitmq_up() { (exec 3<>/dev/tcp/127.0.0.1/5672) 2>/dev/null; }
if ! rabbitmq_up; then
  echo "Starting RabbitMQ ..."
  rabbitmq-server -detached
  for _ in $(seq 1 60); do rabbitmq_up && break; sleep 1; done
  rabbitmq-diagnostics -q check_running >/dev/null 2>&1 || sleep 5
fi
rabbitmq_up || { echo "RabbitMQ is not reachable on 127.0.0.1:5672" >&2; exit 1; }
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "PostgreSQL is not reachable on 127.0.0.1:5432" >&2; exit 1; }
