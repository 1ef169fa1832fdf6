# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Volumetric scattering's cost (run.sh scatter): per volume and
configuration, the median frame's kernel time over the orbit's views and
its ratio to the shaded frame without scattering (std:16x16+shade).

    python3 scatter_table.py scatter-*.jsonl"""
import statistics
import sys

from json_lines import read_rows


def main(paths):
    for path in paths:
        rows = [r for r in read_rows(path) if r.get("bench") == "orbit"]
        if not rows:
            continue
        by_config = {}
        for r in rows:
            by_config.setdefault(r["config"], []).append(r["ms"])
        base = statistics.median(by_config.get("std:16x16+shade", [float("nan")]))
        print(f"{rows[0]['volume']} {rows[0]['dims']}, {rows[0]['R']}^2, "
              f"{len(by_config.get('std:16x16+shade', []))} views")
        print(f"{'configuration':34} {'median ms':>10} {'x shaded':>9} {'strategy':>10}")
        for config, times in by_config.items():
            median = statistics.median(times)
            strategy = next(r["strategy"] for r in rows if r["config"] == config)
            print(f"{config:34} {median:10.3f} {median / base:9.2f} {strategy:>10}")


if __name__ == "__main__":
    main(sys.argv[1:])
