#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# The README's screenshot of ParaView's GUI with the plugin: plays
# screenshot-events.xml in the client under a private Xvfb, waits for it to
# settle, and grabs the screen.
#
#   tools/gui/screenshot.sh OUT.png [build-dir]      (default build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: screenshot.sh OUT.png [build-dir]}
build=${2:-$here/../../build}
plugin_dir=$build/lib/paraview-plugins/CudaVolumeMapper
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1500x950x24 -noreset >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$client" "$xvfb" 2>/dev/null || true' EXIT
sleep 2
DISPLAY=$display paraview --dr --test-plugin=CudaVolumeMapper --test-plugin-path="$plugin_dir" \
  --test-script="$here/screenshot-events.xml" >/dev/null 2>&1 &
client=$!
sleep 25
DISPLAY=$display xdotool search --class paraview windowsize --sync 1500 950 windowmove 0 0 \
  >/dev/null 2>&1 || true
# the output window (the backend's one-time note) to the lower right, off the volume
DISPLAY=$display xdotool search --name "Output Messages" windowmove 880 640 >/dev/null 2>&1 || true
sleep 3
DISPLAY=$display import -window root "$out"
echo "saved $out"
