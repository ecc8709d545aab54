#!/usr/bin/env bash
# `npm run sdk:range`: the SDK releases the peer range admits, tried for real. In a temporary copy of this
# checkout (git HEAD plus uncommitted changes to tracked files), `npm ci`, then for the lowest and the newest
# @modelcontextprotocol/server release that package.json's peer range admits (or the versions given as
# arguments): install that server and the client of the same version (and the newest @modelcontextprotocol/node
# whose own peer range takes it), then run the type check, the equivalence suite (test/equivalence, its
# generated requests against the plain SDK of that version), the SDK internals mcp-fusion reads
# (test/adapter/sdkHandlers.test.ts) and `npm run conformance` (both eras). Exits non-zero
# on the first failure, naming the version. Widen the peer range only to releases this passes.
#
# It installs from the registry and takes far more than CI's 3-minute budget for it (22 min for one version on the
# shared 2-core machine: `npm ci` 4 min, the suites 1 min, conformance the rest), so .ci/run does not call it; run it before widening the range and after each SDK
# release: `npm run sdk:range` or `bash scripts/sdk-range.sh 2.4.0 2.5.0`.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
runner=${CONFORMANCE_RUN:-$repo/../shared/conformance/run.sh}
[ -f "$runner" ] || runner=$(realpath -m "$repo/../../shared/conformance/run.sh")
range=$(node -p "require('./package.json').peerDependencies['@modelcontextprotocol/server']")

work=$(mktemp -d "${TMPDIR:-/tmp}/mcp-fusion-sdk-range.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "== copy of the checkout in $work"
git archive HEAD | tar -x -C "$work"
git diff HEAD --binary | (cd "$work" && git apply --allow-empty 2>/dev/null || true)
cd "$work"
npm ci --no-audit --no-fund --loglevel=error

if [ "$#" -gt 0 ]; then
  versions=("$@")
else
  published=$(npm view @modelcontextprotocol/server versions --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0,"utf8")).join(" "))')
  # shellcheck disable=SC2086
  admitted=$(node_modules/.bin/semver -r "$range" $published | tr '\n' ' ')
  [ -n "$admitted" ] || { echo "sdk-range: no published release matches $range" >&2; exit 1; }
  read -r -a all <<<"$admitted"
  versions=("${all[0]}")
  [ "${all[-1]}" != "${all[0]}" ] && versions+=("${all[-1]}")
  echo "== peer range $range admits: $admitted"
fi

for version in "${versions[@]}"; do
  # The newest @modelcontextprotocol/node whose peer range admits this server.
  candidates=$(npm view @modelcontextprotocol/node versions --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0,"utf8")).join(" "))')
  node_version=''
  # shellcheck disable=SC2086
  for candidate in $(node_modules/.bin/semver -r '>=2.0.0 <3' $candidates | sort -r -V); do
    peer=$(npm view "@modelcontextprotocol/node@$candidate" peerDependencies.@modelcontextprotocol/server)
    if node_modules/.bin/semver -r "$peer" "$version" >/dev/null; then node_version=$candidate; break; fi
  done
  [ -n "$node_version" ] || { echo "sdk-range: no @modelcontextprotocol/node takes server $version" >&2; exit 1; }
  echo "== @modelcontextprotocol/server@$version, client@$version, node@$node_version"
  npm install --no-save --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/server@$version" "@modelcontextprotocol/client@$version" \
    "@modelcontextprotocol/node@$node_version"
  echo "== typecheck ($version)"
  npx tsc --noEmit -p tsconfig.json || { echo "sdk-range: server $version fails the type check" >&2; exit 1; }
  echo "== equivalence suite and SDK internals ($version)"
  npx vitest run test/equivalence test/adapter/sdkHandlers.test.ts ||
    { echo "sdk-range: server $version fails the equivalence suite or the SDK internals test" >&2; exit 1; }
  echo "== conformance ($version)"
  CONFORMANCE_RUN="$runner" npm run -s conformance || { echo "sdk-range: server $version fails conformance" >&2; exit 1; }
  echo "== server $version passes"
done
