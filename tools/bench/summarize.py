#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Summarizes a cvr-bench micro-benchmark run: for each volume size, image
size and configuration, the best, mean and worst G samples/s over the views
(and where the extremes are), and worst / best; then, per view, which
configuration was fastest.

    summarize.py RESULTS.jsonl
"""
import collections
import sys

from json_lines import read_rows


def main(src):
    rows = read_rows(src)
    for r in rows:
        if r.get("bench") == "texture_ceiling":
            print(f"texture ceiling: {r['gsamples_per_s']:.0f} G samples/s ({r['info']})")
    orbit = any(r.get("bench") == "orbit" for r in rows)
    runs = [r for r in rows if r.get("bench") in ("wang_micro", "orbit")]
    # the scene a row belongs to, and where on its path it is
    scene = (lambda r: (r["volume"], r["R"])) if orbit else (lambda r: (r["N"], r["R"]))
    where = (lambda r: f"az{r['azimuth']:<3d}") if orbit else (lambda r: f"{r['axis']}{r['angle']:<3d}")
    by = collections.defaultdict(list)
    for r in runs:
        by[scene(r) + (r.get("config", r["block"]),)].append(r)
    for (a, b, config), rs in sorted(by.items()):
        g = [r["gsamples_per_s"] for r in rs]
        fps = [1000.0 / r["ms"] for r in rs]
        best = max(rs, key=lambda r: r["gsamples_per_s"])
        worst = min(rs, key=lambda r: r["gsamples_per_s"])
        print(f"{a} R={b:5d} {config:26s} best {max(g):6.1f} ({where(best)}) "
              f"mean {sum(g) / len(g):6.1f} worst {min(g):6.1f} ({where(worst)}) G samples/s; "
              f"fps {min(fps):7.1f}..{max(fps):7.1f}; worst/best {min(g) / max(g):.2f}")
    winners = collections.Counter()
    views = collections.defaultdict(list)
    for r in runs:
        views[scene(r) + (where(r),)].append(r)
    for rs in views.values():
        winners[max(rs, key=lambda r: r["gsamples_per_s"]).get("config", "")] += 1
    print("fastest configuration per view: " +
          ", ".join(f"{c} {k}" for c, k in winners.most_common()))


if __name__ == "__main__":
    main(sys.argv[1])
