# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Volumetric scattering's cost (run.sh scatter): per volume and
configuration, each library's median frame kernel time over the orbit's
views and rounds, its ratio to the shaded frame without scattering
(std:16x16+shade), and with several libraries each one's time over the
first's.

    python3 scatter_table.py scatter-*.jsonl
    (scatter-LIB-VOLUME-ROUND.jsonl; scatter-VOLUME.jsonl counts as one library)"""
import os
import re
import statistics
import sys

from json_lines import read_rows


def main(paths):
    times = {}  # volume -> config -> library -> [ms]
    libraries, label = [], {}
    for path in paths:
        m = re.match(r"scatter-(?P<lib>[^-]+)-(?P<vol>.+)-\d+\.jsonl", os.path.basename(path))
        lib = m.group("lib") if m else "pack"
        if lib not in libraries:
            libraries.append(lib)
        for r in read_rows(path):
            if r.get("bench") != "orbit":
                continue
            label[r["volume"]] = f"{r['volume']} {r['dims']}, {r['R']}^2"
            times.setdefault(r["volume"], {}).setdefault(r["config"], {}).setdefault(lib, []).append(r["ms"])
    for volume, configs in times.items():
        print(label[volume])
        print(f"{'configuration':34}" + "".join(f" {lib + ' ms':>12} {'x shaded':>9}" for lib in libraries)
              + "".join(f" {lib + '/' + libraries[0]:>12}" for lib in libraries[1:]))
        base = {lib: statistics.median(configs.get("std:16x16+shade", {}).get(lib, [float("nan")]))
                for lib in libraries}
        for config, by_lib in configs.items():
            med = {lib: statistics.median(by_lib.get(lib, [float("nan")])) for lib in libraries}
            print(f"{config:34}" + "".join(f" {med[lib]:12.3f} {med[lib] / base[lib]:9.2f}" for lib in libraries)
                  + "".join(f" {med[lib] / med[libraries[0]]:12.3f}" for lib in libraries[1:]))


if __name__ == "__main__":
    main(sys.argv[1:])
