#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Plots cvr-bench's Wang micro-benchmark: frames per second against rotation
angle, one panel per volume size, image size and axis, one line per strategy
configuration (or thread-block shape), in the style of the papers' figures.

    plot_wang.py RESULTS.jsonl OUT.png
"""
import collections
import sys

from json_lines import read_rows

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def style(label, i):
    """Distinct colours for up to 20 lines; warp marching dashed, so that the
    thread-per-ray strategies stand out."""
    dashed = label.startswith("wm:")
    return dict(color=plt.cm.tab20(i % 20), linestyle="--" if dashed else "-",
                linewidth=1.0 if dashed else 1.8)


def plot_orbit(rows, meta, dst):
    """Frames per second against azimuth on real data, one panel per volume
    and image size, one line per configuration."""
    runs = [r for r in rows if r.get("bench") == "orbit"]
    panels = sorted({(r["volume"], r["R"]) for r in runs})
    fig, grid = plt.subplots(1, len(panels), figsize=(max(7.0, 5.0 * len(panels)), 4.0), squeeze=False)
    for j, (volume, rays) in enumerate(panels):
        ax = grid[0][j]
        lines = collections.defaultdict(list)
        for r in runs:
            if r["volume"] == volume and r["R"] == rays:
                lines[r["config"]].append((r["azimuth"], 1000.0 / r["ms"]))
        for i, (config, pts) in enumerate(sorted(lines.items())):
            pts.sort()
            ax.plot([a for a, _ in pts], [f for _, f in pts], marker="o", ms=3, label=config,
                    **style(config, i))
        dims = next(r["dims"] for r in runs if r["volume"] == volume)
        ax.set_title(f"{volume} ({dims}), {rays}$^2$, perspective, ERT on", fontsize=9)
        ax.set_xlabel("azimuth (degrees)")
        ax.set_xticks(range(0, 361, 90))
        ax.set_ylabel("frames per second")
        ax.grid(alpha=0.3)
    grid[0][0].legend(fontsize=6)
    fig.suptitle(f"360 degree orbits\n{meta.get('device', '')}, commit {meta.get('commit', '?')}",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


def main(src, dst):
    rows = read_rows(src)
    if any(r.get("bench") == "orbit" for r in rows):
        plot_orbit(rows, next((r["meta"] for r in rows if "meta" in r), {}), dst)
        return
    meta = next((r["meta"] for r in rows if "meta" in r), {})
    ceiling = next((r["gsamples_per_s"] for r in rows if r.get("bench") == "texture_ceiling"), None)
    runs = [r for r in rows if r.get("bench") == "wang_micro"]
    sizes = sorted({(r["N"], r["R"]) for r in runs})
    axes = sorted({r["axis"] for r in runs})
    fig, grid = plt.subplots(len(sizes), len(axes), figsize=(4.2 * len(axes), 3.3 * len(sizes)),
                             squeeze=False, sharey="row")
    for i, (n, rays) in enumerate(sizes):
        for j, axis in enumerate(axes):
            ax = grid[i][j]
            lines = collections.defaultdict(list)
            for r in runs:
                if r["N"] == n and r["R"] == rays and r["axis"] == axis:
                    lines[r.get("config", r["block"])].append((r["angle"], 1000.0 / r["ms"]))
            for k, (block, pts) in enumerate(sorted(lines.items())):
                pts.sort()
                ax.plot([a for a, _ in pts], [f for _, f in pts], marker="o", ms=3, label=block,
                        **style(block, k))
            ax.set_title(f"{n}$^3$, {rays}$^2$ rays, rotation about {axis.upper()}", fontsize=9)
            ax.set_xlabel("angle (degrees)")
            ax.set_xticks(range(0, 181, 45))
            if j == 0:
                ax.set_ylabel("frames per second")
            ax.grid(alpha=0.3)
    grid[0][0].legend(fontsize=6)
    title = "512 samples of 0.5 voxel per ray, no early termination"
    if ceiling:
        title += f"; texture ceiling {ceiling:.0f} G samples/s"
    fig.suptitle(f"{title}\n{meta.get('device', '')}, commit {meta.get('commit', '?')}", fontsize=9)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
