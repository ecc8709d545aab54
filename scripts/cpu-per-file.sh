#!/usr/bin/env bash
# CPU seconds (user + system, the children Vitest waits for included) of each test file run alone, minus an
# empty run's, sorted from the most. CPU seconds compare across a busy machine; wall seconds do not.
#   bash scripts/cpu-per-file.sh                  every file of the `isolated` project
#   bash scripts/cpu-per-file.sh a.test.ts b.test.ts   those files (each in the project that holds it)
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
measure() { # label, then vitest arguments: prints "cpu user sys wall status label"
  local label=$1
  shift
  local status=0
  /usr/bin/time -o "$out/time" -f '%U %S %e' npx vitest run "$@" >"$out/log" 2>&1 || status=$?
  read -r user sys wall < <(tail -n 1 "$out/time")
  echo "$(echo "$user + $sys" | bc) $user $sys $wall $status $label"
}
# The empty run: Vitest's start, the global setup (redis-server, the child bundles), one small file's import.
read -r base _ <<<"$(measure empty --project isolated test/_internal/clock.test.ts -t 'matches no test name')"
echo "empty run: $base CPU s (subtracted below)" >&2
if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(npx vitest list --project isolated --filesOnly | sed 's/^\[[a-z]*\] //' | sort); fi
for file in "${files[@]}"; do
  line=$(measure "$file" "$file")
  echo "$line" >>"$out/table"
  echo "$line" >&2
done
echo "| file | CPU s (minus empty run) | user | system | wall s | exit |"
echo "|---|---:|---:|---:|---:|---:|"
sort -rn "$out/table" | while read -r cpu user sys wall status file; do
  echo "| $file | $(echo "$cpu - $base" | bc) | $user | $sys | $wall | $status |"
done
