#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Tables and plots from cvr-peer-bench's results (tools/device/run-peer.sh).

    peer_report.py DIR        reads DIR/peer-{peers,images,threads,volumes}.jsonl,
                              writes DIR/table.md and, with matplotlib, DIR/scaling.png

Times are medians over each orbit's frames, end to end through VTK
(vtkRenderWindow::Render() until glFinish), the first frame (uploads) apart.
"""
import collections
import os
import sys

from json_lines import read_rows, resolve

NAMES = {
    "auto": "ours, CUDA, Auto",
    "standard": "ours, CUDA, standard",
    "standard-host": "ours, CUDA, standard, image via host",
    "block-shape": "ours, CUDA, block shape",
    "warp-marching": "ours, CUDA, warp marching",
    "slab": "ours, CUDA, slab",
    "cpu": "ours, CPU",
    "opengl": "VTK OpenGL GPU ray cast",
    "fixed-point": "VTK fixed-point (CPU)",
}


def load(path):
    meta, rows = None, []
    if not os.path.exists(resolve(path)):
        return meta, rows
    for r in read_rows(path):
        if "meta" in r:
            meta = meta or r["meta"]
        else:
            rows.append(r)
    return meta, rows


def check_text(r):
    c = r.get("check")
    if not c:
        return "reference" if r["mapper"] == "opengl" else ""
    if c["against"] == "standard":  # the same kernel's image through host memory
        return "%s: largest difference from standard's %d levels" % (
            "ok" if c["ok"] else "FAIL", c["max"])
    return "%s %.2f / %.2f%% >%d" % ("ok" if c["ok"] else "FAIL", c["mean"], 100 * c["over"],
                                    c["threshold"])


def peers_table(rows):
    out = []
    groups = collections.OrderedDict()
    for r in rows:
        groups.setdefault((r["volume"], tuple(r["dims"]), r["type"], r["image"], r["shade"],
                           r["threads"], r.get("opaque", False)), []).append(r)
    for (volume, dims, typ, image, shade, threads, opaque), rs in groups.items():
        opengl = next((r["median_ms"] for r in rs if r["mapper"] == "opengl"), None)
        out.append("\n**%s** (%s, %s), %d² image%s%s%s\n" % (
            volume, "×".join(map(str, dims)), typ, image, ", shaded" if shade else "",
            ", %d CPU threads" % threads if threads else "",
            ", around an opaque sphere" if opaque else ""))
        out.append("| mapper | configuration | median ms | fps | vs OpenGL mapper | first frame ms "
                   "| image check (mean / share over) |")
        out.append("| --- | --- | ---: | ---: | ---: | ---: | --- |")
        for r in sorted(rs, key=lambda r: r["median_ms"]):
            speed = "%.2f×" % (opengl / r["median_ms"]) if opengl else ""
            out.append("| %s | %s | %.2f | %.1f | %s | %.0f | %s |" % (
                NAMES.get(r["mapper"], r["mapper"]), r["description"][:60], r["median_ms"],
                1e3 / r["median_ms"], speed, r["first_frame_ms"], check_text(r)))
    return out


def stages_table(rows):
    out = ["\nWhere our mapper's frame goes (medians, ms): the kernel and the host-device copies are "
           "GPU time (CUDA events) inside the library's render call; depth read and composite are "
           "the OpenGL calls' wall time; the rest of the frame is VTK's own work and waiting for "
           "OpenGL to finish.\n",
           "| volume | image | mapper | image transfer | frame | render call | kernel | copies | "
           "depth read | composite | frame − kernel |",
           "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        s = r.get("stages")
        if not s or r["mapper"] == "cpu":
            continue
        out.append("| %s %s | %d² | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            r["volume"], "×".join(map(str, r["dims"])), r["image"], r["mapper"],
            r.get("image_transfer", "host memory"), r["median_ms"],
            s["render_call_ms"], s["kernel_ms"], s["transfer_ms"], s["depth_read_ms"],
            s["composite_ms"], r["median_ms"] - s["kernel_ms"]))
    return out


def plot(results, dst):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("peer_report: no matplotlib, no plot")
        return False
    panels = [("volumes", "volume (cubes resampled from bonsai)", lambda r: r["dims"][0], "N (N³ voxels)"),
              ("images", "image size (bonsai 256³)", lambda r: r["image"], "W (W² pixels)"),
              ("threads", "CPU threads (bonsai 256³, 512²)", lambda r: r["threads"], "threads")]
    panels = [p for p in panels if results.get(p[0])]
    if not panels:
        return False
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.4), squeeze=False)
    for ax, (step, title, key, xlabel) in zip(axes[0], panels):
        lines = collections.defaultdict(list)
        for r in results[step]:
            lines[r["mapper"]].append((key(r), r["median_ms"]))
        for mapper, points in sorted(lines.items()):
            points.sort()
            xs, ys = zip(*points)
            ax.plot(xs, ys, marker="o", label=NAMES.get(mapper, mapper),
                    linestyle="--" if mapper in ("opengl", "fixed-point") else "-")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sorted({x for pts in lines.values() for x, _ in pts}))
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("ms per frame (median, end to end)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    results, meta = {}, None
    for step in ("peers", "images", "threads", "volumes"):
        m, rows = load(os.path.join(folder, "peer-%s.jsonl" % step))
        meta = meta or m
        results[step] = rows
    lines = ["# cvr-peer-bench", ""]
    if meta:
        lines.append("Device: %s; commit %s; %s." % (meta["device"], meta["commit"], meta["date"]))
    if results["peers"]:
        lines.append("\n## Real data, every mapper")
        lines += peers_table(results["peers"])
        lines += stages_table(results["peers"])
    for step, title in (("images", "Image size"), ("threads", "CPU threads"),
                        ("volumes", "Volume size")):
        if results[step]:
            lines.append("\n## %s" % title)
            lines += peers_table(results[step])
    if any(results[s] for s in ("images", "volumes")):
        lines.append("\n## Stages against size")
        lines += stages_table(results["images"] + results["volumes"])
    with open(os.path.join(folder, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    plot(results, os.path.join(folder, "scaling.png"))


if __name__ == "__main__":
    main()
