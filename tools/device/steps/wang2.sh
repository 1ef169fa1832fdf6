# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "wang2": Wang et al.'s Table 2 (wang_table2.py). Sourced by tools/device/run.sh,
# whose variables it uses (out, pack, root, summary, note, configs).
# Wang et al.'s Table 2: the standard kernel against 1D warp marching
# (single and double buffer) and 3D warp marching facing the XY and the ZY
# plane, on the 2048^3 micro-benchmark and on a real volume resampled to
# 2048^3 (CVR_WANG2_SPEC FILE:LO:HI:RESAMPLE), no empty-space skipping
wconfigs=std:16x16+noskip,wm:SBShuffle:32:1x1:1x8+noskip,wm:DBShuffle:32:1x1:1x8+noskip
wconfigs+=,wm:DBShuffle:8:2x2:1x8+noskip,wm:SBShuffle:8:2x2:1x8+noskip
"$pack/bin/cvr-bench" --sizes 2048 --rays 512 --axes y --step 90 --range 90 --repeats 5 \
  --configs "$wconfigs" --out "$out/wang2-micro.jsonl" 2>"$out/wang2.err"
note "wang2 micro rc=$?"
IFS=: read -r file lo hi size <<<"${CVR_WANG2_SPEC:-ct/cranium_ct.nii.gz:100:1500:2048x2048x2048}"
"$pack/bin/cvr-bench" --volume "$pack/data/$file" --resample "$size" --lo "$lo" --hi "$hi" \
  --rays 1024 --elevation 0 --step 90 --azimuths 0:90 --repeats 5 --configs "$wconfigs" \
  --out "$out/wang2-real.jsonl" 2>>"$out/wang2.err"
note "wang2 real rc=$?"
python3 "$root/tools/bench/wang_table2.py" "$out"/wang2-*.jsonl | tee -a "$summary"
