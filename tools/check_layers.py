#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that calls in kernels/ go down its layers (kernels/README.md): api,
auto, frame, the backends (src/cpu, cuda), core. Finds each non-static cvr_
function's definition by its folder and every call to it from a file of a
lower layer; prints those and fails unless each is one of the exceptions the
README names. Reads the source text only (no compiler): a name in a comment
counts as a call, which errs toward failing.

    tools/check_layers.py [KERNELS_DIR]"""
import glob
import os
import re
import sys

RANK = {"api": 5, "auto": 4, "frame": 3, "cpu": 2, "cuda": 2, "core": 1}
# (caller's layer, callee's file, function): kernels/README.md says why
EXCEPTIONS = {
    ("cpu", "src/frame/bricks.c", "cvr_bricks_draw_frame"),
    ("cuda", "src/frame/bricks.c", "cvr_bricks_draw_frame"),
    ("cuda", "src/frame/bricks.c", "cvr_brick_box"),
    ("auto", "src/api/settings.c", "cvr_validate_settings"),
}
DEFINITION = re.compile(
    r'^(?:extern "C" )?(?:CVR_HD )?(?:inline )?[a-z_][a-z0-9_ \*]*?\b(cvr_[a-z0-9_]+)\s*\([^;{]*\)\s*\{',
    re.M)


def layer(path, root):
    rel = os.path.relpath(path, root)
    return "cuda" if rel.startswith("cuda" + os.sep) else rel.split(os.sep)[1]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "kernels")
    files = [f for pattern in ("src/*/*.c", "src/*/*.h", "cuda/*.cu", "cuda/*.cuh", "cuda/*.c")
             for f in glob.glob(os.path.join(root, pattern))]
    if not files:
        print("no sources under %s" % root)
        return 1
    text = {f: open(f, encoding="utf-8").read() for f in files}
    defined = {}
    for f, s in text.items():
        for m in DEFINITION.finditer(s):
            if not m.group(0).startswith("static"):
                defined.setdefault(m.group(1), set()).add(f)
    upward, unexpected = 0, []
    for f, s in sorted(text.items()):
        for name, where in defined.items():
            if f in where or not re.search(r"\b%s\s*\(" % name, s):
                continue
            for w in where:
                if RANK[layer(w, root)] <= RANK[layer(f, root)]:
                    continue
                upward += 1
                callee = os.path.relpath(w, root)
                key = (layer(f, root), callee, name)
                known = key in EXCEPTIONS
                print("%s %s -> %s: %s" % ("  " if known else "!!", os.path.relpath(f, root),
                                           callee, name))
                if not known:
                    unexpected.append(key)
    print("%d calls up the layers, %d of them not among the exceptions" % (upward, len(unexpected)))
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
