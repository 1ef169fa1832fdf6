#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""What a first orbit costs at least when each class of views renders one
configuration, from a cvr-auto-bench file (its oracle sweeps and its cold
orbit's view classes): the class floor.

A converged table renders per cell (the class's views within one 10-degree
square); a class still tuning renders one configuration at all its views.
Over the orbit's frames, each frame's time interpolated between the oracle
views around it (unturned sweeps, each candidate's median), the floor is

    (each class at its one fastest candidate over the whole orbit)
  / (each class's frames within one 10-degree piece of the orbit at that
     piece's fastest: the cells' grain along the orbit)  - 1.

A first orbit that knew every class's best from its first frame would
still cost that much over the converged one, before it measured anything;
what it costs beyond the floor and its measured frames is what its interim
choices lose. With oracle sweeps at every degree (--oracle-step 1) the
views' own jitter is in it; at every 10 degrees it is smoothed over.

usage: first_orbit_floor.py FILE.jsonl[.xz]...   (a line per file: rays,
the library, the volume, the floor, the first orbit over the warm one,
paired, its measured frames and its other frames)
"""
import collections
import os
import sys

from json_lines import read_rows

PIECE_DEGREES = 10  # CVR_TUNING_CELL_DEGREES


def class_floor(rows):
    """The class floor of one file's rows (a fraction), or None without an
    oracle or a whole cold orbit."""
    ms = collections.defaultdict(dict)  # azimuth -> {config: ms}
    view_class = {}
    for r in rows:
        bench = r.get("bench")
        if bench == "auto_oracle" and r.get("rotation", 0) == 0 and "ms" in r:
            ms[int(r["azimuth"])][r["config"]] = r["ms"]
        elif bench == "auto_orbit" and r.get("pass") == "cold":
            view_class[int(r["azimuth"])] = r["view_class"]
    views = sorted(ms)
    if len(view_class) < 360 or len(views) < 2:
        return None
    step = min(b - a for a, b in zip(views, views[1:]))
    if 360 % step or any(a % step for a in views):
        return None
    configs = set().union(*ms.values())

    def cost(a, config):
        a0 = a - a % step
        a1 = (a0 + step) % 360
        x, y = ms[a0].get(config, 0.0), ms.get(a1, {}).get(config, 0.0)
        t = (a % step) / step
        return (1 - t) * x + t * y if x > 0 and y > 0 else float("inf")

    def fastest(frames):
        return min(sum(cost(a, c) for a in frames) for c in configs)

    by_class = collections.defaultdict(list)
    by_piece = collections.defaultdict(list)
    for a in range(360):
        by_class[view_class[a]].append(a)
        by_piece[(view_class[a], a // PIECE_DEGREES)].append(a)
    per_class = sum(fastest(f) for f in by_class.values())
    per_piece = sum(fastest(f) for f in by_piece.values())
    return per_class / per_piece - 1.0


def main(paths):
    print("| rays | library | volume | class floor | first orbit, paired | measured frames "
          "| other frames |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: |")
    for path in paths:
        rows = read_rows(path)
        meta = next((r["meta"] for r in rows if "meta" in r), {})
        s = next((r for r in rows if r.get("bench") == "auto_summary"), None)
        floor = class_floor(rows)
        if not s or floor is None or "first_orbit_paired" not in s:
            continue
        name = os.path.basename(path)[len("auto-"):].split(".jsonl")[0]
        print(f"| {s['R']} | {meta.get('commit', '?')[:7]} | {name} | {100 * floor:.2f}% "
              f"| {100 * s['first_orbit_paired']:.2f}% "
              f"| {100 * s['first_orbit_paired_measured']:.2f}% "
              f"| {100 * s['first_orbit_paired_other']:.2f}% |")


if __name__ == "__main__":
    main(sys.argv[1:])
