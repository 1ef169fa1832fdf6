#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Where AUTO falls short, from cvr-auto-bench runs that kept their tables
(tools/device/run.sh auto, `tables-VOLUME/`), per volume over the runs:

- the views whose confirmed time is more than 5% over the oracle's, by what
  picked AUTO's configuration there: its class's best (lowest class mean),
  a cell's choice (another finalist, measured faster in the view's cell), or
  nothing (the class never measured);
- for the views of a cell's choice, that choice's mean ratio to the class's
  best in its cell, missed and not (quartiles; only where one cell of the
  class chose that configuration, so the cell is known);
- the first orbit's kernel time over the warm orbit's, as shares of the warm
  orbit: its measured frames, its frames that rendered another
  configuration than the warm orbit did at that view, and the rest; and the
  first frame that ran each kernel (the warp-marching and slab kernels are
  measured once a helper thread has loaded them: auto.c); and what the warm
  orbit gains from its cells' choices over its classes' bests, at the oracle
  views, as the oracle sweep timed both (a first orbit has few cells
  measured: that much of it is the cells' later refinement, not tuning);
- where the run has them (run.sh auto with CVR_AUTO_CACHED=1:
  `cached-VOLUME.jsonl`), the same split for the first orbit of a new
  process from the tables the run kept: what a first orbit costs beside
  tuning (the GPU after a context is made, kernels loaded on first use) and
  the cells' measuring, which a later session goes on with; and its longest
  frame in wall time (a kernel loaded inside a frame).

usage: auto_misses.py RUN_DIR...
"""
import collections
import glob
import os
import statistics
import sys

from json_lines import files_by_name, read_rows

# the code's since 5f479d7 (before: 4 within 1.2, which the ratio column of
# older runs' tables used)
FINALIST = 1.3  # CVR_TUNING_FINALIST
FINALISTS = 8   # CVR_TUNING_FINALISTS
MISS = 1.05


def load_table(path):
    """classes: view class -> [(name, measured, mean, dropped)];
    cells: view class -> [{candidate: (count, mean ratio)}]"""
    classes, cells, current = {}, collections.defaultdict(list), None
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == "class":
                current = int(p[1])
                classes[current] = []
            elif p[0] == "cell":
                ratios = {}
                for entry in p[3:]:
                    i, n, total = entry.split(":")
                    ratios[int(i)] = (int(n), float(total) / int(n))
                cells[int(p[1])].append(ratios)
            elif p[0] in ("cells", "checksum"):
                current = None
            elif current is not None and p[0].isdigit():
                n, total, dropped = int(p[0]), float(p[1]), int(p[2])
                classes[current].append((" ".join(p[3:]), n, total / n if n else None, dropped))
    return classes, cells


def tabled_orbits(runs):
    """(run, volume, classes, cells, rows) of every orbit file in runs whose
    run kept its table (tables-VOLUME/, one file)."""
    for run in runs:
        for volume, path in sorted(files_by_name(run, "auto-").items()):
            tables = glob.glob(os.path.join(run, "tables-" + volume, "*"))
            if len(tables) == 1:
                yield (run, volume) + load_table(tables[0]) + (read_rows(path),)


def class_best(candidates):
    measured = [i for i, c in enumerate(candidates) if c[1] and not c[3]]
    return min(measured, key=lambda i: candidates[i][2]) if measured else None


def cell_choice(candidates, ratios, margin=1.0):
    """What a cell renders (cvr_tuning_cell_choice with repeats >= 2): the
    finalist of least mean ratio below margin, else the class's best."""
    best = class_best(candidates)
    if best is None:
        return None
    finalists = sorted((i for i, c in enumerate(candidates)
                        if i != best and c[1] and not c[3]
                        and c[2] <= FINALIST * candidates[best][2]),
                       key=lambda i: candidates[i][2])[:FINALISTS]
    choice, least = best, margin
    for i in finalists:
        if i in ratios and ratios[i][0] >= 2 and ratios[i][1] < least:
            choice, least = i, ratios[i][1]
    return choice


def unturned_sweep(rows):
    """The oracle sweep without rotation: azimuth -> {config: ms}."""
    sweep = collections.defaultdict(dict)
    for r in rows:
        if r.get("bench") == "auto_oracle" and r.get("rotation") == 0:
            sweep[r["azimuth"]][r["config"]] = r["ms"]
    return sweep


def warm_view(orbit, classes, view):
    """An auto_view row's warm-orbit frame, its class's candidates (the
    table's) and AUTO's configuration there by name (a frame that turned
    the volume: its class is the next frame's)."""
    at = orbit[("warm", view["azimuth"])]
    if at["rotations"]:
        at = orbit[("warm", (view["azimuth"] + 1) % 360)]
    return at, classes[at["view_class"]], view["auto_config"].replace(", turned", "")


def first_orbit_split(rows):
    """The cold orbit's kernel time over the warm one's, as shares of the
    warm orbit: (measured frames, another configuration, the same), and
    {kernel: first frame of the cold orbit that ran it}."""
    orbit = {}
    for r in rows:
        if r.get("bench") == "auto_orbit" and r["pass"] in ("cold", "warm"):
            orbit[(r["pass"], r["azimuth"])] = r
    warm_ms = sum(r["kernel_ms"] for (p, _), r in orbit.items() if p == "warm")
    share = [0.0, 0.0, 0.0]
    for (p, azimuth), cold in orbit.items():
        warm = orbit.get(("warm", azimuth))
        if p != "cold" or not warm:
            continue
        same = (cold["strategy"], cold["block"]) == (warm["strategy"], warm["block"])
        part = 0 if cold["tuning"] else 2 if same else 1
        share[part] += (cold["kernel_ms"] - warm["kernel_ms"]) / warm_ms
    ran = {}
    for azimuth in range(360):
        cold = orbit.get(("cold", azimuth))
        if cold:  # (kernels as auto.c's kernel_family names them)
            strategy = cold["strategy"]
            ran.setdefault("standard" if strategy == "block-shape" else strategy, azimuth)
    return share, ran, orbit


def longest_frame(orbit):
    """The cold orbit's longest frame, wall time in ms (a kernel CUDA loads
    inside a frame shows there, not in its kernel time)."""
    return max(r["wall_ms"] for (p, _), r in orbit.items() if p == "cold")


def quartiles(values):
    if len(values) < 2:
        return " ".join("%.3f" % v for v in values) or "-"
    return "/".join("%.3f" % q for q in statistics.quantiles(values, n=4))


def main(runs):
    views = collections.defaultdict(collections.Counter)  # volume -> (source, missed)
    ratios = collections.defaultdict(lambda: ([], []))     # volume -> (kept, missed)
    first = collections.defaultdict(list)                  # volume -> (measured, other, same)
    kernels = collections.defaultdict(list)                # volume -> {kernel: first frame}
    cached = collections.defaultdict(list)                 # volume -> (cold total, kept split)
    cell_gain = collections.defaultdict(list)              # volume -> cells' saving (share)
    for run, volume, classes, cells, rows in tabled_orbits(runs):
        share, ran, orbit = first_orbit_split(rows)
        first[volume].append(share)
        kernels[volume].append(ran)
        kept = glob.glob(os.path.join(run, "cached-" + volume + ".jsonl*"))
        if kept:
            kept_share, _, kept_orbit = first_orbit_split(read_rows(kept[0]))
            cached[volume].append((sum(share), kept_share, longest_frame(kept_orbit)))
        oracle = unturned_sweep(rows)
        saved = timed = 0.0
        for r in rows:
            if r.get("bench") != "auto_view":
                continue
            at, candidates, config = warm_view(orbit, classes, r)
            names = [c[0] for c in candidates]
            missed = r["auto_over_oracle_confirmed"] > MISS
            best = class_best(candidates)
            if best is None:
                source = "nothing measured"
            elif config == names[best]:
                source = "class best"
            else:
                source = "cell choice"
            views[volume][(source, missed)] += 1
            at_view = oracle[r["azimuth"]]
            if best is not None and config in at_view and names[best] in at_view:
                timed += at_view[config]
                saved += at_view[names[best]] - at_view[config]
            if source == "cell choice" and config in names:
                x = names.index(config)
                choosing = [c for c in cells[at["view_class"]] if cell_choice(candidates, c) == x]
                if len(choosing) == 1:
                    ratios[volume][missed].append(choosing[0][x][1])
        if timed > 0.0:
            cell_gain[volume].append(saved / timed)
    print("| volume | views | missed | by class best | by cell choice | class not measured "
          "| cell choice's ratio in its cell, kept / missed (quartiles) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for volume in sorted(views):
        v = views[volume]
        total = sum(v.values())
        missed = {s: v[(s, True)] for s in ("class best", "cell choice", "nothing measured")}
        of = {s: v[(s, True)] + v[(s, False)] for s in missed}
        kept, lost = ratios[volume]
        print("| %s | %d | %d | %d of %d | %d of %d | %d of %d | %s (%d) / %s (%d) |" % (
            volume, total, sum(missed.values()), missed["class best"], of["class best"],
            missed["cell choice"], of["cell choice"], missed["nothing measured"],
            of["nothing measured"], quartiles(kept), len(kept), quartiles(lost), len(lost)))
    print()
    print("| volume | first orbit over warm: measured frames | other configuration | same "
          "| (mean over runs; range of the total) | first frame of each kernel: median (runs) "
          "| the warm orbit's cells' gain |")
    print("| --- | ---: | ---: | ---: | --- | --- | ---: |")
    for volume in sorted(first):
        s = first[volume]
        totals = [sum(x) for x in s]
        ran = kernels[volume]
        names = sorted({k for r in ran for k in r},
                       key=lambda k: statistics.median(r.get(k, 360) for r in ran))
        gain = cell_gain.get(volume)
        print("| %s | %+.1f%% | %+.1f%% | %+.1f%% | %.1f%% to %.1f%% | %s | %s |" % (
            volume, *(100 * statistics.mean(x[i] for x in s) for i in range(3)),
            100 * min(totals), 100 * max(totals),
            "; ".join("%s %d (%d)" % (k, statistics.median(r[k] for r in ran if k in r),
                                      sum(k in r for r in ran)) for k in names),
            "%.1f%%" % (100 * statistics.mean(gain)) if gain else "-"))
    if cached:
        print()
        print("First orbits from the kept tables (means over the runs that have both):")
        print()
        print("| volume | runs | first orbit over warm, empty table | from the kept tables: total "
              "| measured frames | other configuration | same | longest frame, wall ms: "
              "median (most) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
        for volume in sorted(cached):
            c = cached[volume]
            longest = [x[2] for x in c]
            print("| %s | %d | %+.1f%% | %+.1f%% | %+.1f%% | %+.1f%% | %+.1f%% | %.2f (%.2f) |" % (
                volume, len(c), 100 * statistics.mean(x[0] for x in c),
                100 * statistics.mean(sum(x[1]) for x in c),
                *(100 * statistics.mean(x[1][i] for x in c) for i in range(3)),
                statistics.median(longest), max(longest)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
