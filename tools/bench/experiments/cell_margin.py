#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""What a margin on the cells' choices would do, offline, from cvr-auto-bench
runs that kept their tables (tools/device/run.sh auto, `tables-VOLUME/`).

A cell renders a finalist instead of its class's best once the finalist's
mean ratio in the cell is below 1 (cvr_tuning_cell_choice). With a margin m
it would need a mean below m. For each oracle view, this takes the cell AUTO
rendered from (the one cell whose choice is AUTO's configuration), finds what
it would choose at each margin, and looks that configuration up in the
oracle sweep at that view (without rotation). It prints, per volume and
margin, how many views would be within 5% of the sweep's best, and the mean
over it. Margin 0 renders every class's best (no cells).

Use these numbers only to compare the margins with each other. They are
sweep times, not confirmed ones, and the sweep's least of many noisy medians
is low, so every margin scores fewer views than the benchmark reports.

usage: cell_margin.py RUN_DIR...
"""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from auto_misses import (cell_choice, class_best, first_orbit_split, tabled_orbits,  # noqa: E402
                         unturned_sweep, warm_view)

MARGINS = (1.0, 0.99, 0.98, 0.97, 0.96, 0.95, 0.0)


def main(runs):
    scores = collections.defaultdict(lambda: {m: [0, 0, 0.0] for m in MARGINS})
    for _, volume, classes, cells, rows in tabled_orbits(runs):
        _, _, orbit = first_orbit_split(rows)
        sweep = unturned_sweep(rows)
        for r in rows:
            if r.get("bench") != "auto_view" or not sweep[r["azimuth"]]:
                continue
            at, candidates, config = warm_view(orbit, classes, r)
            names = [c[0] for c in candidates]
            if class_best(candidates) is None or config not in names:
                continue
            rendered = names.index(config)
            cell = [c for c in cells[at["view_class"]] if cell_choice(candidates, c) == rendered]
            if rendered != class_best(candidates) and len(cell) != 1:
                continue  # (the cell is not known)
            least = min(sweep[r["azimuth"]].values())
            for m in MARGINS:
                pick = cell_choice(candidates, cell[0], m) if len(cell) == 1 else class_best(candidates)
                ms = sweep[r["azimuth"]].get(names[pick])
                if ms is None:
                    continue
                s = scores[volume][m]
                s[0] += 1
                s[1] += ms / least <= 1.05
                s[2] += ms / least
    print("| volume | views | " + " | ".join("margin %.2f" % m for m in MARGINS) + " |")
    print("| --- | ---: |" + " ---: |" * len(MARGINS))
    for volume in sorted(scores):
        s = scores[volume]
        print("| %s | %d | %s |" % (volume, s[1.0][0], " | ".join(
            "%d, %.4f" % (s[m][1], s[m][2] / s[m][0]) if s[m][0] else "-" for m in MARGINS)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
