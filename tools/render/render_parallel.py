# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""A large volume over MPI ranks, one GPU a rank: frame times and scaling.

    mpiexec -np R pvbatch render_parallel.py --plugin CudaVolumeMapper.so
        --input ch2better.nii.gz --image OUT.png [--size 2048] [--frames 8]
        [--view-size 1024] [--compare-to ONE_RANK.png] [--backend CUDA|CPU|Auto]
        [--budget-mib MiB] [--brick-size N] [--strategy Auto|Standard|...]
        [--resize Linear|Nearest]

The volume is the input (a NIfTI file) resized to SIZE³ uint8 voxels with
linear (or nearest) interpolation, made piece by piece: each rank computes only its own
sub-extent, as ParaView's pipeline asks, so no rank holds the whole. It is
shown with the CUDA Volume representation and ParaView composites the ranks'
images (IceT). Printed: each rank's statistics of the last frame (its device
among them; rank 0 gathers them); then the first render, and the median of
the frames that follow (the camera turning 10 degrees a frame, after
--warmup frames while AUTO tunes) against the slowest rank's mapper time, the
rest being ParaView's compositing and its pipeline. With --compare-to, the
image is compared with another (the 1-rank image) by the MPI test's bounds.
--budget-mib sets each rank's device memory budget (CudaMemoryBudget): a
piece larger than it renders from bricks streamed through a cache of that
size, so a volume larger than one GPU's memory (or budget) renders on one
or several GPUs."""
import argparse
import builtins  # paraview.simple's * brings a max() of its own
import os
import statistics
import time

p = argparse.ArgumentParser()
p.add_argument("--plugin", required=True)
p.add_argument("--input", required=True)
p.add_argument("--image", required=True)
p.add_argument("--size", type=int, default=2048)
p.add_argument("--frames", type=int, default=8)
p.add_argument("--warmup", type=int, default=16, help="frames first, untimed (AUTO tunes)")
p.add_argument("--view-size", type=int, default=1024)
p.add_argument("--compare-to")
p.add_argument("--backend", default="CUDA", choices=["Auto", "CUDA", "CPU"])
p.add_argument("--budget-mib", type=float, default=0.0,
               help="each rank's device memory budget (0: the device's free memory)")
p.add_argument("--brick-size", type=int, default=0, help="CudaBrickSize (0: its default)")
p.add_argument("--strategy", default="Auto")
p.add_argument("--resize", default="Linear", choices=["Linear", "Nearest"],
               help="the interpolation that makes the volume (Nearest: about 2.5 times faster)")
args = p.parse_args()

from paraview.simple import *  # noqa: E402,F401,F403
from paraview import servermanager  # noqa: E402

pm = servermanager.vtkProcessModule.GetProcessModule()
ranks = pm.GetNumberOfLocalPartitions()
LoadPlugin(args.plugin, remote=False, ns=globals())

# the input is small: its lattice is read here once, and every rank reads its
# values and resizes only its own extent
from vtkmodules.vtkIOImage import vtkNIFTIImageReader  # noqa: E402

header = vtkNIFTIImageReader()
header.SetFileName(args.input)
header.UpdateInformation()
dims = header.GetDataExtent()[1::2]
spacing = header.GetDataSpacing()
n = args.size
new_spacing = [spacing[i] * dims[i] / (n - 1) for i in range(3)]
information = """
from paraview import util
from vtkmodules.vtkCommonExecutionModel import vtkAlgorithm
from vtkmodules.vtkCommonDataModel import vtkDataObject
util.SetOutputWholeExtent(self, [0, %d, 0, %d, 0, %d])
info = self.GetOutputInformation(0)
info.Set(vtkDataObject.SPACING(), %r, %r, %r)
info.Set(vtkDataObject.ORIGIN(), 0.0, 0.0, 0.0)
info.Set(vtkAlgorithm.CAN_PRODUCE_SUB_EXTENT(), 1)
""" % (n - 1, n - 1, n - 1, *new_spacing)
data = """
import os
from vtkmodules.vtkCommonCore import vtkDataArray, vtkInformationVector, vtkMultiThreader
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline as sddp
from vtkmodules.vtkImagingCore import vtkImageInterpolator, vtkImageResize
from vtkmodules.vtkIOImage import vtkNIFTIImageReader
from vtkmodules.vtkParallelCore import vtkMultiProcessController
from vtkmodules.util.numpy_support import vtk_to_numpy
reader = vtkNIFTIImageReader()
reader.SetFileName(%r)
extent = self.GetOutputInformation(0).Get(sddp.UPDATE_EXTENT())
interpolator = vtkImageInterpolator()
interpolator.SetInterpolationModeTo%s()
ranks = vtkMultiProcessController.GetGlobalController().GetNumberOfProcesses()
vtkMultiThreader.SetGlobalMaximumNumberOfThreads(0)  # (ParaView's is 1)
resize = vtkImageResize()
resize.SetNumberOfThreads(os.cpu_count() // ranks or 1)
resize.SetInputConnection(reader.GetOutputPort())
resize.SetOutputDimensions(%d, %d, %d)
resize.SetInterpolator(interpolator)
resize.UpdateExtent(extent)
out = self.GetOutput()
out.ShallowCopy(resize.GetOutput())
out.SetOrigin(0.0, 0.0, 0.0)
out.SetSpacing(%r, %r, %r)
scalars = out.GetPointData().GetScalars()
scalars.SetName("intensity")
# ParaView's Show scans the ranges of what it shows, with VTK 9.2's one-thread
# GetRange at about 40 ns a voxel (minutes at 2048^3); numpy's scan, put where
# VTK keeps a range it computed, makes that scan a lookup
values = vtk_to_numpy(scalars)
low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 0.0)
info = scalars.GetInformation()
for key in (vtkDataArray.PER_COMPONENT(), vtkDataArray.PER_FINITE_COMPONENT()):
    ranges = vtkInformationVector()
    ranges.SetNumberOfInformationObjects(1)
    ranges.GetInformationObject(0).Set(vtkDataArray.COMPONENT_RANGE(), (low, high), 2)
    info.Set(key, ranges)
