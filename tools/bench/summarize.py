#!/usr/bin/env python3
"""Summarizes a cvr-bench micro-benchmark run: for each volume size, image
size and configuration, the best, mean and worst G samples/s over the views
(and where the extremes are), and worst / best; then, per view, which
configuration was fastest.

    summarize.py RESULTS.jsonl
"""
import collections
import json
import sys


def main(src):
    rows = [json.loads(line) for line in open(src)]
    for r in rows:
        if r.get("bench") == "texture_ceiling":
            print(f"texture ceiling: {r['gsamples_per_s']:.0f} G samples/s ({r['info']})")
    runs = [r for r in rows if r.get("bench") == "wang_micro"]
    by = collections.defaultdict(list)
    for r in runs:
        by[(r["N"], r["R"], r.get("config", r["block"]))].append(r)
    for (n, rays, config), rs in sorted(by.items()):
        g = [r["gsamples_per_s"] for r in rs]
        best = max(rs, key=lambda r: r["gsamples_per_s"])
        worst = min(rs, key=lambda r: r["gsamples_per_s"])
        print(f"N={n:5d} R={rays:5d} {config:26s} best {max(g):6.1f} ({best['axis']}{best['angle']:<3d}) "
              f"mean {sum(g) / len(g):6.1f} worst {min(g):6.1f} ({worst['axis']}{worst['angle']:<3d}) "
              f"worst/best {min(g) / max(g):.2f}")
    winners = collections.Counter()
    views = collections.defaultdict(list)
    for r in runs:
        views[(r["N"], r["R"], r["axis"], r["angle"])].append(r)
    for rs in views.values():
        winners[max(rs, key=lambda r: r["gsamples_per_s"]).get("config", "")] += 1
    print("fastest configuration per view: " +
          ", ".join(f"{c} {k}" for c, k in winners.most_common()))


if __name__ == "__main__":
    main(sys.argv[1])
