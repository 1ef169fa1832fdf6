# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "rotation": the rotation kernel's bandwidth per tile depth. Sourced by
# tools/device/run.sh, whose variables it uses (out, pack, root, summary, note, configs).
"$pack/bin/cvr-rotation-bench" --sizes 512,1024,2048 --shape 1024x768x448 --repeats 7 \
  --out "$out/rotation-bandwidth.jsonl" 2>"$out/rotation.err"
note "rotation bandwidth rc=$?"
