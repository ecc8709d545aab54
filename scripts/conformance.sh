#!/usr/bin/env bash
# `npm run conformance`: starts examples/conformance on a free 127.0.0.1 port and runs the official MCP
# conformance suite against it twice: 0.1.16 (the 2025-06-18 / 2025-11-25 scenarios, legacy era) and
# 0.2.0-alpha.12 with `--requirements 2026-07-28` (every scenario the 2026-07-28 revision requires, modern
# era). The runner (../shared/conformance/run.sh, or $CONFORMANCE_RUN) installs the suite and a Node 22
# runtime into a cache folder on first use. Prints both `conformance: P passed, F failed` lines and exits
# non-zero when either run has a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
run=${CONFORMANCE_RUN:-../shared/conformance/run.sh}
modern_version=${CONFORMANCE_MODERN_VERSION:-0.2.0-alpha.12}
if [ ! -f "$run" ]; then
  echo "conformance: runner not found at $run (clone the shared folder beside the repository, or set CONFORMANCE_RUN)" >&2
  exit 2
fi

log=$(mktemp)
# Own process group, so that stopping the server also stops the node process tsx runs it in.
PORT=0 HOST=127.0.0.1 setsid node_modules/.bin/tsx examples/conformance/main.ts >"$log" 2>&1 &
server=$!
stop() {
  kill -TERM -- "-$server" 2>/dev/null
  for _ in $(seq 1 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$server" 2>/dev/null
  rm -f "$log"
}
trap stop EXIT

url=''
for _ in $(seq 1 600); do
  url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$log" | head -n 1)
  [ -n "$url" ] && break
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "conformance: the example server did not start:" >&2
  cat "$log" >&2
  exit 2
fi
echo "== conformance server: $url"

echo "== suite 0.1.16 (2025-06-18 / 2025-11-25, legacy era)"
legacy_out=$(bash "$run" "$url" 2>&1)
legacy_status=$?
printf '%s\n' "$legacy_out"

echo "== suite $modern_version --requirements 2026-07-28 (modern era)"
modern_out=$(CONFORMANCE_VERSION="$modern_version" bash "$run" "$url" --requirements 2026-07-28 2>&1)
modern_status=$?
printf '%s\n' "$modern_out"

echo "== summary"
echo "legacy  (0.1.16):                           $(printf '%s\n' "$legacy_out" | grep '^conformance:' | tail -n 1)"
echo "modern  ($modern_version, 2026-07-28): $(printf '%s\n' "$modern_out" | grep '^conformance:' | tail -n 1)"
[ "$legacy_status" -eq 0 ] && [ "$modern_status" -eq 0 ]
