# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "empty": empty-space skipping on and off: its cost on the micro-benchmark (random
# data, nothing to skip) and its gain on real-data orbits, per strategy and cell size
# (empty_table.py). Sourced by tools/device/run.sh, whose variables it uses (out, pack, root,
# summary, note, configs).
# every strategy with and without skipping; cell sizes on the standard one
econfigs=""
for c in std:16x16 shape wm:DBShuffle:32:1x1:1x8 wm:DBShuffle:8:2x2:1x8 slab:16x8:8 \
  std:16x16+shade wm:DBShuffle:32:1x1:1x8+shade slab:16x8:8+shade; do
  econfigs+=,$c+skip,$c+noskip
done
econfigs=${econfigs#,}
"$pack/bin/cvr-bench" --sizes 1024 --rays 512 --step 30 --repeats 5 --configs "$econfigs" \
  --out "$out/empty-micro.jsonl" 2>"$out/empty.err"
note "empty micro rc=$?"
for spec in scivis/bonsai.nii.gz:30:180 ct/cranium_ct.nii.gz:100:1500 mri/avm_mra_337x319x154.nii.gz:60:200; do
  IFS=: read -r file lo hi <<<"$spec"
  name=$(basename "$file" .nii.gz)
  "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" --rays 1024 --step 30 \
    --repeats 5 --configs "$econfigs,std:16x16+skip:4,std:16x16+skip:16,std:16x16+skip:32" \
    --out "$out/empty-orbit-$name.jsonl" 2>>"$out/empty.err"
  note "empty orbit $name rc=$?"
done
python3 "$root/tools/bench/empty_table.py" "$out"/empty-*.jsonl | tee -a "$summary"
