#!/usr/bin/env bash
# `npm test`: type check, lint, then every test (unit, type tests, end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npx tsc --noEmit -p tsconfig.json
echo "== lint"; npx eslint .
echo "== tests"; npx vitest run "$@"
