#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Cuts pack-vtk.sh's archives into pieces that fit beside the working tree in
# one device call's carry (64 MiB in all), and says which calls carry which
# (run-vtk.sh's stash, then its last call).
#
#   tools/device/split-vtk.sh [piece size, default 34M]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
size=${1:-34M}
cd "$root/.device-vtk"
rm -f ./*.part.*
for a in mesa.tar.xz vtk.tar.xz; do
  split -b "$size" "$a" "$a.part."
done
tree=$(git -C "$root" ls-files -z --cached --others --exclude-standard | (cd "$root" && du -ch --files0-from=- | tail -1 | cut -f1))
echo "pieces (each carried with the working tree, $tree of it):"
ls -s --block-size=M ./*.part.*
echo "calls: 'tools/device/run-vtk.sh \$OUT stash' carrying each large piece in turn,"
echo "then 'tools/device/run-vtk.sh \$OUT' carrying the rest; the archives themselves stay here"
