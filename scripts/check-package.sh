#!/usr/bin/env bash
# `npm run check:package`: packs the package once (`prepack` builds) and checks the tarball the way users
# and tools resolve it: publint --strict (package.json fields, exports, files) and @arethetypeswrong/cli
# (types for import and require under node10, node16 from CJS and ESM, and bundler resolution).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
npm pack --silent --pack-destination "$dir" >/dev/null
tarball="$(ls "$dir"/*.tgz)"
npx publint --strict "$tarball"
npx attw "$tarball"
