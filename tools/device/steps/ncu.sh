# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "ncu": ncu's cache hit rates of the strategies facing XY and ZY. Sourced by
# tools/device/run.sh, whose variables it uses (out, pack, root, summary, note, configs).
# texture (L1) and L2 hit rates facing XY (y0) and ZY (y90), 1024^3, 512^2 rays
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
"$ncu" --csv --metrics l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct \
  -k regex:cvr_standard_kernel\|cvr_warp_marching_kernel \
  "$pack/bin/cvr-bench" --sizes 1024 --rays 512 --axes y --step 90 --warmups 0 --repeats 1 \
  --configs "$configs" --out "$out/ncu-views.jsonl" 2>"$out/ncu.err" | grep -v '^==PROF==' >"$out/ncu.csv"
note "ncu rc=${PIPESTATUS[0]}"
python3 "$root/tools/bench/ncu_join.py" "$out/ncu-views.jsonl" "$out/ncu.csv" | tee -a "$summary"
