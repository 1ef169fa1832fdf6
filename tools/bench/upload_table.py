#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""cvr-upload-bench's JSON lines as a Markdown table: per size and type the
fastest repeat's upload (ms, GB/s, share of the pinned copy rate measured in
the same run), the first frame and first image, the second frame, an update
of the same size, and the host memory the upload added at its peak."""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
for r in rows:
    if r.get("bench") == "context":
        print(f"context creation: {r['ms']:.0f} ms")
best = {}
for r in rows:
    if r.get("bench") != "upload":
        continue
    if "error" in r:
        print(f"{r['N']}^3 {r['type']}: {r['error']}")
        continue
    k = (r["N"], r["type"])
    if k not in best or r["create_ms"] < best[k]["create_ms"]:
        best[k] = r
print("| volume | GiB | upload ms | GB/s | of pinned copy | pinned / pageable copy GB/s "
      "| first frame ms | first image ms | second frame ms | update ms (GB/s) | peak host memory added GiB |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for (n, t), r in sorted(best.items()):
    print(f"| {n}^3 {t} | {r['gib']:.2f} | {r['create_ms']:.0f} | {r['gbytes_per_s']:.1f} "
          f"| {r['of_pinned']:.2f} | {r['pinned_gbytes_per_s']:.1f} / {r['pageable_gbytes_per_s']:.1f} "
          f"| {r['first_frame_ms']:.1f} | {r['first_image_ms']:.0f} | {r['second_frame_ms']:.2f} "
          f"| {r['update_ms']:.0f} ({r['update_gbytes_per_s']:.1f}) | {r['peak_rss_over_base_gib']:.3f} |")
