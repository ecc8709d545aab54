#!/usr/bin/env bash
# `npm run sdk:range`: the SDK releases the peer range admits, tried for real. Resolves package.json's peer
# range of @modelcontextprotocol/server against the registry and takes the lowest and the newest release it
# admits (or the versions given as arguments). For each, in one temporary copy of this checkout (git HEAD plus
# uncommitted changes to tracked files) with a copy of its node_modules, it installs that server and the client
# of the same version (and the newest @modelcontextprotocol/node whose own peer range takes it), as a user
# would with `npm install`, then runs there:
#   - the type check (tsc over src, tests and examples against that SDK's types);
#   - the equivalence suite (test/equivalence: generated requests against the plain SDK of that version) and
#     the test of the SDK internals mcp-fusion reads (test/adapter/sdkHandlers.test.ts);
#   - the conformance suites against the example server started from the copy: legacy (0.1.16) and modern
#     (2026-07-28), plus the Tasks and Skills extension scenarios with --all.
# Prints one line per version and step, and exits non-zero when any step failed. Widen the peer range only to
# releases this passes.
#   --ci          skip a release equal to the installed one (package-lock.json): `npm test` and
#                 `npm run conformance` have just run against it (.ci/run calls it so, after them)
#   --keep-going  run every step of every version even after a failure (to record what fails)
#   --all         also the Tasks and Skills extension scenarios
# Examples: `npm run sdk:range`, `bash scripts/sdk-range.sh --keep-going 2.3.1 2.0.0`.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
runner=${CONFORMANCE_RUN:-$repo/../shared/conformance/run.sh}
[ -f "$runner" ] || runner=$(realpath -m "$repo/../../shared/conformance/run.sh")
semver=$repo/node_modules/.bin/semver
ci=0 keep_going=0 suites='legacy modern' versions=()
for arg in "$@"; do
  case $arg in
    --ci) ci=1 ;;
    --keep-going) keep_going=1 ;;
    --all) suites='legacy modern tasks skills' ;;
    -*) echo "sdk-range: unknown option $arg (--ci, --keep-going, --all)" >&2; exit 2 ;;
    *) versions+=("$arg") ;;
  esac
done
started=$SECONDS
published() { npm view "$1" versions --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0,"utf8")).join(" "))'; }
version_of() { node -p "require('$1/node_modules/$2/package.json').version"; }

if [ "${#versions[@]}" -eq 0 ]; then
  range=$(node -p "require('./package.json').peerDependencies['@modelcontextprotocol/server']")
  # shellcheck disable=SC2046 # one argument per published version
  admitted=$("$semver" -r "$range" $(published @modelcontextprotocol/server) | tr '\n' ' ')
  [ -n "$admitted" ] || { echo "sdk-range: no published release matches $range" >&2; exit 1; }
  read -r -a all <<<"$admitted"
  echo "== peer range $range admits: $admitted"
  versions=("${all[0]}")
  [ "${all[-1]}" != "${all[0]}" ] && versions+=("${all[-1]}")
  if [ "$ci" = 1 ]; then
    installed=$(version_of "$repo" @modelcontextprotocol/server)
    remaining=()
    for version in "${versions[@]}"; do
      if [ "$version" = "$installed" ]; then
        which='the lowest admitted'
        [ "$version" = "${all[-1]}" ] && which='the newest admitted'
        [ "${all[0]}" = "${all[-1]}" ] && which='the lowest and the newest admitted'
        echo "== server $version, $which, is the installed one: npm test and npm run conformance ran against it"
      else
        remaining+=("$version")
      fi
    done
    versions=("${remaining[@]+"${remaining[@]}"}")
    [ "${#versions[@]}" -gt 0 ] || { echo "== sdk-range: nothing else to try ($((SECONDS - started)) s)"; exit 0; }
  fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mcp-fusion-sdk-range.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "== copy of the checkout and its node_modules in $work"
git archive HEAD | tar -x -C "$work"
git diff HEAD --binary | (cd "$work" && git apply --allow-empty 2>/dev/null || true)
cp -a "$(realpath node_modules)" "$work/node_modules"
cd "$work"

results=() failed=0
summary() {
  echo "== sdk-range summary ($((SECONDS - started)) s in all)"
  printf '%s\n' "${results[@]}"
}
step() {
  local name=$1 t0=$SECONDS
  shift
  echo "== $name (server $version)"
  if "$@"; then
    results+=("server $version: $name passed ($((SECONDS - t0)) s)")
  else
    results+=("server $version: $name FAILED ($((SECONDS - t0)) s)")
    failed=1
    [ "$keep_going" = 1 ] || { summary; exit 1; }
  fi
}

node_releases=$(published @modelcontextprotocol/node)
for version in "${versions[@]}"; do
  # The newest @modelcontextprotocol/node whose peer range admits this server.
  node_version=''
  # shellcheck disable=SC2086 # one argument per published version
  for candidate in $("$semver" -r '>=2.0.0 <3' $node_releases | sort -r -V); do
    peer=$(npm view "@modelcontextprotocol/node@$candidate" peerDependencies.@modelcontextprotocol/server)
    if "$semver" -r "$peer" "$version" >/dev/null; then node_version=$candidate; break; fi
  done
  [ -n "$node_version" ] || { echo "sdk-range: no @modelcontextprotocol/node takes server $version" >&2; exit 1; }
  t0=$SECONDS
  echo "== install server@$version, client@$version, node@$node_version"
  npm install --no-save --no-audit --no-fund --prefer-offline --loglevel=error \
    "@modelcontextprotocol/server@$version" "@modelcontextprotocol/client@$version" \
    "@modelcontextprotocol/node@$node_version"
  got="server $(version_of . @modelcontextprotocol/server), client $(version_of . @modelcontextprotocol/client)"
  got+=", core $(version_of . @modelcontextprotocol/core), node $(version_of . @modelcontextprotocol/node)"
  results+=("server $version: installed $got ($((SECONDS - t0)) s)")
  step typecheck node node_modules/typescript-native/bin/tsc --noEmit -p tsconfig.json
  step "equivalence suite and SDK internals" npx vitest run test/equivalence test/adapter/sdkHandlers.test.ts
  step "conformance ($suites)" env CONFORMANCE_RUN="$runner" CONFORMANCE_SUITES="$suites" bash scripts/conformance.sh
done
summary
exit "$failed"
