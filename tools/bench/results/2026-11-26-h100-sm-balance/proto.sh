#!/usr/bin/env bash
# The tile-order prototype's device run (9df1d46, reverted in 85a8f23), as run
# from a pack of cvr-bench and four GPU tests with the cranium and bonsai:
#   CVR_PACK_PROGRAMS="cvr-bench test_cuda_vs_cpu test_analytic test_strategies test_blend_modes" \
#     CVR_PACK_DATA="ct/cranium_ct.nii.gz scivis/bonsai.nii.gz" tools/device/pack.sh
# then, on the GPU machine, bash proto.sh OUT (with .device/ as the pack).
# Order 0: launch order; 1: by each tile's centre ray; 2: by each tile's time
# last frame. The four tests under 1 and 2, then three orbits in two rounds.
out=$1; mkdir -p $out
p=.device
for f in $p/lib/*.xz; do [[ -e ${f%.xz} ]] || xz -dk $f; done
for f in $p/data/*/*.nii.xz; do [[ -e ${f%.xz}.gz ]] || xz -dc $f | gzip -1 > ${f%.xz}.gz; done
export LD_LIBRARY_PATH=$p/lib CVR_DATA_DIR=$p/data
nvidia-smi --query-gpu=name,driver_version --format=csv > $out/device.txt
for m in 1 2; do
  for t in test_cuda_vs_cpu test_analytic test_strategies test_blend_modes; do
    CVR_TILE_ORDER=$m timeout 120 $p/bin/$t > $out/test-$t-$m.log 2>&1; echo "mode $m $t rc=$?"
  done
done
for round in a b; do
  for m in 0 1 2; do
    for spec in ct/cranium_ct.nii.gz:100:1500:512x512x294 ct/cranium_ct.nii.gz:100:1500: scivis/bonsai.nii.gz:30:180:; do
      IFS=: read -r file lo hi size <<<"$spec"
      r=(); [[ -n $size ]] && r=(--resample $size)
      name=$(basename $file .nii.gz)${size:+-$size}
      CVR_TILE_ORDER=$m $p/bin/cvr-bench --volume $p/data/$file --lo $lo --hi $hi "${r[@]}" --step 3 \
        --rays 512,1024 --repeats 9 --warmups 2 --configs std:4x64,std:2x128,std:16x16,std:8x8,std:32x8 \
        --out $out/orbit-$name-m$m-$round.jsonl 2>>$out/orbit.err
      echo "round $round mode $m $name rc=$?"
    done
  done
done
