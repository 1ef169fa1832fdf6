# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Volume scattering from ParaView (run with CVR_OVERRIDE_GPU_VOLUME_MAPPER=1:
the stock Volume through vtkCudaVolumeMapper on any machine). The stock
properties Volumetric Scattering Blending, Global Illumination Reach and
Volume Anisotropy reach the mapper from both representations: ParaView
hands the first two only to VTK's smart and multiblock mappers, so CUDA
Volume forwards them itself. On a shaded Wavelet each setting must change
the image, and as much in either representation. The Cuda* aliases that
show those properties for CUDA Volume in the GUI set the stock values."""
import os

from cvr_pvtest import arguments, check, finish, load_plugin, mean_apart as apart, read_png

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403

load_plugin(args)
ok = check(os.environ.get("CVR_OVERRIDE_GPU_VOLUME_MAPPER") == "1",
           "run with CVR_OVERRIDE_GPU_VOLUME_MAPPER=1 (the stock Volume through our mapper)")

view = CreateRenderView()
view.ViewSize = [200, 200]
view.OrientationAxesVisibility = 0
rep = Show(Wavelet(WholeExtent=[-15, 16, -15, 16, -15, 16]), view)


def render(representation, blending, reach=0.3, anisotropy=0.0):
    rep.SetRepresentationType(representation)
    ColorBy(rep, ("POINTS", "RTData"))
    GetOpacityTransferFunction("RTData").Points = [120.0, 0.0, 0.5, 0.0, 260.0, 0.5, 0.5, 0.0]
    rep.Shade = 1
    rep.VolumetricScatteringBlending = blending
    rep.GlobalIlluminationReach = reach
    rep.VolumeAnisotropy = anisotropy
    view.CameraPosition = [60, 40, 70]
    view.CameraFocalPoint = [0, 0, 0]
    view.CameraViewUp = [0, 1, 0]
    view.ResetCamera()
    path = os.path.join(args.output, "TestCudaVolumeScatteringRepresentation-%s-%g-%g-%g.png"
                        % (representation.replace(" ", ""), blending, reach, anisotropy))
    SaveScreenshot(path, view)
    return read_png(path)


changes = {}
for name in ("Volume", "CUDA Volume"):
    plain, scattered = render(name, 0.0), render(name, 1.0)
    reach, turned = render(name, 1.0, reach=0.0), render(name, 1.0, anisotropy=0.6)
    changes[name] = (apart(plain, scattered), apart(scattered, reach), apart(scattered, turned))
    print("%s: blending 0 to 1 changes %.2f levels, reach 0.3 to 0 %.2f, anisotropy 0 to 0.6 %.2f"
          % ((name,) + changes[name]))
    ok &= check(min(changes[name]) > 1.0, "%s ignored a scattering property" % name)
# The stock Volume samples as vtkSmartVolumeMapper asks, finer than CUDA
# Volume's default, and a shadow ray starts a sample away: their scattered
# images differ (2.3 levels, 0.4 without scattering), so what each setting
# changes is compared.
for i, what in enumerate(("blending", "reach", "anisotropy")):
    a, b = changes["Volume"][i], changes["CUDA Volume"][i]
    ok &= check(abs(a - b) <= 0.25 * a, "%s changes the two representations' images unlike "
                "(%.2f against %.2f levels)" % (what, a, b))
# ParaView's panel shows its Volume Rendering group for Volume alone; CUDA
# Volume shows the same properties as Cuda* aliases, which set the stock ones
rep.SetRepresentationType("CUDA Volume")
for alias, value in (("CudaShade", 0), ("CudaVolumetricScatteringBlending", 0.7),
                     ("CudaGlobalIlluminationReach", 0.2), ("CudaVolumeAnisotropy", -0.3),
                     ("CudaScalarOpacityUnitDistance", 2.5), ("CudaShade", 1)):
    rep.SetPropertyWithName(alias, value)
    stock = rep.GetPropertyValue(alias[4:])
    ok &= check(abs(stock - value) < 1e-6, "%s = %g left %s at %g" % (alias, value, alias[4:], stock))
finish(ok)
