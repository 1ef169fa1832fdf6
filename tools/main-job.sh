#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# The main job: installs what is needed, builds, and renders a real volume (an
# MRI template from Debian's mricron-data, or the NIfTI file given) to a PNG
# through the CudaVolumeMapper ParaView plugin in pvbatch: on the GPU when
# there is one, else on the CPU. Without ParaView it uses cvr-render, the
# library's own command-line renderer.
#
#   tools/main-job.sh [OUTPUT.png [INPUT.nii.gz [options...]]]
#   (options: pvbatch script's --size --azimuth --elevation --backend)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/render.png}")
input=$(realpath -m "${2:-/usr/share/mricron/templates/ch2better.nii.gz}")
shift $(( $# < 2 ? $# : 2 ))
echo "main job: installing what is missing (Debian packages)"
"$root/tools/install-deps.sh"
"$root/tools/build.sh"
echo "main job: rendering $input"
plugin=$root/build/lib/paraview-plugins/CudaVolumeMapper/CudaVolumeMapper.so
if [ -f "$plugin" ] && command -v pvbatch >/dev/null; then
  run=()
  [ -n "${DISPLAY:-}" ] || run=(xvfb-run -a -s "-screen 0 1280x1024x24 -noreset")
  "${run[@]}" pvbatch --force-offscreen-rendering "$root/tools/render/render_volume.py" \
    --plugin "$plugin" "$input" "$out" "$@" 2>&1 | grep -v "^$"
else
  "$root/build/tools/render/cvr-render" "$input" "$out"
fi
