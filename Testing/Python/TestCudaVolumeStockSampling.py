# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""CUDA Volume's default sampling is the stock Volume's: an opaque Wavelet
(21^3, where VTK's spacing-adjusted distance is 0.104 voxel) drawn by "CUDA
Volume" with its defaults against the stock "Volume" drawn by VTK's mapper
(run with CVR_OVERRIDE_GPU_VOLUME_MAPPER=0). On an opaque face a pixel is
its ray's first sample, so the sample distance shows directly: sampled at a
voxel (Auto Sample Distance off, Sample Distance 1, what "Auto" meant
before) the image is several levels away."""
import os

from cvr_pvtest import arguments, check, finish, load_plugin, mean_apart as apart, pixels_apart
from cvr_pvtest import read_png

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403

load_plugin(args)
ok = check(os.environ.get("CVR_OVERRIDE_GPU_VOLUME_MAPPER") == "0",
           "run with CVR_OVERRIDE_GPU_VOLUME_MAPPER=0 (the stock Volume through VTK's mapper)")

view = CreateRenderView()
view.ViewSize = [300, 300]
view.OrientationAxesVisibility = 0
rep = Show(Wavelet(), view)
ColorBy(rep, ("POINTS", "RTData"))
GetColorTransferFunction("RTData").RescaleTransferFunction(37.0, 277.0)
GetOpacityTransferFunction("RTData").Points = [37.0, 1.0, 0.5, 0.0, 277.0, 1.0, 0.5, 0.0]
view.CameraPosition = [30, 20, 40]
view.CameraFocalPoint = [0, 0, 0]
view.CameraViewUp = [0, 1, 0]


def render(representation, name, **properties):
    rep.SetRepresentationType(representation)
    ColorBy(rep, ("POINTS", "RTData"))
    for key, value in properties.items():
        setattr(rep, key, value)
    view.ResetCamera()
    path = os.path.join(args.output, "TestCudaVolumeStockSampling-%s.png" % name)
    SaveScreenshot(path, view)
    return read_png(path)


stock = render("Volume", "stock")
ours = render("CUDA Volume", "cuda-default")
voxel = render("CUDA Volume", "cuda-voxel", CudaAutoAdjustSampleDistances=0, CudaSampleDistance=1.0)
pixels = 300 * 300
print("CUDA Volume's defaults: %.2f levels from the stock Volume, %.2f%% of pixels over 8"
      % (apart(stock, ours), 100.0 * pixels_apart(stock, ours) / pixels))
print("sampled at a voxel: %.2f levels, %.2f%% over 8"
      % (apart(stock, voxel), 100.0 * pixels_apart(stock, voxel) / pixels))
ok &= check(apart(stock, ours) <= 1.0 and pixels_apart(stock, ours) <= 0.02 * pixels,
            "CUDA Volume's default sampling is not the stock Volume's")
ok &= check(apart(stock, voxel) > 2.0, "the scene does not tell a voxel's sampling from VTK's")
finish(ok)
