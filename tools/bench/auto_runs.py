#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Several cvr-auto-bench runs (tools/device/run.sh auto) of one code, per
volume: views within 5% of the confirmed oracle (mean, least, most), AUTO's
mean over the confirmed oracle, in-place rotation's turns in each warm orbit,
the warm orbit's wall and kernel time, the orbits until AUTO measured
nothing more, and the largest share measuring took of a first orbit; then
the real-data volumes together. Runs with --replicate add the replicate
sweep's views within 5% (an exhaustive search of its own: the ceiling the
oracle's noise sets). As a markdown table. A run kept without its orbit
files is read from its summary.txt (the summary lines; turns: the warm
orbit's turn count). Last, AUTO's worst view over its best (in samples a
second) on the micro-benchmark, per run: as the benchmark timed it (three
frames at each view), as the confirmation did (AUTO's configuration among
the oracle's, interleaved), and with each view's faster of the two (a
transient of the GPU slows some views in one of them, never speeds them: two
runs timed 0.85 and 0.88 with AUTO 1.05-1.16x its own confirmed time at 6
and 14 views timed one after the other, another confirmed 0.89 with AUTO
and the oracle's best both 6% slow at one view), from orbit files. Runs
with the paired replay (cvr-auto-bench --replay) add what the first orbit
cost over the warm one, as timed minutes apart and as timed paired, split
into the frames that measured, the others and the turns, beside the class
floor (first_orbit_floor.py: what the other frames cost at least where each
class renders one configuration); and the same for the runs from the kept
tables (cached-*), where there are some. Runs whose oracle swept every
degree (--oracle-step 1) or at another step get rows of their own.

usage: auto_runs.py [--exclude RUN/VOLUME ...] RUN_DIR...
  (VOLUME as in the file name auto-VOLUME.jsonl.gz, e.g. final-d/bonsai)
"""
import collections
import glob
import json
import os
import sys

from first_orbit_floor import class_floor
from json_lines import read_rows


def confirmed_worst_over_best(rows):
    """AUTO's worst view over its best, in samples a second, with the
    confirmation's steady time of AUTO's configuration at each view, and with
    the lesser of that and the timed one; (None, None) without it."""
    confirm = {r["azimuth"]: r["steady_ms"] for r in rows
               if r.get("bench") == "auto_confirm" and r["config"].startswith("AUTO")}
    views = [v for v in rows if v.get("bench") == "auto_view" and confirm.get(v["azimuth"])]
    if not views:
        return None, None
    samples = [v["auto_gsamples_per_s"] * v["auto_ms"] for v in views]  # (per ms)
    confirmed = [n / confirm[v["azimuth"]] for n, v in zip(samples, views)]
    either = [n / min(confirm[v["azimuth"]], v["auto_ms"]) for n, v in zip(samples, views)]
    return min(confirmed) / max(confirmed), min(either) / max(either)


def summaries(run):
    """(volume, summary, warm turns) of each orbit file, or of summary.txt's
    lines ("auto VOLUME rc=N {...}", the volume's spaces as dashes)."""
    paths = sorted(glob.glob(os.path.join(run, "auto-*.jsonl*")))
    for path in paths:
        rows = read_rows(path)
        s = next((r for r in rows if r.get("bench") == "auto_summary"), None)
        if s:
            s = dict(s, worst_over_best_confirmed=confirmed_worst_over_best(rows),
                     class_floor=class_floor(rows))
        warm = [r for r in rows if r.get("bench") == "auto_orbit" and r["pass"] == "warm"]
        name = os.path.basename(path)[len("auto-"):].split(".jsonl")[0]
        yield name, s, sum(r["rotations"] for r in warm)
    if not paths and os.path.exists(os.path.join(run, "summary.txt")):
        with open(os.path.join(run, "summary.txt")) as f:
            for line in f:
                if line.startswith("auto ") and "{" in line and not line.startswith("auto cached "):
                    s = json.loads(line[line.index("{"):])
                    name = line[len("auto "):line.index(" rc=")].replace(" ", "-")
                    yield name, s, s.get("turns_warm", 0)


def load(run):
    out = {}
    for name, s, turns in summaries(run):
        if not s or "views_within_5pct_confirmed" not in s:
            continue
        out[name] = dict(confirmed=s["views_within_5pct_confirmed"],
                         ratio=s["auto_over_oracle_confirmed_mean"],
                         turns=turns, wall=s["warm_wall_ms"],
                         kernel=s["warm_kernel_ms"], orbits=s["orbits_to_converge"],
                         measuring=s["measuring_share"],
                         worst=(s["auto_worst_over_best_view"],
                                *s.get("worst_over_best_confirmed", (None, None))),
                         replicate=s.get("replicate_views_within_5pct_confirmed"),
                         first=first_orbit(s), views=s.get("views", 36), rays=s.get("R", 512))
    return out


def first_orbit(s):
    """The first orbit over the warm one: (timed apart, paired, its measured
    frames, other frames, turns, the host's time beside the kernels: cold
    minus warm over the warm wall time, both: the paired kernel time and the
    host's over the warm wall time, the warm orbit in the cold one's voxel
    order over the warm orbit (None before that pass), the class floor
    (first_orbit_floor.py; None without the orbit file), or None without the
    replay."""
    if not s or "first_orbit_paired" not in s:
        return None
    host = ((s["cold_wall_ms"] - s["cold_kernel_ms"]) - (s["warm_wall_ms"] - s["warm_kernel_ms"]))
    both = s["first_orbit_paired"] * s["warm_kernel_ms"] + host
    return (s["tuning_share"], s["first_orbit_paired"], s["first_orbit_paired_measured"],
            s["first_orbit_paired_other"], s["first_orbit_paired_turns"],
            host / s["warm_wall_ms"], both / s["warm_wall_ms"], s.get("first_orbit_paired_order"),
            s.get("class_floor"))


def cached_first_orbits(run):
    """{volume: first_orbit()} of the runs from the kept tables."""
    out = {}
    for path in sorted(glob.glob(os.path.join(run, "cached-*.jsonl*"))):
        s = next((r for r in read_rows(path) if r.get("bench") == "auto_summary"), None)
        if first_orbit(s):
            out[os.path.basename(path)[len("cached-"):].split(".jsonl")[0]] = first_orbit(s)
    return out


def first_orbit_table(title, per):
    """per: {volume: [first_orbit() tuples]}"""
    if not any(per.values()):
        return
    print(f"\n{title}\n")
    print("| volume | runs | wall, timed apart: mean (range) | kernels, paired: mean (range) | "
          "measured frames | other frames | class floor | turns | of those, the voxel order | "
          "host, cold minus warm | paired and host: mean (range) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for volume, xs in sorted(per.items()):
        if not xs:
            continue
        cell = [f"{100 * sum(x[k] for x in xs) / len(xs):+.1f}%" for k in range(7)]
        for k in (0, 1, 6):
            lo, hi = min(x[k] for x in xs), max(x[k] for x in xs)
            cell[k] += f" ({100 * lo:+.1f} to {100 * hi:+.1f})"
        order = [x[7] for x in xs if x[7] is not None]
        cell.insert(5, f"{100 * sum(order) / len(order):+.1f}%" if order else "-")
        floor = [x[8] for x in xs if x[8] is not None]
        cell.insert(4, f"{100 * sum(floor) / len(floor):.1f}%" if floor else "-")
        print(f"| {volume} | {len(xs)} | " + " | ".join(cell) + " |")


def setting(x):
    """What sets a run's rows apart: rays other than 512 a side, oracle
    sweeps at another step than 10 degrees."""
    return ((f", {x['rays']} rays" if x["rays"] != 512 else "") +
            (f", {x['views']} views" if x["views"] not in (1, 36) else ""))


def spread(c):
    return f"{sum(c) / len(c):.1f} ({min(c)}–{max(c)})"


def replicate(xs):
    r = [x["replicate"] for x in xs if x["replicate"] is not None]
    return f" {spread(r)} of {len(r)} |" if r else " - |"


def main(args):
    exclude = set()
    runs = []
    while args:
        a = args.pop(0)
        if a == "--exclude":
            exclude.add(args.pop(0))
        else:
            runs.append(a.rstrip("/"))
    per = collections.defaultdict(list)
    cached = collections.defaultdict(list)
    for run in runs:
        for volume, x in load(run).items():
            if f"{os.path.basename(run)}/{volume}" not in exclude:
                per[volume + setting(x)].append(x)
        for volume, x in cached_first_orbits(run).items():
            if f"{os.path.basename(run)}/{volume}" not in exclude:
                cached[volume].append(x)
    print("| volume | orbits | confirmed within 5%: mean (range) | AUTO / oracle, confirmed | "
          "turns per warm orbit | warm orbit: wall, kernel | orbits to converge | measuring, most "
          "| replicate within 5% |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    real = collections.defaultdict(list)  # {setting: runs of real data}
    for volume, xs in sorted(per.items()):
        c = [x["confirmed"] for x in xs]
        if not volume.startswith("micro"):
            for x in xs:
                real[setting(x)].append(x)
        print(f"| {volume} | {len(xs)} | {spread(c)} "
              f"| {sum(x['ratio'] for x in xs) / len(xs):.3f} "
              f"| {' '.join(str(x['turns']) for x in xs)} "
              f"| {sum(x['wall'] for x in xs) / len(xs):.1f}, "
              f"{sum(x['kernel'] for x in xs) / len(xs):.1f} ms "
              f"| {min(x['orbits'] for x in xs)}–{max(x['orbits'] for x in xs)} "
              f"| {100 * max(x['measuring'] for x in xs):.2f}% |" + replicate(xs))
    for label, xs in sorted(real.items()):
        c = [x["confirmed"] for x in xs]
        print(f"| real data{label} | {len(xs)} | {spread(c)} "
              f"| {sum(x['ratio'] for x in xs) / len(xs):.3f} | | | | |" + replicate(xs))
    first_orbit_table("First orbit over the warm one: wall time, the two orbits timed minutes "
                      "apart; kernel time, paired (cvr-auto-bench --replay: measured frames, "
                      "others, turns; of the warm kernel time; and of those what the cold "
                      "orbit's voxel order cost: the warm orbit's frames in the cold one's "
                      "order, paired, over the warm orbit); the host's time beside the "
                      "kernels (launches, AUTO's bookkeeping, kernels loading), cold minus "
                      "warm; and the paired kernel time with the host's (both of the warm wall "
                      "time):",
                      {v: [x["first"] for x in xs if x["first"]] for v, xs in per.items()})
    first_orbit_table("The same, a new process from the kept tables:", cached)
    for volume, xs in sorted(per.items()):
        xs = [x for x in xs if x["views"] > 1]  # (one view: nothing to compare)
        if volume.startswith("micro") and xs:
            print(f"\n{volume}, AUTO's worst view over its best, timed / confirmed / "
                  "faster of the two: " + ", ".join(
                      f"{t:.3f} / {c:.3f} / {e:.3f}" if c else f"{t:.3f} / - / -"
                      for t, c, e in (x["worst"] for x in xs)))


if __name__ == "__main__":
    main(sys.argv[1:])
