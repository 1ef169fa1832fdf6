# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "misaki": Misaki et al.'s experiment: frames about y over 0..359 degrees with and
# without in-place rotation. Sourced by tools/device/run.sh, whose variables it uses (out, pack,
# root, summary, note, configs).
# CUDA sample (16x16), block shape (Sugimoto), block shape + in-place
# rotation (Misaki), and with 5 degrees of hysteresis; 1024^2 rays
mconfigs=std:16x16,shape,shape+rot,shape+rot:5
"$pack/bin/cvr-bench" --sizes 512,1024 --shape 1024x768x448 --rays 1024 --axes y --range 360 \
  ${CVR_MISAKI_ARGS:---step 1 --repeats 3 --warmups 1} --configs "$mconfigs" \
  --out "$out/misaki.jsonl" 2>"$out/misaki.err"
note "misaki bench rc=$?"
