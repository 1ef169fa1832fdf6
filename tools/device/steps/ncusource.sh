# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "ncusource": ncu's executed instructions per machine instruction of the warp-marching
# kernels at 2048^3, y 45 (CVR_NCU_CONFIGS: cvr-bench configurations), as CSV of the source page
# beside the SASS. Sourced by tools/device/run.sh, whose variables it uses (out, pack, root,
# summary, note, configs).
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
"$ncu" --section SourceCounters --section InstructionStats --section LaunchStats --section Occupancy \
  --import-source no -k regex:cvr_warp_marching_kernel -o "$out/ncusource" -f \
  "$pack/bin/cvr-bench" --sizes 2048 --rays 512 --axes y --step 45 --range 45 --repeats 1 --warmups 0 \
  --configs "${CVR_NCU_CONFIGS:-wm:SBShuffle:32:1x1:1x8+noskip,wm:DBShuffle:32:1x1:1x8+noskip}" \
  --out "$out/ncusource.jsonl" >"$out/ncusource.log" 2>&1
note "ncusource rc=$?"
"$ncu" --import "$out/ncusource.ncu-rep" --page details >"$out/ncusource-details.txt" 2>&1
"$ncu" --import "$out/ncusource.ncu-rep" --page source --csv --print-source sass 2>&1 |
  xz -T0 >"$out/ncusource-sass.csv.xz"
note "ncusource: $(xz -dc "$out/ncusource-sass.csv.xz" | wc -l) lines of SASS counters"
rm -f "$out/ncusource.ncu-rep"
