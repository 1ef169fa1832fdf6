# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Whether the stock Volume representation renders through vtkCudaVolumeMapper
(the factory override the plugin turns on when loaded) follows the machine:
with a CUDA device it does, without one VTK's mapper stays, since its OpenGL
path outruns the CPU backend (Mesa included). Run without
CVR_OVERRIDE_GPU_VOLUME_MAPPER, which decides instead where it is set.
CUDA Volume renders either way. The frame times of both are printed (said,
not asserted: speed is the benchmark's business)."""
import os
import time

from cvr_pvtest import arguments, check, finish, load_plugin

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403

load_plugin(args)
ok = check(not os.environ.get("CVR_OVERRIDE_GPU_VOLUME_MAPPER"),
           "run without CVR_OVERRIDE_GPU_VOLUME_MAPPER")

source = Wavelet()
source.WholeExtent = [-40, 40, -40, 40, -40, 40]
view = CreateRenderView()
view.ViewSize = [400, 400]
rep = Show(source, view)
rep.SetRepresentationType("CUDA Volume")
rep.Shade = 1


def frame():
    start = time.time()
    Render(view)
    rep.UpdatePropertyInformation()
    return time.time() - start, rep.GetPropertyValue("CudaFramesRendered")


seconds, frames = frame()
statistics = rep.GetPropertyValue("CudaLastFrameStatistics")
device = " on CPU" not in statistics
print("CUDA Volume: %.3f s, %s" % (seconds, statistics))
ok &= check(frames > 0, "CUDA Volume rendered no frame")

rep.Representation = "Volume"
seconds, after = frame()
print("stock Volume: %.3f s; vtkCudaVolumeMapper's frames %d before it, %d after"
      % (seconds, frames, after))
if device:
    ok &= check(after > frames, "with a CUDA device the stock Volume did not render through it")
else:
    ok &= check(after == frames, "without a CUDA device the stock Volume rendered through "
                "vtkCudaVolumeMapper's CPU backend instead of VTK's mapper")
finish(ok)
