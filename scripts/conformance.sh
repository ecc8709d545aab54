#!/usr/bin/env bash
# `npm run conformance`: starts examples/conformance on a free 127.0.0.1 port and runs the official MCP
# conformance suite against it three times: 0.1.16 (the 2025-06-18 / 2025-11-25 scenarios, legacy era),
# 0.2.0-alpha.12 with `--requirements 2026-07-28` (every scenario the 2026-07-28 revision requires, modern
# era), every `tasks-*` scenario of the Tasks extension (io.modelcontextprotocol/tasks) in 0.2.0-alpha.12, and
# every `sep-2640-skills-*` scenario of the Skills extension (io.modelcontextprotocol/skills), in both eras.
# The runner (../shared/conformance/run.sh, or $CONFORMANCE_RUN) installs the suite and a Node 22
# runtime into a cache folder on first use. CONFORMANCE_SUITES picks the runs (default all four: "legacy modern
# tasks skills"; scripts/sdk-range.sh runs "legacy modern"). Prints one `conformance: P passed, F failed` line
# per run and exits non-zero when any run has a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
run=${CONFORMANCE_RUN:-../shared/conformance/run.sh}
modern_version=${CONFORMANCE_MODERN_VERSION:-0.2.0-alpha.12}
suites=" ${CONFORMANCE_SUITES:-legacy modern tasks skills} "
runs() { [[ $suites == *" $1 "* ]]; }
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

legacy_out='(not run)' legacy_status=0 modern_out='(not run)' modern_status=0
if runs legacy; then
  echo "== suite 0.1.16 (2025-06-18 / 2025-11-25, legacy era)"
  legacy_out=$(bash "$run" "$url" 2>&1)
  legacy_status=$?
  printf '%s\n' "$legacy_out"
fi

if runs modern; then
  echo "== suite $modern_version --requirements 2026-07-28 (modern era)"
  modern_out=$(CONFORMANCE_VERSION="$modern_version" bash "$run" "$url" --requirements 2026-07-28 2>&1)
  modern_status=$?
  printf '%s\n' "$modern_out"
fi

# The extension scenarios are not among the revision's requirements; `list --server` of 0.2.0-alpha.12 names
# these ten (each runs on its own, one `conformance:` line each, summed here).
task_scenarios=''
runs tasks && task_scenarios=${CONFORMANCE_TASK_SCENARIOS:-"tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications tasks-required-task-error tasks-mrtr-composition"}
[ -n "$task_scenarios" ] && echo "== suite $modern_version, Tasks extension scenarios (tasks-*)"
tasks_passed=0; tasks_failed=0
for scenario in $task_scenarios; do
  out=$(CONFORMANCE_VERSION="$modern_version" bash "$run" "$url" --scenario "$scenario" 2>&1)
  if [ $? -eq 0 ]; then tasks_passed=$((tasks_passed + 1)); else tasks_failed=$((tasks_failed + 1)); printf '%s\n' "$out" | grep -v '^conformance:' | sed "s/^/[$scenario] /"; fi
done
tasks_line="conformance: $tasks_passed passed, $tasks_failed failed"
[ -n "$task_scenarios" ] || tasks_line='(not run)'
echo "$tasks_line"

# The Skills extension scenarios of 0.2.0-alpha.12 (`list --server` names these three), each at the suite's own
# wire (2026-07-28, modern era) and forced onto the 2025-11-25 wire (legacy era): the example serves a skill.
skill_scenarios=''
runs skills && skill_scenarios=${CONFORMANCE_SKILL_SCENARIOS:-"sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory"}
[ -n "$skill_scenarios" ] && echo "== suite $modern_version, Skills extension scenarios (sep-2640-skills-*), modern and legacy era"
skills_passed=0; skills_failed=0
for scenario in $skill_scenarios; do
  for wire in "" "--spec-version 2025-11-25 --force"; do
    # shellcheck disable=SC2086 # $wire is two or three words on purpose
    out=$(CONFORMANCE_VERSION="$modern_version" bash "$run" "$url" --scenario "$scenario" $wire 2>&1)
    if [ $? -eq 0 ]; then skills_passed=$((skills_passed + 1)); else skills_failed=$((skills_failed + 1)); printf '%s\n' "$out" | grep -v '^conformance:' | sed "s/^/[$scenario${wire:+ legacy}] /"; fi
  done
done
skills_line="conformance: $skills_passed passed, $skills_failed failed"
[ -n "$skill_scenarios" ] || skills_line='(not run)'
echo "$skills_line"

echo "== summary"
echo "legacy  (0.1.16):                           $(printf '%s\n' "$legacy_out" | grep '^conformance:\|^(not run)' | tail -n 1)"
echo "modern  ($modern_version, 2026-07-28): $(printf '%s\n' "$modern_out" | grep '^conformance:\|^(not run)' | tail -n 1)"
echo "tasks   ($modern_version, tasks-*):     $tasks_line"
echo "skills  ($modern_version, sep-2640-*):  $skills_line"
[ "$legacy_status" -eq 0 ] && [ "$modern_status" -eq 0 ] && [ "$tasks_failed" -eq 0 ] && [ "$skills_failed" -eq 0 ]
