# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "autoviews": AUTO converged per view on the micro-benchmark, the guard's reference
# library against the working tree's where guard.sh packed them. Sourced by tools/device/run.sh,
# whose variables it uses (out, pack, root, summary, note, configs).
# AUTO converged (cvr_tune_now where a view still tunes, then the median
# of 5 frames) on the micro-benchmark about x, y and z every 15 degrees at
# CVR_AUTOVIEWS_SIZES (default 1024,2048) about CVR_AUTOVIEWS_AXES (xyz),
# 512^2 rays; with the guard's pack (tools/bench/guard.sh pack) the
# reference library first, then the working tree's (CVR_AUTOVIEWS_BUILDS:
# some of them), each with tables of its own; worst and best view per size;
# CVR_AUTOVIEWS_ARGS: more cvr-bench options (--shift X,Y: the rays off
# the voxel grid's alignment)
guard=$root/.device/guard
builds=(pack)
[[ -d $guard/ref ]] && builds=(${CVR_AUTOVIEWS_BUILDS:-ref new})
for f in "$guard"/*/lib/libcvr*.so.0.xz; do [[ -e $f && ! -e ${f%.xz} ]] && xz -dk "$f"; done
for b in "${builds[@]}"; do
  if [[ $b == pack ]]; then bench=$pack/bin/cvr-bench lib=$pack/lib
  else
    bench=$guard/$b/cvr-bench lib=$guard/$b/lib
    [[ -e $bench ]] || bench=$guard/new/cvr-bench # (one harness for both)
  fi
  CVR_TUNING_CACHE_DIR=$(mktemp -d) LD_LIBRARY_PATH=$lib "$bench" \
    --sizes "${CVR_AUTOVIEWS_SIZES:-1024,2048}" --rays 512 --step 15 \
    --axes "${CVR_AUTOVIEWS_AXES:-xyz}" --repeats 5 ${CVR_AUTOVIEWS_ARGS:-} \
    --configs auto --out "$out/autoviews-$b.jsonl" 2>"$out/autoviews-$b.err"
  note "autoviews $b rc=$?"
  python3 "$root/tools/bench/summarize.py" "$out/autoviews-$b.jsonl" 2>&1 | grep -i "auto" | tee -a "$summary"
done
