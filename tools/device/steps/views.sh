# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "views": a few views of one volume at every degree per image size, and ncu's balance
# of the SMs there. Sourced by tools/device/run.sh, whose variables it uses (out, pack, root,
# summary, note, configs).
# a few views of one volume at every degree, per image size, and ncu's
# balance of the SMs at some of them: whether a configuration's cost at a
# view is its memory traffic or how its blocks share out the SMs.
# CVR_VIEWS_SPEC file:lo:hi[:AxBxC], CVR_VIEWS_AZIMUTHS A:B, CVR_VIEWS_CONFIGS,
# CVR_VIEWS_RAYS, CVR_VIEWS_NCU A:B:STEP (the views ncu profiles at the first size)
IFS=: read -r file lo hi size <<<"${CVR_VIEWS_SPEC:-ct/cranium_ct.nii.gz:100:1500:512x512x294}"
vconfigs=${CVR_VIEWS_CONFIGS:-std:4x64,std:2x128,std:16x16}
vrays=${CVR_VIEWS_RAYS:-512,1024,2048}
resample=()
[[ -n $size ]] && resample=(--resample "$size")
"$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" "${resample[@]}" \
  --azimuths "${CVR_VIEWS_AZIMUTHS:-80:120}" --step 1 --rays "$vrays" --repeats 15 \
  --configs "$vconfigs" --out "$out/views.jsonl" 2>"$out/views.err"
note "views rc=$?"
IFS=: read -r from to every <<<"${CVR_VIEWS_NCU:-95:105:5}"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_active.min,gpc__cycles_elapsed.max
metrics+=,launch__waves_per_multiprocessor,launch__grid_size,launch__occupancy_limit_registers
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct
metrics+=,l1tex__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum
"$ncu" --csv --metrics "$metrics" -k regex:cvr_standard_kernel \
  "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" "${resample[@]}" \
  --azimuths "$from:$to" --step "$every" --rays "${vrays%%,*}" --warmups 0 --repeats 1 \
  --configs "$vconfigs" --out "$out/views-ncu.jsonl" 2>"$out/views-ncu.err" |
  grep -v '^==PROF==' >"$out/views-ncu.csv"
note "views ncu rc=${PIPESTATUS[0]}"
python3 "$root/tools/bench/views_report.py" "$out/views.jsonl" "$out/views-ncu.csv" \
  "$out/views-ncu.jsonl" | tee -a "$summary"
