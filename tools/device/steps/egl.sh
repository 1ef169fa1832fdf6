# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "egl": whether OpenGL gets a context on the GPU without a display: the NVIDIA
# libraries present, and egl-probe through the machine's EGL and through glvnd's carried one.
# Sourced by tools/device/run.sh, whose variables it uses (out, pack, root, summary, note,
# configs).
# the machine has NVIDIA's EGL vendor library and glvnd's vendor file but
# not glvnd's dispatcher (libEGL.so.1): the carried one finds the vendor
{
  echo "== NVIDIA GL and EGL libraries, glvnd"
  ls /usr/lib /usr/lib/x86_64-linux-gnu /usr/local/nvidia/lib64 2>/dev/null |
    grep -E "^lib(EGL|GLX|GLdispatch|OpenGL|nvidia-(egl|gl)core)" | sort -u
  echo "== EGL vendor files"
  for d in /usr/share/glvnd/egl_vendor.d /etc/glvnd/egl_vendor.d; do
    ls "$d" 2>/dev/null && cat "$d"/*.json 2>/dev/null
  done
  echo "== egl-probe with the machine's libEGL"
  "$pack/bin/egl-probe"
  echo "rc $?"
  echo "== egl-probe with the carried glvnd libEGL"
  LD_LIBRARY_PATH=$pack/egl:$LD_LIBRARY_PATH "$pack/bin/egl-probe" "$pack/egl/libEGL.so.1"
  echo "rc $?"
} >"$out/egl.log" 2>&1
note "egl: $(grep -E 'GL_RENDERER|GL_VERSION' "$out/egl.log" | tr -s ' \n' ' ')"
