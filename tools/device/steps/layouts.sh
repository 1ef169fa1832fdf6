# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "layouts": texture, array order and Z-order on the micro-benchmark and real-data
# orbits. Sourced by tools/device/run.sh, whose variables it uses (out, pack, root, summary, note,
# configs).
lconfigs=std:16x16,std:16x16@array,std:16x16@zorder,shape,shape@array,shape@zorder
lconfigs+=,wm:DBShuffle:8:2x2:1x8,wm:DBShuffle:8:2x2:1x8@array,wm:DBShuffle:8:2x2:1x8@zorder
"$pack/bin/cvr-bench" --sizes 512,1024 --rays 512 --step 15 --repeats 3 --warmups 1 \
  --configs "$lconfigs" --out "$out/layouts-micro.jsonl" 2>"$out/layouts.err"
note "layouts micro rc=$?"
for spec in scivis/bonsai.nii.gz:30:180 ct/cranium_ct.nii.gz:100:1500; do
  IFS=: read -r file lo hi <<<"$spec"
  name=$(basename "$file" .nii.gz)
  "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" --rays 1024 --step 10 \
    --repeats 3 --warmups 1 --configs "$lconfigs,shape+rot,shape+rot@array" \
    --out "$out/layouts-orbit-$name.jsonl" 2>>"$out/layouts.err"
  note "layouts orbit $name rc=$?"
done
