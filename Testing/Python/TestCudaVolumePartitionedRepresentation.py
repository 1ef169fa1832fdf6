# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Partitioned image data in the CUDA Volume representation (pvbatch).

The bonsai, split into 2 x 2 x 2 partitions that share their boundary
points, and split again with one layer of ghost cells around each partition,
must render as the whole image does: within the foundation's bound between
backends (mean at most 0.05 8-bit levels, at most 0.1% of the pixels off by
more than one level). Blocks out of order, ghost layers rendered twice or a
gap at partition faces fail it. The statistics must name the 8 blocks."""
import os

from cvr_pvtest import arguments, check, compare_with_baseline, data_file, finish, load_plugin

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403

load_plugin(args)
bonsai = data_file(args, "scivis/bonsai.nii.gz")

# the same script makes the whole image and both partitionings (ParaView runs
# it where numpy's min, max and all shadow Python's: builtins says which)
SPLIT = """
import builtins
from vtkmodules.vtkCommonDataModel import vtkDataSetAttributes, vtkImageData
from vtkmodules.vtkCommonCore import vtkUnsignedCharArray
from vtkmodules.vtkIOImage import vtkNIFTIImageReader
from vtkmodules.vtkImagingCore import vtkExtractVOI
reader = vtkNIFTIImageReader()
reader.SetFileName(%r)
reader.Update()
whole = reader.GetOutput()
ghosts = %d
if %r == "whole":
    self.GetOutput().ShallowCopy(whole)
else:
    ext = whole.GetExtent()
    out = self.GetOutput()
    for b in range(8):
        core, voi = [], []
        for a in range(3):
            mid = (ext[2 * a] + ext[2 * a + 1]) // 2
            lo, hi = (mid, ext[2 * a + 1]) if (b >> a) & 1 else (ext[2 * a], mid)
            core += [lo, hi]
            voi += [builtins.max(lo - ghosts, ext[2 * a]), builtins.min(hi + ghosts, ext[2 * a + 1])]
        extract = vtkExtractVOI()
        extract.SetInputData(whole)
        extract.SetVOI(voi)
        extract.Update()
        block = vtkImageData()
        block.ShallowCopy(extract.GetOutput())
        if ghosts:
            marks = vtkUnsignedCharArray()
            marks.SetName(vtkDataSetAttributes.GhostArrayName())
            marks.SetNumberOfTuples(block.GetNumberOfCells())
            dims = [voi[2 * a + 1] - voi[2 * a] for a in range(3)]
            for c in range(block.GetNumberOfCells()):
                ijk = (c %% dims[0], (c // dims[0]) %% dims[1], c // (dims[0] * dims[1]))
                inside = builtins.all(core[2 * a] <= voi[2 * a] + ijk[a] < core[2 * a + 1] for a in range(3))
                marks.SetValue(c, 0 if inside else vtkDataSetAttributes.DUPLICATECELL)
            block.GetCellData().AddArray(marks)
        out.SetPartition(b, block)
"""


# image data needs its whole extent announced before it is requested
EXTENT = """
from paraview import util
from vtkmodules.vtkIOImage import vtkNIFTIImageReader
reader = vtkNIFTIImageReader()
reader.SetFileName(%r)
reader.UpdateInformation()
util.SetOutputWholeExtent(self, reader.GetDataExtent())
"""


def make_source(kind, ghosts=0):
    whole = kind == "whole"
    s = ProgrammableSource(OutputDataSetType="vtkImageData" if whole else "vtkPartitionedDataSet")
    s.Script = SPLIT % (bonsai, ghosts, kind)
    s.ScriptRequestInformation = EXTENT % bonsai if whole else ""
    return s


paraview.simple._DisableFirstRenderCameraReset()  # every image from the same camera
view = CreateRenderView()
view.ViewSize = [300, 300]
view.OrientationAxesVisibility = 0
view.Background = [0.1, 0.1, 0.15]
lut = GetColorTransferFunction("NIFTI")
lut.ApplyPreset("Cool to Warm", True)
lut.RescaleTransferFunction(0, 255)
pwf = GetOpacityTransferFunction("NIFTI")
pwf.Points = [0, 0, 0.5, 0, 30, 0, 0.5, 0, 180, 0.5, 0.5, 0]


def render(src, name):
    src.UpdatePipeline()  # the representation type follows the data's type
    rep = Show(src, view)
    rep.Representation = "CUDA Volume"
    ColorBy(rep, ("POINTS", "NIFTI"))
    rep.LookupTable = lut
    rep.ScalarOpacityFunction = pwf
    # ParaView's default follows the cell count, which ghost cells change
    rep.ScalarOpacityUnitDistance = 1.0
    rep.CudaAutoAdjustSampleDistances = 0
    rep.CudaSampleDistance = 0.5
    view.CameraPosition = [128 + 500, 128 - 350, 128 + 300]
    view.CameraFocalPoint = [128, 128, 128]
    view.CameraViewUp = [0, 0, 1]
    Render(view)
    rep.UpdatePropertyInformation()
    stats = rep.GetPropertyValue("CudaLastFrameStatistics")
    print("%s: %s" % (name, stats))
    path = os.path.join(args.output, "TestCudaVolumePartitionedRepresentation-%s.png" % name)
    SaveScreenshot(path, view, ImageResolution=[300, 300])
    Hide(src, view)
    return path, stats


def pixels(path):
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOImage import vtkPNGReader
    reader = vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    return vtk_to_numpy(reader.GetOutput().GetPointData().GetScalars())[:, :3].astype(int)


def close_to(path, reference, name):
    diff = abs(pixels(path) - pixels(reference))
    mean, over = diff.mean(), (diff.max(axis=1) > 1).mean()
    print("%s vs whole: mean %.3f levels, %.3f%% of the pixels over 1" % (name, mean, 100 * over))
    return check(mean <= 0.05 and over <= 0.001, "%s differs from the whole image" % name)


def main():
    # (a function: ProgrammableSource runs its scripts in this module's globals)
    whole, _ = render(make_source("whole"), "whole")
    split, stats = render(make_source("partitioned"), "partitioned")
    ok = check("8 blocks" in stats, "the statistics do not name 8 blocks: %s" % stats)
    ok &= close_to(split, whole, "partitioned")
    ghosted, stats = render(make_source("partitioned", ghosts=1), "ghosts")
    ok &= check("8 blocks" in stats, "the statistics do not name 8 blocks: %s" % stats)
    ok &= close_to(ghosted, whole, "partitioned with ghost cells")
    ok &= check(compare_with_baseline(split, args.baseline), "image differs from the baseline")
    finish(ok)


main()
