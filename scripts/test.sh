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
echo "== typecheck"; npx tsc --noEmit -p tsconfig.json
echo "== format (Prettier: npm run format writes it)"; npx prettier --check . --log-level warn
echo "== lint"; npx eslint .
echo "== docs (type-check every ts block of README.md and docs/*.md, each alone unless it says it is a fragment, and the programs they form)"; npx tsx scripts/docs-typecheck.ts
echo "== tests"; npx vitest run "$@"
