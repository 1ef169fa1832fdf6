# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "strategies": the micro-benchmark over every strategy configuration (run.sh's
# configs); CVR_STRATEGY_ARGS overrides its sizes and steps. Sourced by tools/device/run.sh, whose
# variables it uses (out, pack, root, summary, note, configs).
"$pack/bin/cvr-bench" --ceiling ${CVR_STRATEGY_ARGS:---sizes 512,1024,2048 --rays 512,1024 --step 15 --repeats 5} \
  --configs "$configs" --out "$out/bench-strategies.jsonl" 2>"$out/bench-strategies.err"
note "strategies bench rc=$?"
python3 "$root/tools/bench/plot_wang.py" "$out/bench-strategies.jsonl" "$out/bench-strategies.png" \
  2>>"$out/bench-strategies.err" || note "plot failed (see bench-strategies.err)"
python3 "$root/tools/bench/summarize.py" "$out/bench-strategies.jsonl" | tee -a "$summary"
