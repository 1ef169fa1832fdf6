#!/usr/bin/env bash
# Installs what building and testing need on Debian 12 (as root, or through
# sudo). Installs nothing when everything is already there. The CUDA backend
# is built when a CUDA compiler is found (nvcc on PATH or in /usr/local/cuda);
# without one the library builds its CPU renderer alone.
set -euo pipefail
packages=(cmake make gcc g++ git pkg-config python3 libniftiio-dev libnifti2-dev libpng-dev
  zlib1g-dev mricron-data)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
