#!/usr/bin/env bash
# The main job: installs what is needed, builds, and renders a real volume
# (an MRI template from Debian's mricron-data, or the NIfTI file given) to a
# PNG with the cvr library, on the GPU when there is one, else on the CPU.
#
#   tools/main-job.sh [OUTPUT.png [INPUT.nii.gz [cvr-render options...]]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/render.png}
input=${2:-/usr/share/mricron/templates/ch2better.nii.gz}
shift $(( $# < 2 ? $# : 2 ))
"$root/tools/install-deps.sh"
"$root/tools/build.sh" >/dev/null
"$root/build/tools/render/cvr-render" "$input" "$out" "$@"
