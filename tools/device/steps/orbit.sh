# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "orbit": the same strategies over 360 degree orbits of real data. Sourced by
# tools/device/run.sh, whose variables it uses (out, pack, root, summary, note, configs).
# real data, perspective, ERT on: 360 degrees in 15 degree steps
for spec in scivis/bonsai.nii.gz:30:180 ct/cranium_ct.nii.gz:100:1500; do
  IFS=: read -r file lo hi <<<"$spec"
  name=$(basename "$file" .nii.gz)
  "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" --rays 1024 --step 15 \
    --repeats 5 --configs "$configs" --out "$out/orbit-$name.jsonl" 2>>"$out/orbit.err"
  note "orbit $name rc=$?"
  python3 "$root/tools/bench/summarize.py" "$out/orbit-$name.jsonl" | tee -a "$summary"
  python3 "$root/tools/bench/plot_wang.py" "$out/orbit-$name.jsonl" "$out/orbit-$name.png" \
    2>>"$out/orbit.err" || note "plot failed (see orbit.err)"
done
