#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Strategies II results: Misaki et al.'s experiment (frames about y over
0..359 degrees, frame time including in-place rotation), the rotation
kernel's bandwidth per tile depth, and memory layouts on the micro-benchmark
and real-data orbits. Prints a summary; with --plots DIR also draws
misaki.png, rotation-bandwidth.png and layouts.png there (needs matplotlib).

  plot_rotation.py RESULTS_DIR [--plots DIR]
"""
import collections
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from json_lines import read_rows, resolve  # noqa: E402


def rows(path, bench=None):
    if not os.path.exists(resolve(path)):
        return []
    out = read_rows(path)
    return [r for r in out if "meta" not in r and (bench is None or r.get("bench") == bench)]


def misaki(d, plots):
    data = rows(os.path.join(d, "misaki.jsonl"), "wang_micro")
    if not data:
        return
    print("Misaki experiment: frames about y, 0..359 degrees, 1024^2 rays, 512 samples/ray")
    print(f"{'volume':>14} {'method':>14} {'mean fps':>9} {'median':>7} {'min':>6} {'max':>6} "
          f"{'turns':>5} {'rot ms':>7} {'360 frames s':>12}")
    groups = collections.OrderedDict()
    for r in data:
        groups.setdefault((r["dims"], r["config"]), []).append(r)
    for (dims, config), rs in groups.items():
        fps = [1000.0 / r["frame_ms"] for r in rs]
        turns = [r for r in rs if r["rotation_ms"] > 0]
        rot = statistics.mean([r["rotation_ms"] for r in turns]) if turns else 0.0
        print(f"{dims:>14} {config:>14} {statistics.mean(fps):9.1f} {statistics.median(fps):7.1f} "
              f"{min(fps):6.1f} {max(fps):6.1f} {len(turns):5d} {rot:7.2f} "
              f"{sum(r['frame_ms'] for r in rs) / 1000.0:12.3f}")
    if not plots:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    volumes = list(dict.fromkeys(k[0] for k in groups))
    fig, axes = plt.subplots(2, len(volumes), figsize=(5.5 * len(volumes), 8), squeeze=False)
    for i, dims in enumerate(volumes):
        configs = [k[1] for k in groups if k[0] == dims]
        for c in configs:
            rs = groups[(dims, c)]
            axes[0][i].plot([r["angle"] for r in rs], [1000.0 / r["frame_ms"] for r in rs], label=c,
                            lw=0.9)
        axes[0][i].set_title(f"{dims} (random uint8), 1024$^2$ rays")
        axes[0][i].set_xlabel("view angle about y (degrees)")
        axes[0][i].set_ylabel("frames/s incl. rotation")
        axes[0][i].legend(fontsize=8)
        axes[1][i].boxplot([[1000.0 / r["frame_ms"] for r in groups[(dims, c)]] for c in configs],
                           labels=configs, whis=(0, 100))
        axes[1][i].set_ylabel("frames/s (min, quartiles, max)")
        axes[1][i].tick_params(axis="x", labelsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(plots, "misaki.png"), dpi=110)


def bandwidth(d, plots):
    data = [r for r in rows(os.path.join(d, "rotation-bandwidth.jsonl"), "rotation") if "ms" in r]
    if not data:
        return
    print("\nIn-place rotation kernel, one quarter turn (GB/s = 2 x turned bytes / time)")
    best = {}
    for r in data:
        k = (r["dims"], r["layout"])
        if k not in best or r["gbytes_per_s"] > best[k]["gbytes_per_s"]:
            best[k] = r
    for (dims, layout), r in best.items():
        print(f"{dims:>14} {layout:>11}: best t={r['t']:2d} k={r['k']:2d} {r['ms']:8.3f} ms "
              f"{r['gbytes_per_s']:6.0f} GB/s = {100 * r['of_copy']:4.1f}% of a device copy "
              f"({r['copy_gbytes_per_s']:.0f} GB/s)")
    if not plots:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sizes = list(dict.fromkeys(r["dims"] for r in data))
    fig, axes = plt.subplots(1, len(sizes), figsize=(4.5 * len(sizes), 3.8), squeeze=False)
    for i, dims in enumerate(sizes):
        ax = axes[0][i]
        for layout in dict.fromkeys(r["layout"] for r in data):
            for t in (32, 16):
                rs = [r for r in data if r["dims"] == dims and r["layout"] == layout and r["t"] == t]
                ax.plot([r["k"] for r in rs], [r["gbytes_per_s"] for r in rs], marker="o",
                        ls="-" if t == 32 else ":", label=f"{layout} t={t}")
        copy = [r["copy_gbytes_per_s"] for r in data if r["dims"] == dims][0]
        ax.axhline(copy, color="k", lw=0.8, ls="--", label="device copy")
        ax.set_xscale("log", base=2)
        ax.set_title(dims)
        ax.set_xlabel("tile depth k")
        ax.set_ylabel("GB/s")
        if i == 0:
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(plots, "rotation-bandwidth.png"), dpi=110)


def layouts(d, plots):
    micro = rows(os.path.join(d, "layouts-micro.jsonl"), "wang_micro")
    if micro:
        print("\nMemory layouts, micro-benchmark (G samples/s over X/Y/Z rotations, 15 degree steps)")
        groups = collections.OrderedDict()
        for r in micro:
            groups.setdefault((r["N"], r["config"]), []).append(r["gsamples_per_s"])
        for (n, c), g in groups.items():
            print(f"N={n:5d} {c:>28}: mean {statistics.mean(g):6.1f} worst {min(g):6.1f} "
                  f"best {max(g):6.1f}")
    for name in ("bonsai", "cranium_ct"):
        orbit = rows(os.path.join(d, f"layouts-orbit-{name}.jsonl"), "orbit")
        if not orbit:
            continue
        print(f"\nMemory layouts and rotation, {name} orbit (1024^2, ERT on; ms per frame)")
        groups = collections.OrderedDict()
        for r in orbit:
            groups.setdefault(r["config"], []).append(r)
        for c, rs in groups.items():
            ms = [r["ms"] + r["rotation_ms"] for r in rs]
            turns = sum(1 for r in rs if r["rotation_ms"] > 0)
            print(f"{c:>28}: mean {statistics.mean(ms):6.3f} worst {max(ms):6.3f} "
                  f"best {min(ms):6.3f}  turns {turns}")
    if not plots or not micro:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ns = sorted({r["N"] for r in micro})
    fig, axes = plt.subplots(1, len(ns), figsize=(6 * len(ns), 4), squeeze=False)
    for i, n in enumerate(ns):
        configs = list(dict.fromkeys(r["config"] for r in micro if r["N"] == n))
        axes[0][i].boxplot([[r["gsamples_per_s"] for r in micro if r["N"] == n and r["config"] == c]
                            for c in configs], labels=configs, whis=(0, 100))
        axes[0][i].set_title(f"{n}$^3$ random uint8, 512$^2$ rays, X/Y/Z 0..180")
        axes[0][i].set_ylabel("G samples/s")
        axes[0][i].tick_params(axis="x", labelsize=7, rotation=30)
    fig.tight_layout()
    fig.savefig(os.path.join(plots, "layouts.png"), dpi=110)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    d = sys.argv[1]
    plots = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--plots" else None
    misaki(d, plots)
    bandwidth(d, plots)
    layouts(d, plots)
    return 0


if __name__ == "__main__":
    sys.exit(main())
