# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Use Separate Opacity Array (luminance + alpha: colour from the colour
array, opacity from another) against the stock Volume representation drawn
by VTK's mapper (run with CVR_OVERRIDE_GPU_VOLUME_MAPPER=0). With the
representation's Scalar Opacity Unit Distance at 1 the two images agree.
VTK's mapper corrects the opacity with the unit distance of the last
component, which ParaView never sets (1), so it ignores the representation's
value; CUDA Volume applies it: at a unit distance of 2 only ours turns more
transparent (doc/paraview.md says so)."""
import os

from cvr_pvtest import arguments, check, finish, load_plugin, mean_apart as apart, read_png

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403

load_plugin(args)
ok = check(os.environ.get("CVR_OVERRIDE_GPU_VOLUME_MAPPER") == "0",
           "run with CVR_OVERRIDE_GPU_VOLUME_MAPPER=0 (the stock Volume through VTK's mapper)")

source = Calculator(Input=Wavelet(), ResultArrayName="op", Function="abs(coordsX)")
view = CreateRenderView()
view.ViewSize = [300, 300]
view.OrientationAxesVisibility = 0
rep = Show(source, view)


def levels(image):
    """The mean of the image's RGB values."""
    s = image.GetPointData().GetScalars()
    n = s.GetNumberOfComponents()
    values = [s.GetValue(n * i + c) for i in range(s.GetNumberOfTuples()) for c in range(3)]
    return sum(values) / len(values)


def render(representation, unit_distance):
    rep.SetRepresentationType(representation)
    ColorBy(rep, ("POINTS", "RTData"))
    rep.UseSeparateOpacityArray = 1
    rep.OpacityArrayName = ["POINTS", "op"]
    # the same opacity map for both, over the opacity array's values
    rep.ScalarOpacityFunction.Points = [0.0, 0.0, 0.5, 0.0, 40.0, 0.6, 0.5, 0.0]
    rep.ScalarOpacityUnitDistance = unit_distance
    rep.Shade = 1
    view.CameraPosition = [60, 40, 70]
    view.CameraFocalPoint = [0, 0, 0]
    view.CameraViewUp = [0, 1, 0]
    view.ResetCamera()
    path = os.path.join(args.output, "TestCudaVolumeSeparateOpacity-%s-%g.png"
                        % (representation.replace(" ", ""), unit_distance))
    SaveScreenshot(path, view)
    return read_png(path)


stock1, ours1 = render("Volume", 1.0), render("CUDA Volume", 1.0)
stock2, ours2 = render("Volume", 2.0), render("CUDA Volume", 2.0)
d1 = apart(stock1, ours1)
print("unit distance 1: CUDA Volume %.2f levels from the stock Volume (means %.1f, %.1f)"
      % (d1, levels(ours1), levels(stock1)))
ok &= check(d1 <= 2.0, "with unit distance 1, CUDA Volume is %.2f levels from the stock Volume" % d1)
print("unit distance 2: the stock Volume moved %.2f levels (mean %.1f), CUDA Volume %.2f (mean %.1f)"
      % (apart(stock1, stock2), levels(stock2), apart(ours1, ours2), levels(ours2)))
ok &= check(apart(ours1, ours2) > 3.0 and levels(ours2) < levels(ours1),
            "CUDA Volume ignored the Scalar Opacity Unit Distance of a separate opacity array")
finish(ok)
