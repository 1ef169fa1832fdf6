#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Summary of cvr-auto-bench results (tools/device/run.sh auto): per orbit,
AUTO against the per-view oracle and the standard strategy, and what
tuning cost (the first orbit over the converged one: kernel and wall time;
of it, what the frames that measured a candidate cost; the orbits until one
measured nothing), as a markdown table. Files from 2026-11-24 on also say
how AUTO's choice compares with the oracle's best timed again, interleaved
("confirmed").

usage: auto_table.py auto-*.jsonl[.gz|.xz]
"""
import sys

from json_lines import read_rows


def main(paths):
    print("| volume | AUTO / oracle: mean, worst | views within 5% | standard / AUTO | "
          "AUTO worst / best view | tuning frames | tuning share: kernel, wall | measuring | "
          "orbits | longest frame: cold, warm | confirmed: within 5%, mean, worst | "
          "turns: cold, settling, warm |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in paths:
        rows = read_rows(path)
        s = next((r for r in rows if r.get("bench") == "auto_summary"), None)
        if not s:
            continue
        frames = [r for r in rows if r.get("bench") == "auto_orbit"]
        longest = {p: max((r["wall_ms"] for r in frames if r["pass"] == p), default=0.0)
                   for p in ("cold", "warm")}
        kernel = (s["cold_kernel_ms"] - s["warm_kernel_ms"]) / s["warm_kernel_ms"]
        name = s["volume"] + (", shaded" if s["shaded"] else "")
        # what measuring cost in the first orbit, and the orbits AUTO took to
        # measure nothing more (files from before the budget have neither)
        measuring = f"{100 * s['measuring_share']:.2f}%" if "measuring_share" in s else "-"
        orbits = s.get("orbits_to_converge", "-")
        if s.get("warm_tuning_frames", 0):  # still measuring after them
            orbits = f"{orbits} (+{s['warm_tuning_frames']} frames)"
        # in-place rotation's turns (files from before 2026-11-25 count them
        # per frame only)
        turns = {p: sum(r["rotations"] for r in frames if r["pass"] == p) for p in ("cold", "warm")}
        turns = (f"{s['turns_cold']}, {s['turns_settling']}, {s['turns_warm']}" if "turns_cold" in s
                 else f"{turns['cold']}, -, {turns['warm']}")
        print(f"| {name}, {s['R']}² | {s['auto_over_oracle_mean']:.3f}, {s['auto_over_oracle_max']:.3f} "
              f"| {s['views_within_5pct']}/{s['views']} | {s['standard_over_auto']:.2f}× "
              f"| {s['auto_worst_over_best_view']:.2f} | {s['tuning_frames']} of {s['frames']} "
              f"| {100 * kernel:.1f}%, {100 * s['tuning_share']:.1f}% "
              f"| {measuring} | {orbits} "
              f"| {longest['cold']:.1f} ms, {longest['warm']:.1f} ms "
              + (f"| {s['views_within_5pct_confirmed']}/{s['views']}, "
                 f"{s['auto_over_oracle_confirmed_mean']:.3f}, {s['auto_over_oracle_confirmed_max']:.3f} |"
                 if "views_within_5pct_confirmed" in s else "| - |")
              + f" {turns} |")


if __name__ == "__main__":
    main(sys.argv[1:])
