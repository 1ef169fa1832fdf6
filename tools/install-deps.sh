#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Installs what building and testing need on Debian 12 (as root, or through
# sudo). Installs nothing when everything is already there. The CUDA backend
# is built when a CUDA compiler is found (nvcc on PATH or in /usr/local/cuda);
# without one the library builds its CPU renderer alone.
#
# The VTK module builds against ParaView's VTK (paraview-dev). Its CMake
# configuration loads the dependencies of every ParaView module, hence the
# long list of -dev packages; Xvfb and Mesa give the VTK tests an OpenGL
# context without a display; clang builds the sanitizer and fuzzing checks of
# the CPU path (tools/sanitize.sh).
set -euo pipefail
packages=(cmake make gcc g++ clang libclang-rt-14-dev git pkg-config python3 libniftiio-dev libnifti2-dev libpng-dev
  zlib1g-dev mricron-data
  paraview-dev python3-paraview xvfb xauth libgl1-mesa-dri
  qtbase5-dev qttools5-dev libqt5svg5-dev libqt5opengl5-dev libqt5xmlpatterns5-dev
  qtxmlpatterns5-dev-tools qtmultimedia5-dev libqt5x11extras5-dev libutfcpp-dev
  libhdf5-openmpi-dev libopenmpi-dev libboost-dev libexpat1-dev libeigen3-dev libavcodec-dev
  libavformat-dev libavutil-dev libswscale-dev libfreetype-dev libgdal-dev libgl2ps-dev
  libglew-dev libjpeg-dev liblz4-dev liblzma-dev libxml2-dev libnetcdf-dev libgl-dev libtiff-dev
  libtheora-dev libogg-dev libx11-dev libxt-dev libdouble-conversion-dev python3-dev
  python3-mpi4py python3-numpy)
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
