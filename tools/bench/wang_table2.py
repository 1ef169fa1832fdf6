# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Wang et al.'s Table 2 from cvr-bench runs: frames per second of each
configuration facing the XY and the ZY plane, and its speed over the
standard kernel (std:16x16) at the same view.

    python3 wang_table2.py FILE.jsonl...

Micro-benchmark rows (bench wang_micro) face XY at y 0 and ZY at y 90; orbit
rows (bench orbit, --elevation 0) at azimuth 0 and 90."""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from json_lines import read_rows  # noqa: E402

FACING = {("y", 0): "XY", ("y", 90): "ZY", ("orbit", 0): "XY", ("orbit", 90): "ZY"}


def main(paths):
    times = collections.defaultdict(list)  # (volume, facing, config) -> [(ms, G samples/s)]
    for path in paths:
        for r in read_rows(path):
            if r.get("bench") == "wang_micro":
                volume, key = "micro %d^3" % r["N"], (r["axis"], r["angle"])
            elif r.get("bench") == "orbit":
                volume = r["volume"] + (" resampled to " + r["dims"] if r.get("resampled_from") else "")
                key = ("orbit", r["azimuth"])
            else:
                continue
            if key in FACING:
                times[(volume, FACING[key], r["config"])].append((r["ms"], r["gsamples_per_s"]))
    views = sorted({(v, f) for v, f, _ in times})
    configs = sorted({c for _, _, c in times}, key=lambda c: (not c.startswith("std"), c))
    print("| volume | facing | " + " | ".join(configs) + " |")
    print("| --- | --- |" + " ---: |" * len(configs))
    for volume, facing in views:
        def mean(config, i):
            t = times.get((volume, facing, config))
            return sum(x[i] for x in t) / len(t) if t else None
        base = mean("std:16x16+noskip", 0) or mean("std:16x16", 0)
        cells = []
        for c in configs:
            ms = mean(c, 0)
            if ms is None:
                cells.append("–")
                continue
            cell = "%.1f fps, %.1f G/s" % (1000.0 / ms, mean(c, 1))
            if base and not c.startswith("std"):
                cell += ", **%.2fx**" % (base / ms)
            cells.append(cell)
        print("| %s | %s | %s |" % (volume, facing, " | ".join(cells)))


if __name__ == "__main__":
    main(sys.argv[1:])
