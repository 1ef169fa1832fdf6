# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""The JSON lines of a benchmark file, plain or compressed (.gz, .xz: the
results folders keep them compressed; a device call carries the working
tree, 64 MiB at most)."""
import glob
import gzip
import json
import lzma
import os


def resolve(path):
    """path, or where it is kept compressed (path.xz, path.gz)."""
    for p in (path, path + ".xz", path + ".gz"):
        if os.path.exists(p):
            return p
    return path


def read_rows(path):
    path = resolve(path)
    opener = gzip.open if path.endswith(".gz") else lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def files_by_name(folder, prefix):
    """{NAME: path} of folder's PREFIXNAME.jsonl files, one path a name
    (a file kept both plain and compressed counts once)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, prefix + "*.jsonl*"))):
        out.setdefault(os.path.basename(path)[len(prefix):].split(".jsonl")[0], path)
    return out
