#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""The tables of tools/device/run.sh's views step: per image size and
configuration, how much a view's time moves from one degree to the next
(the standard deviation of the log ratio of neighbouring views) and each
degree's best configuration; then, from ncu, how evenly the frame's blocks
kept the SMs busy (the mean SM's active cycles over the busiest SM's).

usage: views_report.py VIEWS.jsonl[.xz] [VIEWS-NCU.csv[.xz] VIEWS-NCU.jsonl]
"""
import collections
import csv
import json
import lzma
import math
import statistics
import sys


def opened(path):
    return lzma.open(path, 'rt') if path.endswith('.xz') else open(path)


def orbit_rows(path):
    with opened(path) as f:
        return [json.loads(line) for line in f if line.startswith('{"bench":"orbit"')]


def steps(rows):
    times = collections.defaultdict(dict)  # (rays, config) -> {azimuth: ms}
    for r in rows:
        times[(r['R'], r['config'])][r['azimuth']] = r['ms']
    print('| rays a side | configuration | mean ms | neighbouring degrees: sd of log ratio |')
    print('| ---: | --- | ---: | ---: |')
    for (rays, config), t in sorted(times.items()):
        az = sorted(t)
        moves = [math.log(t[b] / t[a]) for a, b in zip(az, az[1:]) if b == a + 1]
        sd = statistics.pstdev(moves) if len(moves) > 1 else float('nan')
        print(f'| {rays} | {config} | {statistics.mean(t.values()):.4f} | {sd:.3f} |')
    print()
    for rays in sorted({k[0] for k in times}):
        configs = [c for (r, c) in times if r == rays]
        azimuths = sorted(set.intersection(*(set(times[(rays, c)]) for c in configs)))
        best = [min(configs, key=lambda c: times[(rays, c)][a]) for a in azimuths]
        runs, start = [], 0  # the best configuration's runs of degrees
        for i in range(1, len(best) + 1):
            if i == len(best) or best[i] != best[start]:
                runs.append(f'{best[start]} {azimuths[start]}-{azimuths[i - 1]}')
                start = i
        print(f'{rays} rays, best per degree: ' + ', '.join(runs))
    print()


def balance(csv_path, views_path):
    metrics = collections.OrderedDict()  # kernel launch id -> {metric: value}
    with opened(csv_path) as f:
        for r in csv.DictReader(f):
            metrics.setdefault(r['ID'], {})[r['Metric Name']] = float(r['Metric Value'].replace(',', ''))
    views = orbit_rows(views_path)
    if len(views) != len(metrics):
        sys.exit(f'views_report: {len(metrics)} profiled kernels for {len(views)} views')
    print('| azimuth | configuration | waves | SM active: mean over busiest | least over busiest |')
    print('| ---: | --- | ---: | ---: | ---: |')
    for v, m in zip(views, metrics.values()):
        busiest = m['sm__cycles_active.max']
        print(f"| {v['azimuth']} | {v['config']} | {m['launch__waves_per_multiprocessor']:.2f} "
              f"| {m['sm__cycles_active.avg'] / busiest:.2f} | {m['sm__cycles_active.min'] / busiest:.2f} |")


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__)
    steps(orbit_rows(sys.argv[1]))
    if len(sys.argv) == 4:
        balance(sys.argv[2], sys.argv[3])


if __name__ == '__main__':
    main()
