#!/usr/bin/env python3
"""Where AUTO's first orbit loses time, from cvr-auto-bench orbit files: the
cold orbit's kernel time over the warm orbit's, per volume (mean and range
over the runs), split by frame into those that measured a candidate, those
that rendered another configuration than the warm orbit did at that view
(choices made before the search knew better) and those that rendered the
same one (noise, and what switching configurations costs); then when the
first orbit first rendered each kernel (median frame over the runs, and in
how many runs it did at all). Kernel times: the wall time's share beyond the
kernels moves by 10% between orbits of one run (host noise at 0.2 ms a
frame), more than all of this. As a markdown table.

usage: auto_first_orbit.py RUN_DIR...
"""
import collections
import glob
import os
import statistics
import sys

from json_lines import read_rows


def kernel_of(row):
    """The kernel a frame ran, as auto.c's kernel_family names it."""
    strategy = row["strategy"]
    return "standard" if strategy in ("standard", "block-shape") else strategy


def first_orbit(path):
    rows = read_rows(path)
    orbit = {(r["pass"], r["azimuth"]): r for r in rows
             if r.get("bench") == "auto_orbit" and r["pass"] in ("cold", "warm")}
    if not any(p == "warm" for p, _ in orbit):
        return None
    warm_ms = sum(r["kernel_ms"] for (p, _), r in orbit.items() if p == "warm")
    parts = collections.Counter()
    firsts = {}
    for a in range(360):
        c, w = orbit[("cold", a)], orbit[("warm", a)]
        share = (c["kernel_ms"] - w["kernel_ms"]) / warm_ms
        if c["tuning"]:
            parts["measured"] += share
        elif (c["strategy"], c["block"]) != (w["strategy"], w["block"]):
            parts["other"] += share
        else:
            parts["same"] += share
        firsts.setdefault(kernel_of(c), a)
    return parts, firsts


def spread(xs):
    return f"{100 * statistics.mean(xs):+.1f}% ({100 * min(xs):+.1f} to {100 * max(xs):+.1f})"


def main(runs):
    per = collections.defaultdict(list)
    for run in runs:
        for path in sorted(glob.glob(os.path.join(run, "auto-*.jsonl*"))):
            volume = os.path.basename(path)[len("auto-"):].split(".jsonl")[0]
            x = first_orbit(path)
            if x:
                per[volume].append(x)
    print("| volume | runs | first orbit over warm, kernels | measured frames | other "
          "configuration | same configuration | first frame of each kernel: median (runs) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for volume, xs in sorted(per.items()):
        total = [sum(p.values()) for p, _ in xs]
        kernels = sorted({k for _, f in xs for k in f},
                         key=lambda k: statistics.median(f.get(k, 360) for _, f in xs))
        seen = "; ".join(
            f"{k} {statistics.median(f[k] for _, f in xs if k in f):.0f} "
            f"({sum(k in f for _, f in xs)})" for k in kernels)
        print(f"| {volume} | {len(xs)} | {spread(total)} "
              + " ".join(f"| {spread([p[part] for p, _ in xs])}"
                         for part in ("measured", "other", "same"))
              + f" | {seen} |")


if __name__ == "__main__":
    main([a.rstrip("/") for a in sys.argv[1:]])
