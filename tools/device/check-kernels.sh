#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# One device call for a change under kernels/: the GPU tests, the regression
# guard, the rotation kernel's bandwidth against the reference's, the lean
# reference kernels and the machine code; optionally the sanitizers.
#
#   here:  tools/device/pack.sh && CVR_GUARD_NEW_BUILD=build-device tools/bench/guard.sh pack
#   there: tools/device/check-kernels.sh OUT [STEP...]
#     STEP: tests guard rotation lean sass sanitize (default: all but sanitize;
#     CVR_SANITIZE_TESTS / CVR_SANITIZE_TOOLS narrow the sanitizers, run.sh)
# OUT receives summary.txt, guard-report.txt and everything else in
# check.tar.xz (a device call returns at most 8 files).
set -uo pipefail
out=${1:?usage: check-kernels.sh OUT [STEP...]}
shift
steps=" ${*:-tests guard rotation lean sass} "
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)/check
mkdir -p "$work" "$out"
# (what is done so far reaches OUT after each step, should the call be cut short)
save() { cp "$work/summary.txt" "$work/guard-report.txt" "$out/" 2>/dev/null; }
[[ $steps == *" tests "* ]] && "$root/tools/device/run.sh" "$work" tests >"$work/run.log" 2>&1
save
if [[ $steps == *" guard "* ]]; then
  "$root/tools/bench/guard.sh" run "$work" >"$work/guard.log" 2>&1
  echo "guard rc=$?" >>"$work/summary.txt"
fi
save
if [[ $steps == *" rotation "* ]]; then
  # one quarter turn per layout and tile, the reference's library and the
  # working tree's (guard.sh's pack), each through its own program
  guard=$root/.device/guard
  for b in ref new; do
    # cvr-rotation-bench, or in an older tree cvr-bench --rotation-bandwidth
    bench=($guard/$b/cvr-rotation-bench)
    for old in cvr-bench-rotation cvr-bench; do
      [[ -e $bench ]] || bench=($guard/$b/$old --rotation-bandwidth)
    done
    LD_LIBRARY_PATH=$guard/$b/lib "${bench[@]}" --sizes 1024 \
      --repeats 5 --out "$work/rotation-$b.jsonl" 2>"$work/rotation-$b.err"
  done
  python3 - "$work" <<'PY' | tee -a "$work/summary.txt"
import json, sys
best = {}
for b in ("ref", "new"):
    for line in open(f"{sys.argv[1]}/rotation-{b}.jsonl"):
        r = json.loads(line)
        if r.get("bench") != "rotation" or "error" in r:
            continue
        k = (r["layout"], b)
        if k not in best or r["gbytes_per_s"] > best[k]["gbytes_per_s"]:
            best[k] = r
for layout in sorted({k[0] for k in best}):
    row = [f"rotation 1024^3 {layout:12}"]
    for b in ("ref", "new"):
        r = best.get((layout, b))
        if r:
            row.append(f"{b} {r['gbytes_per_s']:6.0f} GB/s ({r['of_copy']:.0%} of copy, t={r['t']} k={r['k']})")
    print("  ".join(row))
PY
fi
save
run_steps=""
for s in lean sass sanitize; do [[ $steps == *" $s "* ]] && run_steps+=" $s"; done
# (run.sh starts its summary afresh: keep what is there)
if [[ -n $run_steps ]]; then
  mv "$work/summary.txt" "$work/summary.before"
  "$root/tools/device/run.sh" "$work" $run_steps >>"$work/run.log" 2>&1
  cat "$work/summary.before" "$work/summary.txt" >"$work/summary.all" 2>/dev/null
  mv "$work/summary.all" "$work/summary.txt"
fi
save
tar cJf "$out/check.tar.xz" -C "$(dirname "$work")" check
cat "$work/summary.txt"
[[ -e $work/guard-report.txt ]] && cat "$work/guard-report.txt"
