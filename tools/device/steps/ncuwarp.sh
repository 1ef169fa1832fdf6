# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "ncuwarp": ncu's sections for warp marching and the standard kernel beside the lean
# ones at 2048^3. Sourced by tools/device/run.sh, whose variables it uses (out, pack, root,
# summary, note, configs).
# where warp marching's time goes at 2048^3, y 45: ncu's issue, occupancy,
# stall and memory sections for the library's 3D and 1D warp marching and
# standard kernel, and for the lean reference's (its views x 0, 45, 90,
# then y 0, 45: each view launches 36 kernels, the y 45 ones profiled)
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
  --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section SchedulerStats)
"$ncu" "${sections[@]}" -k regex:'cvr_warp_marching_kernel|cvr_standard_kernel' --launch-count 12 \
  "$pack/bin/cvr-bench" --sizes 2048 --rays 512 --axes y --step 45 --range 45 --repeats 1 --warmups 0 \
  --configs wm:DBShuffle:8:2x2:1x8+noskip,wm:DBShuffle:32:1x1:1x8+noskip,std:16x16+noskip \
  --out "$out/ncuwarp-lib.jsonl" >"$out/ncuwarp-lib.txt" 2>"$out/ncuwarp.err"
note "ncuwarp library rc=$?"
[[ -x $pack/bin/lean_reference ]] || nvcc -O3 -arch=sm_90 "$pack/lean_reference.cu" -o "$pack/bin/lean_reference"
"$ncu" "${sections[@]}" -k regex:'standard|warpmarch' --launch-skip 144 --launch-count 36 \
  "$pack/bin/lean_reference" 2048 512 >"$out/ncuwarp-lean.txt" 2>>"$out/ncuwarp.err"
note "ncuwarp lean rc=$?"
