#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""The regression guard's table (guard.sh run): per case and configuration,
each build's kernel time summed over the views (each view the mean of the
rounds' medians), its speed over the reference's, the slowest view's ratio, and
the best and worst view in G samples/s. Exit 1 when the working tree ("new")
is slower than LIMIT of the reference in some case; a deliberately slowed
build ("slow", the guard's self-check) is reported, and must be caught. A
"foundation" build is held against the working tree too ("new vs
foundation": the foundation's time over the working tree's), not gating.

    guard_report.py LOGS CASES LIMIT ref=LABEL new=LABEL [slow=LABEL] [foundation=LABEL]
"""
import collections
import glob
import json
import os
import statistics
import sys


def view_key(r):
    if r.get("bench") == "orbit":
        return (r["volume"], r["R"], r["azimuth"])
    return (r["N"], r["R"], r["axis"], r["angle"])


def view_name(k):
    return f"az {k[2]}" if isinstance(k[0], str) else f"{k[0]}^3 {k[2]} {k[3]}"


def load(logs, case, build):
    """{config: {view: [ms per round]}} and {config: {view: [G samples/s]}}, or None."""
    runs = sorted(glob.glob(os.path.join(logs, f"{case}.{build}.*.jsonl")))
    if not runs:
        return None
    ms = collections.defaultdict(lambda: collections.defaultdict(list))
    gs = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in runs:
        with open(path[: -len(".jsonl")] + ".rc") as f:
            if f.read().strip() != "0":
                return None
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("bench") not in ("wang_micro", "orbit"):
                    continue
                config = r.get("config") or f"std:{r['block']}"  # (early builds name the block)
                ms[config][view_key(r)].append(r["ms"])
                gs[config][view_key(r)].append(r["gsamples_per_s"])
    return ms, gs


def main():
    logs, cases_path, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
    labels = dict(a.split("=", 1) for a in sys.argv[4:])
    cases = [line.split("|", 1)[0] for line in open(cases_path) if line.strip()]
    with open(os.path.join(logs, "device.txt")) as f:
        print(f"device: {f.read().strip()}")
    for b, label in labels.items():
        print(f"{b}: {label}")
    print(f"speed = the reference's kernel time / the build's, summed over a case's views; "
          f"fails below {limit}")
    print(f"{'case':15} {'configuration':28} {'build':9} {'speed':>6} {'slowest view':>20}"
          f" {'best GS/s':>9} {'worst GS/s':>10}")
    failed, caught = [], []
    pairs = [("new", "ref"), ("slow", "ref"), ("new", "foundation")]
    for case in cases:
        for b, against in pairs:
            if b not in labels or against not in labels:
                continue
            ref = load(logs, case, against)
            mine = load(logs, case, b)
            if ref is None and not glob.glob(os.path.join(logs, f"{case}.{against}.*.rc")):
                continue
            if mine is None and not glob.glob(os.path.join(logs, f"{case}.{b}.*.rc")):
                continue
            row = b if against == "ref" else f"{b}/{against[:4]}"
            if ref is None or mine is None:
                which = against if ref is None else b
                print(f"{case:15} {'':28} {row:9}    n/a  ({which}: no run; see its .err)")
                if mine is None and b == "new":
                    failed.append(f"{case} ({b} did not run)")
                continue
            for config in sorted(mine[0]):
                if config not in ref[0]:
                    print(f"{case:15} {config:28} {row:9}    n/a  ({against} has no such configuration)")
                    continue
                views = sorted(set(ref[0][config]) & set(mine[0][config]))
                t_ref = {v: statistics.mean(ref[0][config][v]) for v in views}
                t_new = {v: statistics.mean(mine[0][config][v]) for v in views}
                speed = sum(t_ref.values()) / sum(t_new.values())
                slowest = min(views, key=lambda v: t_ref[v] / t_new[v])
                g = [statistics.mean(mine[1][config][v]) for v in views]
                print(f"{case:15} {config:28} {row:9} {speed:6.3f} "
                      f"{t_ref[slowest] / t_new[slowest]:6.3f} {view_name(slowest):>13}"
                      f" {max(g):9.1f} {min(g):10.1f}")
                if speed < limit and against == "ref":
                    (failed if b == "new" else caught).append(f"{case} {config} {speed:.3f}")
    print("first frame of a process (wall ms, the kernels' loading included; median of the rounds):")
    for case in cases:
        row = []
        for b in labels:
            firsts = []
            for path in glob.glob(os.path.join(logs, f"{case}.{b}.*.jsonl")):
                firsts += [json.loads(l)["ms"] for l in open(path) if '"first_frame"' in l]
            if firsts:
                row.append(f"{b} {statistics.median(firsts):.1f}")
        if row:
            print(f"  {case:15} " + ", ".join(row))
    if "slow" in labels:
        print("self-check: the slowed build " +
              (f"fails the guard ({'; '.join(caught)})" if caught else "PASSES the guard: the guard is broken"))
    if failed:
        print(f"FAIL: slower than {limit} of the reference: {'; '.join(failed)}")
        return 1
    if "slow" in labels and not caught:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
