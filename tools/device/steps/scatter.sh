# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "scatter": volumetric scattering's cost on shaded real-data orbits
# (scatter_table.py); CVR_SCATTER_LIBS compares libraries. Sourced by tools/device/run.sh, whose
# variables it uses (out, pack, root, summary, note, configs).
# volumetric scattering's cost: shaded orbits of real data without it and
# with it at several reaches and blends (the standard strategy renders
# them); CVR_SCATTER_LIBS="NAME=DIR ..." times each library (the same
# cvr.h), interleaved over CVR_SCATTER_ROUNDS rounds
sconfigs=std:16x16+shade
for c in 1:0:0 1:0.1:0 1:0.3:0 1:1:0 2:0.3:0 0.5:0.3:0.5; do sconfigs+=,std:16x16+scatter:$c; done
for round in $(seq "${CVR_SCATTER_ROUNDS:-1}"); do
  for entry in ${CVR_SCATTER_LIBS:-pack=$pack/lib}; do
    lname=${entry%%=*} ldir=${entry#*=}
    for spec in scivis/bonsai.nii.gz:30:180 ct/cranium_ct.nii.gz:100:1500; do
      IFS=: read -r file lo hi <<<"$spec"
      name=$(basename "$file" .nii.gz)
      LD_LIBRARY_PATH=$ldir:$pack/lib "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" \
        --hi "$hi" --rays 1024 --step 45 --repeats 3 --warmups 1 --configs "$sconfigs" \
        --out "$out/scatter-$lname-$name-$round.jsonl" 2>>"$out/scatter.err"
      note "scatter $lname $name round $round rc=$?"
    done
  done
done
python3 "$root/tools/bench/scatter_table.py" "$out"/scatter-*.jsonl | tee -a "$summary"
