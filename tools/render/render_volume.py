# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Renders a NIfTI volume through the CudaVolumeMapper ParaView plugin in
pvbatch and saves the image: the main job.

    pvbatch render_volume.py --plugin CudaVolumeMapper.so INPUT.nii[.gz] OUTPUT.png
        [--size 768] [--azimuth 210] [--elevation 20] [--backend Auto|CUDA|CPU]
        [--resample N]

The volume is read with VTK's vtkNIFTIImageReader (ParaView's own readers do
not open .nii.gz) and shown with the CUDA Volume representation; NIfTI's
superior axis (z) is up. Opacity rises between the 50th and 99.5th
percentiles of the non-background voxels. --resample N renders the volume
resized to N x N x N voxels (linear interpolation), a large volume from a
real one. Printed: the time Show and ColorBy took (ParaView's data
information: it scans the scalars' ranges, on as many threads as VTK's SMP
backend uses), the first render's (ParaView's pipeline, the upload and the
frame) with the first frame's statistics, and the next render's."""
import argparse
import os
import time

p = argparse.ArgumentParser()
p.add_argument("--plugin", required=True)
p.add_argument("input")
p.add_argument("output")
p.add_argument("--size", type=int, default=768)
p.add_argument("--azimuth", type=float, default=210.0)
p.add_argument("--elevation", type=float, default=20.0)
p.add_argument("--backend", default="Auto", choices=["Auto", "CUDA", "CPU"])
p.add_argument("--resample", type=int, default=0, help="render at N x N x N voxels")
args = p.parse_args()

from paraview.simple import *  # noqa: E402,F401,F403
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402
from vtkmodules.vtkIOImage import vtkNIFTIImageReader  # noqa: E402

LoadPlugin(args.plugin, remote=False, ns=globals())
reader = vtkNIFTIImageReader()
reader.SetFileName(args.input)
reader.Update()
image = reader.GetOutput()
scalars = image.GetPointData().GetScalars()
scalars.SetName("intensity")
values = vtk_to_numpy(scalars)
low = float(values.min())
foreground = values[values > low]
lo, hi = (float(x) for x in (foreground.min(), foreground.max())) if foreground.size else (low, low + 1)
if foreground.size:
    import numpy
    lo, hi = (float(v) for v in numpy.percentile(foreground, [50.0, 99.5]))

if args.resample > 0:
    from vtkmodules.vtkImagingCore import vtkImageResize

    from vtkmodules.vtkCommonCore import vtkMultiThreader

    vtkMultiThreader.SetGlobalMaximumNumberOfThreads(0)  # (ParaView's is 1)
    resize = vtkImageResize()
    resize.SetNumberOfThreads(os.cpu_count())
    resize.SetInputData(image)
    resize.SetOutputDimensions(args.resample, args.resample, args.resample)
    resize.Update()
    image = resize.GetOutput()
    image.GetPointData().GetScalars().SetName("intensity")

source = TrivialProducer(registrationName="volume")
source.GetClientSideObject().SetOutput(image)
from vtkmodules.vtkCommonCore import vtkSMPTools  # noqa: E402

view = CreateRenderView()
view.ViewSize = [args.size, args.size]
view.OrientationAxesVisibility = 0
start = time.perf_counter()
rep = Show(source, view)
rep.Representation = "CUDA Volume"
ColorBy(rep, ("POINTS", "intensity"))
shown = time.perf_counter() - start
rep.CudaBackend = args.backend
lut = GetColorTransferFunction("intensity")
lut.RGBPoints = [lo, 0.35, 0.12, 0.05, 0.5 * (lo + hi), 0.68, 0.32, 0.16, hi, 1.0, 0.92, 0.95]
pwf = GetOpacityTransferFunction("intensity")
pwf.Points = [lo, 0.0, 0.5, 0.0, hi, 0.35, 0.5, 0.0]
rep.Shade = 1
view.CameraViewUp = [0, 0, 1]
view.CameraPosition = [0, -1, 0]
view.CameraFocalPoint = [0, 0, 0]
view.ResetCamera()
camera = GetActiveCamera()
camera.Azimuth(args.azimuth - 180.0)
camera.Elevation(args.elevation)
view.ResetCamera()
start = time.perf_counter()
Render(view)
first = time.perf_counter() - start
rep.UpdatePropertyInformation()
first_frame = rep.GetPropertyValue("CudaLastFrameStatistics")
start = time.perf_counter()
Render(view)
print("showing it %.3f s (ParaView's data information; VTK's SMP backend %s, %d threads)"
      % (shown, vtkSMPTools.GetBackend(), vtkSMPTools.GetEstimatedNumberOfThreads()))
print("first render %.3f s (ParaView's pipeline, the upload and the frame), next render %.3f s"
      % (first, time.perf_counter() - start))
print("first frame:", first_frame)
rep.UpdatePropertyInformation()
print("%s: %s, opacity ramp %g..%g" % (args.input, " x ".join(map(str, image.GetDimensions())), lo, hi))
print("rendered by the CUDA Volume representation:", rep.GetPropertyValue("CudaLastFrameStatistics"))
SaveScreenshot(args.output, view, ImageResolution=[args.size, args.size])
print("saved", args.output)
