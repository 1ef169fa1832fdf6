#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Adds a second build of the library (another commit's pack) to .device, so
# that one device call runs both on one GPU: auto-runs.sh with CVR_AB. Two
# packs of 19 MiB each do not fit a call's carry with the working tree; the
# two libcvr.so.0 differ little, and xz with a dictionary larger than both
# keeps the pair in about the space of one.
#
#   tools/device/pair.sh OTHER_PACK
#     OTHER_PACK: what pack.sh packed at the other commit (e.g. in a
#     worktree: git worktree add W REV && W/tools/device/pack.sh, then
#     W/.device); run pack.sh here first. Puts the other pack's programs,
#     small libraries, commit and flags under .device/b, and both
#     libcvr.so.0 into .device/pair.tar.xz (run.sh unpacks it).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pack=$root/.device
other=${1:?usage: pair.sh OTHER_PACK}
[[ -e $pack/lib/libcvr.so.0.xz && -e $other/lib/libcvr.so.0.xz ]] ||
  { echo "pair.sh: both packs need lib/libcvr.so.0.xz (pack.sh)" >&2; exit 1; }
# (what auto-runs.sh runs of it: without, each of its runs fails at once)
[[ -x $other/bin/cvr-auto-bench ]] ||
  { echo "pair.sh: $other/bin has no cvr-auto-bench (CVR_PACK_PROGRAMS)" >&2; exit 1; }
rm -rf "$pack/b"
mkdir -p "$pack/b/lib"
cp -a "$other/bin" "$pack/b/"
cp "$other/commit" "$pack/b/"
[[ -e $other/build-flags ]] && cp "$other/build-flags" "$pack/b/"
find "$other/lib" -maxdepth 1 -type f ! -name 'libcvr.so.0.xz' -exec cp {} "$pack/b/lib/" \;
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/lib" "$staging/b/lib"
xz -dc "$pack/lib/libcvr.so.0.xz" >"$staging/lib/libcvr.so.0"
xz -dc "$other/lib/libcvr.so.0.xz" >"$staging/b/lib/libcvr.so.0"
# (-9: a 64 MiB dictionary, over both libraries)
tar cf - -C "$staging" lib/libcvr.so.0 b/lib/libcvr.so.0 | xz -9 >"$pack/pair.tar.xz"
rm "$pack/lib/libcvr.so.0.xz"
echo "paired $(cat "$pack/commit") with $(cat "$pack/b/commit"): .device is $(du -sh "$pack" | cut -f1)"
