# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Renders the Wavelet source, distributed over however many ranks pvbatch
runs on, with the CUDA Volume representation; each rank renders its piece
and ParaView composites them. Writes the image given by --image, and prints
the last frame's statistics (a line a rank, gathered by rank 0)."""
import argparse

p = argparse.ArgumentParser()
p.add_argument("--plugin", required=True)
p.add_argument("--image", required=True)
args = p.parse_args()

from paraview.simple import *  # noqa: E402,F401,F403
from paraview import servermanager  # noqa: E402

LoadPlugin(args.plugin, remote=False, ns=globals())
wavelet = Wavelet(WholeExtent=[-48, 47, -48, 47, -48, 47])
view = CreateRenderView()
view.ViewSize = [320, 320]
view.OrientationAxesVisibility = 0
rep = Show(wavelet, view)
rep.Representation = "CUDA Volume"
ColorBy(rep, ("POINTS", "RTData"))
lut = GetColorTransferFunction("RTData")
lut.ApplyPreset("Cool to Warm", True)
lut.RescaleTransferFunction(40.0, 270.0)
pwf = GetOpacityTransferFunction("RTData")
pwf.Points = [40.0, 0.0, 0.5, 0.0, 150.0, 0.02, 0.5, 0.0, 270.0, 0.4, 0.5, 0.0]
rep.CudaAutoAdjustSampleDistances = 0
rep.CudaSampleDistance = 0.5
view.CameraPosition = [180, 120, 240]
view.CameraFocalPoint = [0, 0, 0]
view.CameraViewUp = [0, 1, 0]
Render(view)
SaveScreenshot(args.image, view, ImageResolution=[320, 320])
pm = servermanager.vtkProcessModule.GetProcessModule()
print("rank %d of %d rendered" % (pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()))
rep.UpdatePropertyInformation()  # gathered from every rank
print("statistics:\n%s" % rep.GetPropertyValue("CudaLastFrameStatistics"))