info.Set(vtkDataArray.L2_NORM_RANGE(), (low, high), 2)
info.Set(vtkDataArray.L2_NORM_FINITE_RANGE(), (low, high), 2)
""" % (args.input, args.resize, n, n, n, *new_spacing)
start = time.perf_counter()
resized = ProgrammableSource(OutputDataSetType="vtkImageData", Script=data,
                            ScriptRequestInformation=information)
resized.UpdatePipeline()
made = time.perf_counter()
view = CreateRenderView()
view.ViewSize = [args.view_size, args.view_size]
view.OrientationAxesVisibility = 0
rep = Show(resized, view)
rep.Representation = "CUDA Volume"
ColorBy(rep, ("POINTS", "intensity"))
rep.CudaBackend = args.backend
rep.CudaMemoryBudget = args.budget_mib
rep.CudaStrategy = args.strategy
if args.brick_size:
    rep.CudaBrickSize = args.brick_size
lut = GetColorTransferFunction("intensity")
lut.RGBPoints = [40, 0.35, 0.12, 0.05, 90, 0.68, 0.32, 0.16, 140, 1.0, 0.92, 0.95]
pwf = GetOpacityTransferFunction("intensity")
pwf.Points = [40, 0.0, 0.5, 0.0, 140, 0.35, 0.5, 0.0]
rep.Shade = 1
view.CameraViewUp = [0, 0, 1]
view.CameraPosition = [0, -1, 0.3]
view.CameraFocalPoint = [0, 0, 0]
view.ResetCamera()
shown = time.perf_counter()
Render(view)
first = time.perf_counter() - start
steps = "making the volume %.2f s, showing it %.2f s, the first render %.2f s" % (
    made - start, shown - made, first - (shown - start))


def frame_statistics():
    """The last frame's statistics, a line a rank ("rank R: ..." with several)."""
    rep.UpdatePropertyInformation()
    return (rep.GetPropertyValue("CudaLastFrameStatistics") or "").splitlines()


def mapper_ms(line):
    """The mapper's own frame time in a line ("... 16x16: 12.34 ms, ...")."""
    try:
        return float(line.split(" ms")[0].rsplit(" ", 1)[-1])
    except ValueError:
        return 0.0


# the first frame's own share of the first render: each rank's upload
# ("sent to the backend first") and ray casting; the rest is ParaView's
for line in frame_statistics():
    print("first frame: " + (line if line.startswith("rank") else "rank 0: " + line), flush=True)
camera = GetActiveCamera()
times, slowest = [], []
for frame in range(args.warmup + args.frames):
    camera.Azimuth(10.0)
    start = time.perf_counter()
    Render(view)
    if frame < args.warmup:
        continue
    times.append(time.perf_counter() - start)
    # the slowest rank's mapper time bounds the frame; the rest is ParaView's
    slowest.append(builtins.max([mapper_ms(line) for line in frame_statistics()] or [0.0]))
for line in frame_statistics():
    print(line if line.startswith("rank") else "rank 0: " + line, flush=True)
SaveScreenshot(args.image, view, ImageResolution=[args.view_size, args.view_size])
frame_ms, mapper = 1000.0 * statistics.median(times), statistics.median(slowest)
budget = "%g MiB a rank" % args.budget_mib if args.budget_mib > 0 else "the device's free memory"
print("frames: %d ranks, %d³ uint8 (%.1f GiB), budget %s, %d² image: first render %.2f s (making the volume, "
      "showing it, upload, first frame); then %.1f ms a frame (median of %d), the slowest rank's mapper "
      "%.1f ms, compositing and the rest %.1f ms" % (
          ranks, args.size, args.size ** 3 / 2.0 ** 30, budget, args.view_size, first, frame_ms, len(times), mapper,
          frame_ms - mapper), flush=True)
print("first: %s" % steps, flush=True)
if args.compare_to and not os.path.exists(args.compare_to):
    print("compare: %s not found, nothing compared" % args.compare_to)
elif args.compare_to:
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy

    def load(path):
        reader = vtkPNGReader()
        reader.SetFileName(path)
        reader.Update()
        w, h, _ = reader.GetOutput().GetDimensions()
        scalars = reader.GetOutput().GetPointData().GetScalars()
        return vtk_to_numpy(scalars).reshape(h, w, -1)[:, :, :3].astype(int)

    one, this = load(args.compare_to), load(args.image)
    diff = abs(one - this).max(axis=2)
    mean, over = abs(one - this).mean(), (diff > 8).mean()
    seam = builtins.max((diff > 8).mean(axis=0).max(), (diff > 8).mean(axis=1).max())
    good = mean <= 0.5 and over <= 0.005 and seam <= 0.05
    print("compare: %d ranks vs %s: mean %.3f levels, %.3f%% of pixels over 8 levels, worst "
          "row/column %.2f%%: %s" % (ranks, args.compare_to, mean, 100 * over, 100 * seam,
                                     "within the MPI bounds" if good else "OUTSIDE"))
