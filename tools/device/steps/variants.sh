# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "variants": pack-variants.sh's builds compared on the micro-benchmark, interleaved,
# CVR_VARIANT_ARGS as cvr-bench's arguments. Sourced by tools/device/run.sh, whose variables it
# uses (out, pack, root, summary, note, configs).
# every variant once per round, the order turned each round (CVR_VARIANT_ROUNDS, default 2)
for dir in "$pack"/variants/*/; do
  [[ -e $dir/libcvr.so.0.xz && ! -e $dir/libcvr.so.0 ]] && xz -dk "$dir/libcvr.so.0.xz"
done
names=$(ls "$pack/variants")
for ((round = 0; round < ${CVR_VARIANT_ROUNDS:-2}; ++round)); do
  order=$names
  ((round % 2)) && order=$(echo "$names" | tac)
  for name in $order; do
    dir=$pack/variants/$name
    LD_LIBRARY_PATH=$dir:$LD_LIBRARY_PATH "$dir/cvr-bench" ${CVR_VARIANT_ARGS:---sizes 1024 --axes xy --step 45} \
      --out "$out/variant-$name.$round.jsonl" 2>>"$out/bench.err"
  done
done
python3 - "$out" "$pack/variants" <<'PY' | tee -a "$summary"
import collections, glob, json, os, sys
out, variants = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(variants)):
  flags = open(os.path.join(variants, name, "flags")).read().strip()
  views = collections.defaultdict(list)
  for path in glob.glob(os.path.join(out, f"variant-{name}.*.jsonl")):
      for line in open(path):
          r = json.loads(line)
          if r.get("bench") == "wang_micro":
              views[(r["config"], r["N"], r["axis"], r["angle"])].append(r["gsamples_per_s"])
  by = collections.defaultdict(list)
  for (config, n, axis, angle), g in views.items():
      by[(config, n)].append((sum(g) / len(g), f"{axis}{angle}"))
  for (config, n), g in sorted(by.items()):
      print(f"variant {name:4} ({flags}) {n}^3 {config:26} best {max(g)[0]:6.1f} worst {min(g)[0]:6.1f} ({min(g)[1]}) mean {sum(x for x, _ in g) / len(g):6.1f}")
PY
