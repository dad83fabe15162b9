# Sourced by scale.sh, retention.sh and new_process.sh: their shared settings (WORK, SDISTS,
# QUERY_PATH, BASE_PATH: see scale.sh) and the scale tree (the pinned PyPI sdists of $SDISTS
# unpacked side by side under $WORK/tree, one git commit), made once and reused. Needs `log`.
WORK=${WORK:-/tmp/nexus-lite-scale}
SDISTS=${SDISTS:-"django==5.1.4 sympy==1.13.3"}
QUERY_PATH=${QUERY_PATH:-Django-5.1.4/django/db/models/query.py}
BASE_PATH=/usr/local/bin:/usr/bin:/bin
mkdir -p "$WORK"
TREE=$WORK/tree
if [ ! -d "$TREE/.git" ]; then
  rm -rf "$TREE" "$WORK/sdists"; mkdir -p "$TREE" "$WORK/sdists"
  # shellcheck disable=SC2086
  pip download -q --no-binary :all: --no-deps -d "$WORK/sdists" $SDISTS || { log "pip download failed"; exit 1; }
  for a in "$WORK"/sdists/*.tar.gz; do tar xzf "$a" -C "$TREE"; done
  git -C "$TREE" init -q && git -C "$TREE" add -A \
    && git -C "$TREE" -c user.email=bench@example.com -c user.name=bench commit -qm sdists
fi
