# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Shared by the pvpython/pvbatch tests: arguments, the plugin, image checks."""
import argparse
import os
import sys

SKIP = 125  # ctest's SKIP_RETURN_CODE


def arguments():
    p = argparse.ArgumentParser()
    p.add_argument("--plugin", required=True)
    p.add_argument("--data", required=True, help="the shared data directory")
    p.add_argument("--baseline", help="the baseline image")
    p.add_argument("--output", required=True, help="where the test writes its images")
    return p.parse_args()


def data_file(args, relative):
    path = os.path.join(args.data, relative)
    if not os.path.exists(path):
        print("data file %s not found: test skipped" % relative)
        sys.exit(SKIP)
    return path


def load_plugin(args):
    from paraview.simple import LoadPlugin
    LoadPlugin(args.plugin, remote=False, ns=globals())


def compare_with_baseline(image_path, baseline, threshold=10.0):
    """VTK's regression comparison (vtkTesting) of a screenshot with its
    baseline; returns whether they match. Without a baseline the image is
    kept for review and the check fails."""
    from paraview.vtk.util.misc import vtkGetTempDir  # noqa: F401 (loads vtk)
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.vtkTestingRendering import vtkTesting
    if not baseline or not os.path.exists(baseline):
        print("no baseline %s: %s kept for review" % (baseline, image_path))
        return False
    reader = vtkPNGReader()
    reader.SetFileName(image_path)
    testing = vtkTesting()
    for a in ("-V", baseline, "-T", os.path.dirname(image_path)):
        testing.AddArgument(a)
    return testing.RegressionTest(reader, threshold) == vtkTesting.PASSED


def vase_scene(args):
    """VTK's vase (vase_1comp.vti) shown as CUDA Volume in a 300 x 300 view
    with no axes: Cool to Warm colours, opacity 0 up to 60 and rising to 0.6
    at 255 (unit distance 2), shaded, seen from below the rim. Returns the
    source, the view and the representation."""
    from paraview.simple import (ColorBy, CreateRenderView, GetColorTransferFunction,
                                 GetOpacityTransferFunction, Show, XMLImageDataReader)
    source = XMLImageDataReader(FileName=[data_file(args, "vtk/vase_1comp.vti")])
    view = CreateRenderView()
    view.ViewSize = [300, 300]
    view.OrientationAxesVisibility = 0
    view.Background = [0.1, 0.1, 0.15]
    rep = Show(source, view)
    rep.Representation = "CUDA Volume"
    ColorBy(rep, ("POINTS", "SLCImage"))
    GetColorTransferFunction("SLCImage").ApplyPreset("Cool to Warm", True)
    GetOpacityTransferFunction("SLCImage").Points = [0, 0, 0.5, 0, 60, 0, 0.5, 0,
                                                     255, 0.6, 0.5, 0]
    rep.ScalarOpacityUnitDistance = 2.0
    rep.Shade = 1
    view.CameraPosition = [57, -300, 200]
    view.CameraFocalPoint = [57, 50, 37]
    view.CameraViewUp = [0, 0, 1]
    return source, view, rep


def wavelet_scene(representation="CUDA Volume"):
    """The Wavelet (96^3) in a 320 x 320 view with no axes: Cool to Warm
    colours over 40..270, opacity rising to 0.4, samples every 0.5 voxel, seen
    from (180, 120, 240); the scene of the MPI and client-server tests.
    Returns the view and the representation."""
    from paraview.simple import (ColorBy, CreateRenderView, GetColorTransferFunction,
                                 GetOpacityTransferFunction, Show, Wavelet)
    wavelet = Wavelet(WholeExtent=[-48, 47, -48, 47, -48, 47])
    view = CreateRenderView()
    view.ViewSize = [320, 320]
    view.OrientationAxesVisibility = 0
    rep = Show(wavelet, view)
    rep.Representation = representation
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
    return view, rep


def read_png(path):
    """A screenshot read back as vtkImageData."""
    from vtkmodules.vtkIOImage import vtkPNGReader
    reader = vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def pixels_apart(a, b):
    """Pixels of two screenshots with a channel more than 8 levels apart."""
    sa, sb = a.GetPointData().GetScalars(), b.GetPointData().GetScalars()
    n = sa.GetNumberOfComponents()
    return sum(1 for i in range(sa.GetNumberOfTuples())
               if max(abs(sa.GetValue(n * i + c) - sb.GetValue(n * i + c)) for c in range(3)) > 8)


def mean_apart(a, b):
    """The mean RGB difference of two screenshots, in levels."""
    sa, sb = a.GetPointData().GetScalars(), b.GetPointData().GetScalars()
    n = sa.GetNumberOfComponents()
    total = sum(abs(sa.GetValue(n * i + c) - sb.GetValue(n * i + c))
                for i in range(sa.GetNumberOfTuples()) for c in range(3))
    return total / (3.0 * sa.GetNumberOfTuples())


def shown(image):
    """Pixels more than 8 levels away from the background (the corner's)."""
    s = image.GetPointData().GetScalars()
    n = s.GetNumberOfComponents()
    return sum(1 for i in range(s.GetNumberOfTuples())
               if max(abs(s.GetValue(n * i + c) - s.GetValue(c)) for c in range(3)) > 8)


def check(condition, message):
    if not condition:
        print("check failed:", message)
    return condition


def finish(ok):
    """Ends a test that rendered. pvbatch 5.11 tears the GL context down badly
    on sys.exit() after a volume render (an X error, exit code 1, with VTK's
    own mapper too), so success ends the script normally and failure raises."""
    if not ok:
        raise RuntimeError("test failed")
    print("passed")
