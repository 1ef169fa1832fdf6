# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "bench": the micro-benchmark (cvr-bench --ceiling, 512^3 and 1024^3) and its plot
# (plot_wang.py). Sourced by tools/device/run.sh, whose variables it uses (out, pack, root,
# summary, note, configs).
"$pack/bin/cvr-bench" --ceiling --sizes 512,1024 --rays 512 --step 15 \
  --out "$out/bench-wang-micro.jsonl" 2>"$out/bench.err"
note "bench rc=$?"
python3 "$root/tools/bench/plot_wang.py" "$out/bench-wang-micro.jsonl" "$out/bench-wang-micro.png" \
  2>>"$out/bench.err" || note "plot failed (see bench.err)"
python3 - "$out/bench-wang-micro.jsonl" <<'PY' | tee -a "$summary"
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1])]
for r in rows:
  if r.get("bench") == "texture_ceiling":
      print(f"texture ceiling: {r['gsamples_per_s']:.0f} G samples/s ({r['info']})")
best = collections.defaultdict(lambda: (0, None))
worst = collections.defaultdict(lambda: (1e30, None))
for r in rows:
  if r.get("bench") != "wang_micro":
      continue
  k = (r["N"], r["block"])
  g = r["gsamples_per_s"]
  if g > best[k][0]: best[k] = (g, f"{r['axis']}{r['angle']}")
  if g < worst[k][0]: worst[k] = (g, f"{r['axis']}{r['angle']}")
for k in sorted(best):
  print(f"N={k[0]:5d} block {k[1]:>6}: best {best[k][0]:6.1f} G/s at {best[k][1]:>5}, worst {worst[k][0]:6.1f} at {worst[k][1]}")
PY
