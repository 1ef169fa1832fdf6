#!/usr/bin/env python3
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
import glob
import os
import sys

from auto_misses import FINALIST, FINALISTS, class_best, first_orbit_split, load_table
from json_lines import read_rows

MARGINS = (1.0, 0.99, 0.98, 0.97, 0.96, 0.95, 0.0)


def choice(candidates, ratios, margin):
    """cvr_tuning_cell_choice (repeats >= 2), a finalist needing a mean below margin."""
    best = class_best(candidates)
    finalists = sorted((i for i, c in enumerate(candidates)
                        if i != best and c[1] and not c[3]
                        and c[2] <= FINALIST * candidates[best][2]),
                       key=lambda i: candidates[i][2])[:FINALISTS]
    pick, least = best, margin
    for i in finalists:
        if i in ratios and ratios[i][0] >= 2 and ratios[i][1] < least:
            pick, least = i, ratios[i][1]
    return pick


def main(runs):
    scores = collections.defaultdict(lambda: {m: [0, 0, 0.0] for m in MARGINS})
    for run in runs:
        files = {}  # volume -> its orbit file (.jsonl, or compressed)
        for path in sorted(glob.glob(os.path.join(run, "auto-*.jsonl*"))):
            files.setdefault(os.path.basename(path)[len("auto-"):].split(".jsonl")[0], path)
        for volume, path in sorted(files.items()):
            tables = glob.glob(os.path.join(run, "tables-" + volume, "*"))
            if len(tables) != 1:
                continue
            classes, cells = load_table(tables[0])
            rows = read_rows(path)
            _, _, orbit = first_orbit_split(rows)
            sweep = collections.defaultdict(dict)  # azimuth -> {config: ms}, unturned
            for r in rows:
                if r.get("bench") == "auto_oracle" and r.get("rotation") == 0:
                    sweep[r["azimuth"]][r["config"]] = r["ms"]
            for r in rows:
                if r.get("bench") != "auto_view" or not sweep[r["azimuth"]]:
                    continue
                at = orbit[("warm", r["azimuth"])]
                if at["rotations"]:  # the frame turned: its class is the next frame's
                    at = orbit[("warm", (r["azimuth"] + 1) % 360)]
                candidates = classes[at["view_class"]]
                names = [c[0] for c in candidates]
                config = r["auto_config"].replace(", turned", "")
                if class_best(candidates) is None or config not in names:
                    continue
                rendered = names.index(config)
                cell = [c for c in cells[at["view_class"]] if choice(candidates, c, 1.0) == rendered]
                if rendered != class_best(candidates) and len(cell) != 1:
                    continue  # (the cell is not known)
                least = min(sweep[r["azimuth"]].values())
                for m in MARGINS:
                    pick = choice(candidates, cell[0], m) if len(cell) == 1 else class_best(candidates)
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
