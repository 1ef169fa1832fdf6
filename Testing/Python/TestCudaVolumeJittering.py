# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Jittering as the stock Volume does it (run with
CVR_OVERRIDE_GPU_VOLUME_MAPPER=1: the stock Volume through vtkCudaVolumeMapper
on any machine). ParaView 5.11's stock Volume draws image data through VTK's
multiblock mapper, which turns jittering on in the mapper it makes; CUDA
Volume jitters when CudaUseJittering is on (off by default). On a shaded
Wavelet, with the property on CUDA Volume must draw the stock Volume's image
(on the CPU bit for bit; on a GPU AUTO may pick another strategy for either,
whose images agree to rounding), with it off one that differs from it."""
import os

from cvr_pvtest import arguments, check, finish, load_plugin, mean_apart as apart, read_png

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403

load_plugin(args)
ok = check(os.environ.get("CVR_OVERRIDE_GPU_VOLUME_MAPPER") == "1",
           "run with CVR_OVERRIDE_GPU_VOLUME_MAPPER=1 (the stock Volume through our mapper)")

view = CreateRenderView()
view.ViewSize = [240, 240]
view.OrientationAxesVisibility = 0
rep = Show(Wavelet(WholeExtent=[-20, 20, -20, 20, -20, 20]), view)


def render(representation, name, **properties):
    rep.SetRepresentationType(representation)
    ColorBy(rep, ("POINTS", "RTData"))
    GetOpacityTransferFunction("RTData").Points = [120.0, 0.0, 0.5, 0.0, 260.0, 0.6, 0.5, 0.0]
    rep.Shade = 1
    for key, value in properties.items():
        setattr(rep, key, value)
    view.CameraPosition = [60, 40, 70]
    view.CameraFocalPoint = [0, 0, 0]
    view.CameraViewUp = [0, 1, 0]
    view.ResetCamera()
    path = os.path.join(args.output, "TestCudaVolumeJittering-%s.png" % name)
    SaveScreenshot(path, view)
    return read_png(path)


stock = render("Volume", "stock")
ok &= check(rep.GetPropertyValue("CudaUseJittering") == 0, "CudaUseJittering is on by default")
plain = render("CUDA Volume", "cuda-plain")
jittered = render("CUDA Volume", "cuda-jittered", CudaUseJittering=1)
print("CUDA Volume jittered: %.3f levels from the stock Volume; not jittered: %.3f"
      % (apart(stock, jittered), apart(stock, plain)))
ok &= check(apart(stock, jittered) <= 0.01, "jittered, CUDA Volume does not draw the stock image")
ok &= check(apart(stock, plain) > 0.05, "the scene does not show jittering")
finish(ok)
