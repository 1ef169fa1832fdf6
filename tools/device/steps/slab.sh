# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "slab": Mensmann et al.'s Table 3: basic against slab-based ray casting, with and
# without shading, and test_slab's gradient pictures; CVR_SLAB_SPECS, CVR_SLAB_CONFIGS and
# CVR_SLAB_ARGS narrow it, CVR_SLAB_NO_IMAGES=1 leaves the pictures out. Sourced by
# tools/device/run.sh, whose variables it uses (out, pack, root, summary, note, configs).
# Table 3 of Mensmann et al. on Hopper: the basic kernel (block sizes) and
# the slab kernel (block sizes x slab depths, border rays as a ring of
# threads or gathered), unshaded and shaded, 360
# degree perspective orbits, viewports 512, 768 and 1024; the 8-bit engine
# (the paper's own) and the 16-bit cranium CT, as it is and resampled to
# vmhead's 512 x 512 x 294
sconfigs=""
for shade in "" +shade; do
  for b in 8x8 16x8 16x16 32x4 32x8; do sconfigs+=,std:$b$shade; done
  for b in 8x8 16x8 16x16 32x8 16x32 32x16; do
    for d in 4 8 16 32; do sconfigs+=,slab:$b:$d$shade; done
  done
  # the border rays gathered by the tile's threads: blocks are tiles
  for b in 8x8 16x8 16x16 32x4 32x8; do
    for d in 4 8 16 32; do sconfigs+=,slab:$b:$d+gather$shade; done
  done
done
sconfigs=${CVR_SLAB_CONFIGS:-${sconfigs#,}}
# CVR_SLAB_SPECS: FILE:LO:HI:[RESAMPLE] ... instead of the three volumes
for spec in ${CVR_SLAB_SPECS:-scivis/engine.nii.gz:50:120: ct/cranium_ct.nii.gz:100:1500: ct/cranium_ct.nii.gz:100:1500:512x512x294}; do
  IFS=: read -r file lo hi resample <<<"$spec"
  name=$(basename "$file" .nii.gz)${resample:+-$resample}
  "$pack/bin/cvr-bench" --volume "$pack/data/$file" ${resample:+--resample $resample} --lo "$lo" --hi "$hi" \
    --rays 512,768,1024 ${CVR_SLAB_ARGS:---step 30 --repeats 3 --warmups 1} --configs "$sconfigs" \
    --out "$out/slab-$name.jsonl" 2>>"$out/slab.err"
  note "slab table 3 $name rc=$?"
done
python3 "$root/tools/bench/table3.py" "$out"/slab-*.jsonl | tee "$out/table3.md" | tee -a "$summary"
[[ -n ${CVR_SLAB_NO_IMAGES:-} ]] || {
mkdir -p "$out/slab-images"
(cd "$pack/bin" && ./test_slab --images "$out/slab-images") >"$out/slab-images.log" 2>&1
note "slab images rc=$? ($(tail -n 1 "$out/slab-images.log"))"
}
