#!/usr/bin/env bash
# Repeated cvr-auto-bench runs (run.sh auto) in one device call, on what
# pack.sh packed, into one tar file: a call brings back at most 8 files.
#
#   tools/device/auto-runs.sh OUT PREFIX [SECONDS]
#     runs OUT/PREFIX-a, -b, ... while SECONDS (default 470) have not passed
#     (a run of the five orbits takes about a minute on an H100), then packs
#     them into OUT/PREFIX.tar and prints each orbit's summary line;
#     CVR_AUTO_ARGS passes options to every orbit (e.g. --replicate). A build
#     variant: pack.sh with its build folder (device.txt shows its flags).
set -uo pipefail
out=${1:?usage: auto-runs.sh OUT PREFIX [SECONDS]}
prefix=${2:?usage: auto-runs.sh OUT PREFIX [SECONDS]}
limit=${3:-470}
root=$(cd "$(dirname "$0")/../.." && pwd)
start=$SECONDS
runs=()
for r in a b c d e f g h i j k l m n o p; do
  ((SECONDS - start < limit)) || break
  "$root/tools/device/run.sh" "$out/$prefix-$r" auto >/dev/null 2>&1
  xz -9 -f "$out/$prefix-$r"/auto-*.jsonl # (JSON lines: xz keeps 40% less than gzip)
  runs+=("$prefix-$r")
  echo "$prefix-$r done after $((SECONDS - start)) s"
done
(cd "$out" && tar cf "$prefix.tar" "${runs[@]}" && rm -rf "${runs[@]}")
tar xOf "$out/$prefix.tar" --wildcards '*/summary.txt' | python3 -c '
import json, sys
for line in sys.stdin:
    if "{" in line:
        s = json.loads(line[line.index("{"):])
        print(s["volume"], "shaded" if s["shaded"] else "", "within 5%, confirmed:",
              s["views_within_5pct_confirmed"], "replicate:",
              s.get("replicate_views_within_5pct_confirmed", "-"))
'
