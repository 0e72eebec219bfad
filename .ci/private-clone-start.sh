#!/usr/bin/env bash
# A newcomer's first try, as root on most machines: clone into a private (0700) directory,
# `npm ci && npm start`, and the service must answer its health check. The embedded PostgreSQL
# runs as the OS user "postgres", which cannot reach anything under that directory.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
chmod 700 "$tmp"
port="${PRIVATE_CLONE_PORT:-18765}"
cleanup() {
  if [ -n "${pgid:-}" ]; then kill -TERM -- "-$pgid" 2>/dev/null || true; fi
  # The cluster of a private clone lives outside it (DATA_DIR/pg is a link): remove it too.
  if [ -L "$tmp/clone/data/pg" ]; then rm -rf "$(readlink -f "$tmp/clone/data/pg")"; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
git clone -q "$src" "$tmp/clone"
cd "$tmp/clone"
npm ci --no-audit --no-fund --loglevel=error
PORT="$port" HOST=127.0.0.1 ADMIN_PASSWORD=private-clone-check LOG_LEVEL=warn setsid npm start >"$tmp/start.log" 2>&1 &
pgid=$!
for _ in $(seq 1 180); do
  if node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$port/api/test"; then
    kill -TERM -- "-$pgid"
    for _ in $(seq 1 60); do kill -0 "$pgid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pgid" 2>/dev/null; then echo "private clone: the service did not stop within 30 s of SIGTERM"; exit 1; fi
    pgid=
    echo "private clone: npm start answered /api/test from $tmp/clone (mode 0700 parent) and stopped on SIGTERM"
    exit 0
  fi
  if ! kill -0 "$pgid" 2>/dev/null; then break; fi
  sleep 1
done
echo "private clone: npm start did not answer /api/test; its output:"
tail -50 "$tmp/start.log"
exit 1
