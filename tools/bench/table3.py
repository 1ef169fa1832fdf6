#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Mensmann et al.'s Table 3 from cvr-bench orbit results (tools/device/run.sh
slab): per volume, viewport and technique (RC: unshaded, PH: Phong shading),
the basic kernel at its best block size against the slab kernel at its best
block size and slab depth, as frames per second averaged over the orbit
(the paper's measure), and the slab kernel's speedup: with the paper's ring
of border-ray threads and, where measured (+gather), with the border rays
gathered by the tile's own threads.

usage: table3.py slab-*.jsonl[.gz]
"""
import collections
import sys

from json_lines import read_rows


def main(paths):
    # (volume, R, shaded, kind) -> config -> frame times over the orbit
    runs = collections.defaultdict(lambda: collections.defaultdict(list))
    meta = None
    for path in paths:
        for r in read_rows(path):
            if "meta" in r:
                meta = meta or r["meta"]
                continue
            if r.get("bench") != "orbit":
                continue
            volume = r["volume"].replace(".nii.gz", "")
            if r.get("resampled_from"):
                volume += f" resampled to {r['dims']}"
            else:
                volume += f" {r['dims']}"
            kind = "basic"
            if r["strategy"] == "slab":
                kind = "gathered" if r.get("slab_border") == "gathered" else "slab"
            runs[(volume, r["R"], r["shaded"], kind)][r["config"]].append(r["ms"])
    if meta:
        print(f"device: {meta['device']}, commit {meta['commit']}, {meta['date']}\n")
    gathered = any(k[3] == "gathered" for k in runs)
    head = "| volume | technique | viewport | basic fps | slab fps | speedup |"
    rule = "| --- | --- | --- | ---: | ---: | ---: |"
    if gathered:
        head += " gathered fps | speedup |"
        rule += " ---: | ---: |"
    print(head + " basic bs_opt | slab bs_opt, sd_opt |" + (" gathered bs_opt, sd_opt |" if gathered else ""))
    print(rule + " --- | --- |" + (" --- |" if gathered else ""))
    keys = sorted({(v, R, s) for (v, R, s, _) in runs}, key=lambda k: (k[0], k[2], k[1]))
    for volume, R, shaded in keys:
        best = {}
        for kind in ("basic", "slab", "gathered"):
            configs = runs.get((volume, R, shaded, kind), {})
            if not configs:
                continue
            # frames per second over the orbit: frames / total time
            fps = {c: 1000.0 * len(ms) / sum(ms) for c, ms in configs.items()}
            c = max(fps, key=fps.get)
            best[kind] = (fps[c], c)
        if "basic" not in best or "slab" not in best:
            continue
        (bf, bc), (sf, sc) = best["basic"], best["slab"]
        bs = bc.split(":")[1].split("+")[0]

        def shape(config):
            _, block, depth = config.split("+")[0].split(":")
            return f"{block}, {depth}"

        row = f"| {volume} | {'PH' if shaded else 'RC'} | {R}² | {bf:.1f} | {sf:.1f} | {100.0 * (sf / bf - 1.0):+.1f}% |"
        if gathered:
            gf, gc = best.get("gathered", (None, None))
            row += f" {gf:.1f} | {100.0 * (gf / bf - 1.0):+.1f}% |" if gf else " | |"
        row += f" {bs} | {shape(sc)} |"
        if gathered:
            row += f" {shape(gc)} |" if gc else " |"
        print(row)


if __name__ == "__main__":
    main(sys.argv[1:])
