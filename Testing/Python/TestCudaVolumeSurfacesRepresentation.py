# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Isosurface and slice blending in the CUDA Volume representation from
ParaView's inputs: the stock Blend Mode with its Isosurfaces, and the CUDA
Volume group's own Blend Mode, Isosurfaces and Slice Plane (the plane
widget's proxy, Offset included; the stock panel hides its inputs for this
representation). Each input changes what is drawn, both routes render the
same image, ours win over the stock ones whatever the order they are set in,
and the isosurface and slice images match their baselines."""
import os

from cvr_pvtest import (arguments, check, compare_with_baseline, finish, load_plugin, pixels_apart,
                        read_png, shown, vase_scene)

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403

load_plugin(args)
# its opacity (at most 0.6) leaves the surfaces semi-transparent: an inner one shows through
source, view, rep = vase_scene(args)
rep.CudaStrategy = "Standard"
bounds = source.GetDataInformation().GetBounds()
center = [0.5 * (bounds[2 * a] + bounds[2 * a + 1]) for a in range(3)]


def shot(name):
    """A screenshot of the view, read back as image data."""
    Render(view)
    path = os.path.join(args.output, "TestCudaVolumeSurfacesRepresentation-%s.png" % name)
    SaveScreenshot(path, view, ImageResolution=[300, 300])
    return path, read_png(path)


def baseline(name):
    stem, ext = os.path.splitext(args.baseline)
    return "%s-%s%s" % (stem, name, ext)


def statistics():
    rep.UpdatePropertyInformation()
    return rep.GetPropertyValue("CudaLastFrameStatistics")


ok = True
# composite, for reference
composite_path, composite = shot("Composite")

# isosurfaces from the stock Blend Mode and its Isosurfaces
rep.BlendMode = "Isosurface"
rep.IsosurfaceValues = [100.0]
iso_path, iso = shot("Isosurface")
stats = statistics()
print("isosurface 100:", stats, "|", shown(iso), "pixels shown")
ok &= check(" 0 samples" not in stats, "isosurface: no samples (%s)" % stats)
ok &= check(shown(iso) > 5000, "isosurface 100: %d pixels shown" % shown(iso))
ok &= check(pixels_apart(iso, composite) > 2000, "the isosurface renders as composite (%d pixels "
            "apart)" % pixels_apart(iso, composite))
ok &= check(compare_with_baseline(iso_path, baseline("Isosurface")),
            "isosurface image differs from its baseline")
rep.IsosurfaceValues = [100.0, 200.0]
_, two = shot("Isosurface2")
ok &= check(pixels_apart(iso, two) > 300, "a second iso value changes %d pixels"
            % pixels_apart(iso, two))
rep.IsosurfaceValues = [150.0]
_, other = shot("Isosurface150")
ok &= check(pixels_apart(iso, other) > 300, "another iso value changes %d pixels"
            % pixels_apart(iso, other))

# the same through CudaBlendMode and CudaIsosurfaceValues, which take over
# from the stock values
rep.IsosurfaceValues = [150.0]
rep.BlendMode = "Composite"
rep.CudaBlendMode = "Isosurface"
rep.CudaIsosurfaceValues = [100.0]
_, cuda_iso = shot("CudaIsosurface")
ok &= check(pixels_apart(iso, cuda_iso) == 0, "CudaBlendMode and CudaIsosurfaceValues differ from "
            "the stock route in %d pixels" % pixels_apart(iso, cuda_iso))
rep.CudaIsosurfaceValues = []  # the stock values again
_, stock_values = shot("CudaIsosurfaceStockValues")
ok &= check(pixels_apart(other, stock_values) == 0, "without CudaIsosurfaceValues the stock ones "
            "do not apply (%d pixels apart)" % pixels_apart(other, stock_values))

# CudaBlendMode other than composite wins whatever the order
rep.CudaBlendMode = "Maximum Intensity"
_, mip = shot("Maximum")
rep.BlendMode = "Slice"  # set after it: must not take over
_, mip_after = shot("MaximumAfterStock")
ok &= check(pixels_apart(mip, mip_after) == 0 and pixels_apart(mip, composite) > 2000,
            "the stock mode set last took over from CudaBlendMode (%d pixels apart)"
            % pixels_apart(mip, mip_after))

# the slice plane from the Slice Plane, facing the camera, through the
# CUDA Volume group's Blend Mode and the stock one
rep.CudaBlendMode = "Slice"
plane = rep.CudaSliceFunction
plane.Origin = center
plane.Normal = [0.0, 1.0, 0.0]
plane.Offset = 0.0
_, cuda_slice = shot("CudaSlice")
rep.CudaBlendMode = "Composite"  # the stock mode, Slice, again
slice_path, middle = shot("Slice")
print("slice through the centre:", statistics(), "|", shown(middle), "pixels shown")
ok &= check(shown(middle) > 1500, "slice: %d pixels shown" % shown(middle))
ok &= check(compare_with_baseline(slice_path, baseline("Slice")),
            "slice image differs from its baseline")
ok &= check(pixels_apart(middle, cuda_slice) == 0, "the stock Blend Mode's slice differs from "
            "CudaBlendMode's in %d pixels" % pixels_apart(middle, cuda_slice))
moved_origin = [center[0], center[1] + 15.0, center[2]]
plane.Origin = moved_origin
_, moved = shot("SliceMoved")
ok &= check(pixels_apart(middle, moved) > 500, "moving the slice plane changes %d pixels"
            % pixels_apart(middle, moved))
# the widget's Offset moves the plane along its normal, as moving the origin
plane.Origin = center
plane.Offset = 15.0
_, offset = shot("SliceOffset")
print("slice offset 15 against origin moved by 15: %d pixels apart" % pixels_apart(moved, offset))
ok &= check(pixels_apart(moved, offset) <= 10, "the Offset is not the moved plane (%d pixels "
            "apart)" % pixels_apart(moved, offset))
plane.Offset = 0.0
plane.Normal = [0.0, 0.0, 1.0]
_, turned = shot("SliceTurned")
ok &= check(pixels_apart(middle, turned) > 500, "turning the slice plane changes %d pixels"
            % pixels_apart(middle, turned))
finish(ok)
