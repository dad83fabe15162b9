# Sourced by scale.sh and retention.sh: the scale tree (pinned PyPI sdists of $SDISTS unpacked
# side by side under $WORK/tree, one git commit), made once and reused. Needs WORK, SDISTS, log.
TREE=$WORK/tree
if [ ! -d "$TREE/.git" ]; then
  rm -rf "$TREE" "$WORK/sdists"; mkdir -p "$TREE" "$WORK/sdists"
  # shellcheck disable=SC2086
  pip download -q --no-binary :all: --no-deps -d "$WORK/sdists" $SDISTS || { log "pip download failed"; exit 1; }
  for a in "$WORK"/sdists/*.tar.gz; do tar xzf "$a" -C "$TREE"; done
  git -C "$TREE" init -q && git -C "$TREE" add -A \
    && git -C "$TREE" -c user.email=bench@example.com -c user.name=bench commit -qm sdists
fi
