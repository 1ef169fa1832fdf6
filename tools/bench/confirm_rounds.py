#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""How the confirmation's verdict depends on its rounds, from cvr-auto-bench
runs whose auto_confirm lines carry every round (steady_rounds).

At each oracle view, confirmation renders AUTO's choice, the sweep's three
best and (with --replicate) the replicate sweep's best, interleaved, one
steady frame of each per round. A view is within 5% when AUTO's median over
the rounds is within 1.05 of the least median there. Per volume, over the
runs, this prints how many views were within 5%, for AUTO and for the
replicate sweep:

- from the first 9 rounds (what --confirm 9, the earlier default, would
  have timed: the rounds run in order) and from all of them;
- paired: each round's time over each other configuration's in the same
  round, the median over rounds, and the largest of those (against the
  fastest configuration; a round's drift, common to the configurations
  rendered in it, cancels).

usage: confirm_rounds.py RUN_DIR...
"""
import collections
import glob
import json
import lzma
import os
import statistics
import sys


def views_of(path):
    """{azimuth: [its confirmation rows]} of one orbit file ({} without rounds)"""
    opener = lzma.open if path.endswith('.xz') else open
    views = collections.defaultdict(list)
    with opener(path, 'rt') as f:
        for line in f:
            if not line.startswith('{"bench":"auto_confirm"'):
                continue
            row = json.loads(line)
            if 'steady_rounds' not in row:
                return {}
            views[row['azimuth']].append(row)
    return views


def median_ratio(rows, who, rounds):
    """who's median over the first `rounds` rounds over the least median"""
    medians = [statistics.median(r['steady_rounds'][:rounds]) for r in rows]
    return medians[who] / min(medians)


def paired_ratio(rows, who):
    """the largest, over the others, of the median per-round ratio"""
    mine = rows[who]['steady_rounds']
    worst = 1.0
    for j, other in enumerate(rows):
        if j != who:
            worst = max(worst, statistics.median(
                a / b for a, b in zip(mine, other['steady_rounds'])))
    return worst


def main():
    # volume -> measure -> [views within 5% per run]
    counts = collections.defaultdict(lambda: collections.defaultdict(list))
    for run in sys.argv[1:]:
        for path in sorted(glob.glob(os.path.join(run, 'auto-*.jsonl*'))):
            volume = os.path.basename(path).split('.jsonl')[0][len('auto-'):]
            views = views_of(path)
            if not views:
                continue
            tally = collections.Counter()
            for rows in views.values():
                rounds = rows[0]['rounds']
                for role in ('auto', 'replicate'):
                    who = [i for i, r in enumerate(rows) if r.get(role)]
                    if not who:
                        continue
                    tally[role, 'views'] += 1
                    tally[role, '9 rounds'] += median_ratio(rows, who[0], min(9, rounds)) <= 1.05
                    tally[role, 'all rounds'] += median_ratio(rows, who[0], rounds) <= 1.05
                    tally[role, 'paired'] += paired_ratio(rows, who[0]) <= 1.05
            for key, n in tally.items():
                counts[volume][key].append(n)
            counts[volume]['rounds', ''].append(rounds)
    print('| volume | runs | rounds | views | AUTO: 9 rounds / all / paired '
          '| replicate: 9 rounds / all / paired |')
    print('| --- | ---: | ---: | ---: | --- | --- |')
    for volume in sorted(counts):
        c = counts[volume]
        mean = lambda k: statistics.mean(c[k]) if c[k] else float('nan')
        cells = []
        for role in ('auto', 'replicate'):
            cells.append(' / '.join('%.1f' % mean((role, m)) if c[role, m] else '-'
                                    for m in ('9 rounds', 'all rounds', 'paired')))
        print('| %s | %d | %d | %.0f | %s | %s |' % (
            volume, len(c['rounds', '']), min(c['rounds', '']), mean(('auto', 'views')), *cells))


if __name__ == '__main__':
    main()
