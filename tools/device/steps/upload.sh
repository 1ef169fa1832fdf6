# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "upload": the time to first image, cvr-upload-bench (CVR_UPLOAD_ARGS its arguments)
# and upload_table.py's table. Sourced by tools/device/run.sh, whose variables it uses (out, pack,
# root, summary, note, configs).
# time to first image: uploads of 512^3 .. 2048^3 against the copy rates
"$pack/bin/cvr-upload-bench" ${CVR_UPLOAD_ARGS:---sizes 512,1024,2048} --out "$out/upload.jsonl" \
  2>"$out/upload.err"
note "upload bench rc=$?"
python3 "$root/tools/bench/upload_table.py" "$out/upload.jsonl" | tee -a "$summary"
