#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Joins an Nsight Compute CSV (one profiled launch per view, in launch
order) with the cvr-bench run that made the launches (--warmups 0 --repeats
1): for each view and configuration, the L1/texture and L2 hit rates.

    ncu_join.py BENCH.jsonl NCU.csv
"""
import collections
import csv
import sys

from json_lines import read_rows


def main(bench, profile):
    runs = read_rows(bench)
    runs = [r for r in runs if r.get("bench") == "wang_micro"]
    metrics = collections.OrderedDict()
    with open(profile) as f:
        lines = [line for line in f if line.startswith('"')]  # ncu's own notes are not CSV
    for row in csv.DictReader(lines):
        if "cvr_" not in row.get("Kernel Name", ""):
            continue
        metrics.setdefault(row["ID"], {})[row["Metric Name"]] = row["Metric Value"]
    launches = list(metrics.values())
    if len(launches) != len(runs):
        print(f"ncu_join: {len(launches)} profiled launches for {len(runs)} views", file=sys.stderr)
    print(f"{'view':8s} {'configuration':26s} {'L1/tex hit %':>12s} {'L2 hit %':>9s}")
    for r, m in zip(runs, launches):
        print(f"{r['axis']}{r['angle']:<7d} {r['config']:26s} "
              f"{m.get('l1tex__t_sector_hit_rate.pct', '?'):>12s} "
              f"{m.get('lts__t_sector_hit_rate.pct', '?'):>9s}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
