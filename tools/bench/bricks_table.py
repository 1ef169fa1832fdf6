#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Bricked frames (run.sh bricks): per volume and memory budget, the frame
time (GPU, from the first brick copy to the last pixel), G samples/s, the
bricks drawn and copied per frame, the bytes copied and the copies' rate,
and the bound the copies set (bytes / the fastest copy rate measured in the
file): a frame copy-bound runs near it. Then each volume's creation
(--lend: the volume reads the caller's scalars): its time, the host copy it
keeps, the process's peak resident memory, and the first frame.

  bricks_table.py FILE.jsonl [--against OTHER.jsonl]

--against: each row's frame time over OTHER's for the same case (ms ratio) (another
build's run of the same cases, interleaved: run.sh bricks CVR_BRICKS_VS)."""
import collections
import json
import sys


def read(path):
    """Rows per (volume, budget), and the volumes' creation lines."""
    rows = collections.defaultdict(list)
    volumes = []  # [volume line, first frame ms]
    lent = 0
    for line in open(path):
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if r.get("bench") == "volume":
            lent = r["lent"]
            volumes.append([r, None])
        if r.get("bench") == "first_frame" and volumes and volumes[-1][1] is None:
            volumes[-1][1] = r["ms"]
        if r.get("bench") not in ("wang_micro", "orbit"):
            continue
        name = f"{r['N']}^3 micro" if r["bench"] == "wang_micro" and r["dims"] == f"{r['N']}x{r['N']}x{r['N']}" \
            else (r["dims"] if r["bench"] == "wang_micro" else f"{r['volume']} {r['dims']}")
        rows[(name + (" (lent)" if lent else ""), r.get("budget_mib", 0))].append(r)
    return rows, volumes


rows, volumes = read(sys.argv[1])
against = read(sys.argv[sys.argv.index('--against') + 1])[0] if '--against' in sys.argv else None
rate = max((r["mib_loaded"] / r["load_ms"] for rs in rows.values() for r in rs if r.get("load_ms", 0) > 0),
           default=0.0)  # MiB/ms
print(f"fastest copy rate in the file: {rate * 1.048576:.1f} GB/s")
print(f"{'volume':34} {'budget':>8} {'bricks':>6} {'drawn':>6} {'copied':>6} {'MiB':>8} {'copy GB/s':>9} "
      f"{'frame ms':>9} {'bound ms':>8} {'GS/s':>7}" + (f" {'ms ratio':>8}" if against else ""))
for (name, budget), rs in rows.items():
    n = len(rs)
    mean = lambda k: sum(r.get(k, 0) for r in rs) / n
    mib, load = mean("mib_loaded"), mean("load_ms")
    bound = mib / rate if rate else 0.0
    print(f"{name:34} {('%d MiB' % budget) if budget else 'none':>8} {rs[0].get('bricks', 0):6d} "
          f"{mean('bricks_drawn'):6.0f} {mean('bricks_loaded'):6.0f} {mib:8.0f} "
          f"{(mib / load * 1.048576) if load else 0:9.1f} {mean('ms'):9.2f} {bound:8.2f} "
          f"{mean('gsamples_per_s'):7.1f}" + (
              f" {mean('ms') / (sum(r['ms'] for r in against[(name, budget)]) / len(against[(name, budget)])):8.3f}"
              if against and against.get((name, budget)) else ""))

print()
print(f"{'volume':16} {'lent':>4} {'create ms':>9} {'host copy MiB':>13} {'peak RSS MiB':>12} {'first frame ms':>14}")
for v, first in volumes:
    print(f"{v['dims']:16} {v['lent']:4d} {v['create_ms']:9.1f} {v['host_copy_mib']:13.1f} "
          f"{v['peak_rss_mib']:12.1f} {first if first is not None else float('nan'):14.1f}")
