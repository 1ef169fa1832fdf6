"""The JSON lines of a benchmark file, plain or compressed (.gz, .xz: the
results folders keep orbit files compressed)."""
import gzip
import json
import lzma


def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]
