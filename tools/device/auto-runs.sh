#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Repeated cvr-auto-bench runs (run.sh auto) in one device call, on what
# pack.sh packed, into one tar file: a call brings back at most 8 files.
#
#   tools/device/auto-runs.sh OUT PREFIX [SECONDS]
#     runs OUT/PREFIX-a, -b, ... while the next is expected (as long as the
#     last) to end within SECONDS (default 470; a run of the five orbits
#     takes about 110 s on an H100, twice that with CVR_AB), then packs
#     them into OUT/PREFIX.tar and prints each orbit's summary line;
#     CVR_AUTO_ARGS passes options to every orbit (e.g. --replicate), and
#     CVR_AUTO_CACHED=1 adds each orbit's run from its kept tables (run.sh). A build
#     variant: pack.sh with its build folder (device.txt shows its flags).
#     CVR_AB=PREFIX_B: another commit's build too (pair.sh put it under
#     .device/b), run after each run of this one as PREFIX_B-a, -b, ... into
#     OUT/PREFIX_B.tar: the two compare on one GPU, their runs interleaved.
#     CVR_AB_ARGS="OPTIONS": with CVR_AB, the second runs are this build's
#     own, with OPTIONS in place of CVR_AUTO_ARGS (settings compared, e.g.
#     --budget 0.005: no second build).
set -uo pipefail
out=${1:?usage: auto-runs.sh OUT PREFIX [SECONDS]}
prefix=${2:?usage: auto-runs.sh OUT PREFIX [SECONDS]}
limit=${3:-470}
root=$(cd "$(dirname "$0")/../.." && pwd)
other=${CVR_AB:-}
other_pack=$root/.device/b
[[ -n ${CVR_AB_ARGS+set} ]] && other_pack=$root/.device # (settings compared: this build)
other_args=${CVR_AB_ARGS-${CVR_AUTO_ARGS:-}}
if [[ -n $other && $other_pack == "$root/.device/b" ]]; then
  pack=$root/.device
  [[ -x $pack/b/bin/cvr-auto-bench ]] ||
    { echo "auto-runs.sh: CVR_AB needs .device/b with cvr-auto-bench (pair.sh)" >&2; exit 1; }
  [[ -e $pack/b/lib/libcvr.so.0 ]] || tar xJf "$pack/pair.tar.xz" -C "$pack"
  [[ -e $pack/b/data ]] || ln -s ../data "$pack/b/data"
fi
one_run() { # PACK NAME OPTIONS (cvr-auto-bench's, as CVR_AUTO_ARGS)
  CVR_AUTO_ARGS=$3 CVR_DEVICE_PACK=$1 "$root/tools/device/run.sh" "$out/$2" auto >/dev/null 2>&1
  for f in "$out/$2"/{auto,cached}-*.jsonl; do # (JSON lines: xz keeps 40% less than gzip)
    [[ -e $f ]] && xz -9 -f "$f"
  done
}
start=$SECONDS
runs=() others=()
last=0 # (how long the last run, or pair, took: the next is expected to take as long)
for r in a b c d e f g h i j k l m n o p; do
  ((SECONDS - start + last < limit)) || break
  begun=$SECONDS
  one_run "$root/.device" "$prefix-$r" "${CVR_AUTO_ARGS:-}"
  runs+=("$prefix-$r")
  if [[ -n $other ]]; then
    one_run "$other_pack" "$other-$r" "$other_args"
    others+=("$other-$r")
  fi
  echo "$prefix-$r${other:+ and $other-$r} done after $((SECONDS - start)) s"
  last=$((SECONDS - begun))
done
summaries() { # TAR
  tar xOf "$1" --wildcards '*/summary.txt' | python3 -c '
import json, sys
for line in sys.stdin:
    if "{" in line:
        s = json.loads(line[line.index("{"):])
        print("(from the kept tables)" if s.get("from_cache") else "",
              s["volume"], "shaded" if s["shaded"] else "", "within 5%, confirmed:",
              s["views_within_5pct_confirmed"], "replicate:",
              s.get("replicate_views_within_5pct_confirmed", "-"))
'
}
(cd "$out" && tar cf "$prefix.tar" "${runs[@]}" && rm -rf "${runs[@]}")
summaries "$out/$prefix.tar"
if [[ -n $other ]]; then
  (cd "$out" && tar cf "$other.tar" "${others[@]}" && rm -rf "${others[@]}")
  echo "$other ($(cat "$other_pack/commit")${CVR_AB_ARGS+, options: $CVR_AB_ARGS}):"
  summaries "$out/$other.tar"
fi
