#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Empty-space skipping on and off, from cvr-bench files (tools/device/run.sh
empty): per file and configuration, the total kernel time over the views
without skipping (config+noskip; in files from before skipping was the
default, the bare config) and with it (config+skip, +skip:N), their ratio,
and the share of the lattice skipped as empty.

usage: empty_table.py FILE.jsonl..."""
import collections
import os
import re
import sys

from json_lines import read_rows


def main(paths):
    for path in paths:
        rows = read_rows(path)
        rows = [r for r in rows if r.get("bench") in ("orbit", "wang_micro")]
        if not rows:
            continue
        ms = collections.defaultdict(float)
        skipped = collections.defaultdict(int)
        lattice = collections.defaultdict(int)
        for r in rows:
            config = r["config"]
            ms[config] += r["ms"]
            skipped[config] += r.get("skipped_empty", 0)
            lattice[config] += r["samples"] + r.get("skipped_empty", 0) + r.get("skipped_terminated", 0)
        print(f"{os.path.basename(path)} ({len(rows)} views x configurations)")
        print(f"  {'configuration':34} {'off ms':>9} {'on ms':>9} {'off/on':>7} {'skipped':>8}")
        for config in ms:
            if "+skip" not in config:
                continue
            plain = re.sub(r"\+skip(:\d+)?", "", config)
            off = ms.get(plain + "+noskip", ms.get(plain))
            share = skipped[config] / lattice[config] if lattice[config] else 0.0
            ratio = f"{off / ms[config]:7.3f}" if off else "      -"
            off_text = f"{off:9.2f}" if off else "        -"
            print(f"  {config:34} {off_text} {ms[config]:9.2f} {ratio} {100 * share:7.1f}%")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
