# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Renders the Wavelet source, distributed over however many ranks pvbatch
runs on, with the CUDA Volume representation; each rank renders its piece
and ParaView composites them. Writes the image given by --image, and prints
the last frame's statistics (a line a rank, gathered by rank 0). --blend
names the representation's CudaBlendMode ("Maximum Intensity", ...)."""
import argparse

p = argparse.ArgumentParser()
p.add_argument("--plugin", required=True)
p.add_argument("--image", required=True)
p.add_argument("--blend", default="")
args = p.parse_args()

from paraview.simple import *  # noqa: E402,F401,F403
from paraview import servermanager  # noqa: E402
from cvr_pvtest import wavelet_scene  # noqa: E402

LoadPlugin(args.plugin, remote=False, ns=globals())
view, rep = wavelet_scene()
if args.blend:
    rep.CudaBlendMode = args.blend
Render(view)
SaveScreenshot(args.image, view, ImageResolution=[320, 320])
pm = servermanager.vtkProcessModule.GetProcessModule()
print("rank %d of %d rendered" % (pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()))
rep.UpdatePropertyInformation()  # gathered from every rank
print("statistics:\n%s" % rep.GetPropertyValue("CudaLastFrameStatistics"))
