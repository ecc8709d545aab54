#!/usr/bin/env bash
# `npm test`: type check, lint, then every test (unit, type tests, end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== redis-server"
# The Redis tests run against a real redis-server (started privately on a free port): make sure one is installed.
if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "redis-server is missing; installing Debian's redis-server with apt"
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server
  else
    echo "redis-server is missing. Install it, then run npm test again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y redis-server" >&2
    exit 1
  fi
fi
redis-server --version
echo "== chromium"
# The dev console's tests drive Debian's headless Chromium through playwright-core (never a downloaded browser).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium is missing; installing Debian's chromium with apt"
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
  else
    echo "chromium is missing. Install it, then run npm test again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi
# The four checks read the tree and write nothing to it: they run at once (each CPU-bound; together they keep
# both cores of a 2-core machine busy), each one's output printed whole, in this order, once all have ended.
checks=$(mktemp -d)
trap 'rm -rf "$checks"' EXIT
check() {
  local name=$1
  shift
  (
    status=0
    "$@" >"$checks/$name.out" 2>&1 || status=$?
    echo "$status" >"$checks/$name.status"
  ) &
}
# The type check reuses from its previous run the verdict on a file whose content has not changed (tsc's
# incremental build info: it re-checks a changed file and the files whose types depend on it), kept per checkout
# under the node_modules that several worktrees may share; delete node_modules/.cache/mcp-fusion-checks/ to start
# afresh. The format and lint checks are oxfmt and oxlint (native, on every file in well under a second; their
# settings: .oxfmtrc.json, .oxlintrc.json), so they keep no cache.
cache="node_modules/.cache/mcp-fusion-checks/$(pwd -P | cksum | cut -d ' ' -f 1)"
mkdir -p "$cache"
# The type check runs TypeScript 7 (the native compiler, devDependency typescript-native: the same checker, about
# a third of the CPU of TypeScript 5.9's), named by its path: both packages provide node_modules/.bin/tsc. One
# checker thread (--singleThreaded): 6.6 CPU s instead of 12 (its four default checkers each resolve the shared
# types again) in about the same wall time, and the docs check takes the other core meanwhile. The build
# (scripts/build.ts), the docs check, typedoc and Vitest's type tests use TypeScript 5.9's API.
check typecheck node node_modules/typescript-native/bin/tsc --noEmit -p tsconfig.json --singleThreaded --incremental \
  --tsBuildInfoFile "$cache/tsc.tsbuildinfo"
# The installed commands are run by their path in node_modules/.bin, not through npx (which costs about half a
# CPU second a call to find them).
bin=node_modules/.bin
check format "$bin/oxfmt" --check
check lint "$bin/oxlint" --deny-warnings
check docs "$bin/tsx" scripts/docs-typecheck.ts
wait
failed=0
for step in "typecheck" "format (oxfmt: npm run format writes it)" "lint" \
  "docs (type-check every ts block of README.md and docs/*.md, each alone unless it says it is a fragment, and the programs they form)"; do
  name=${step%% *}
  echo "== $step"
  cat "$checks/$name.out"
  [ "$(cat "$checks/$name.status")" = 0 ] || { echo "$name failed" >&2; failed=1; }
done
[ "$failed" = 0 ] || exit 1
# The type tests (test/**/*.test-d.ts, Vitest's project "types") were checked above: tsconfig.json includes
# them, so the typecheck step ran the tsc that Vitest's typecheck would run again, alone, after every other file.
# The timing and heap-peak files (vitest.config.ts, project "alone") run in the same run, once the others have
# ended (a later group), one at a time.
echo "== tests"; "$bin/vitest" run --project isolated --project shared --project alone "$@"
