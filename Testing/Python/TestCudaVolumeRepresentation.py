# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""The CUDA Volume representation in pvbatch: every property of ours set,
shared properties of the stock Volume representation used, the statistics
reported, the image compared with its baseline; then the stock Volume
representation, which must render through vtkCudaVolumeMapper too."""
import os
import re

from cvr_pvtest import (arguments, check, compare_with_baseline, data_file, finish, load_plugin, pixels_apart,
                        read_png, shown, vase_scene)

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403

load_plugin(args)
source, view, rep = vase_scene(args)
ok = check("CUDA Volume" in rep.GetProperty("Representation").Available and
           rep.Representation == "CUDA Volume",
           "CUDA Volume is not a representation type of image data")
rep.Specular = 0.3

# every property of ours
rep.CudaBackend = "Auto"
rep.CudaDeviceIndex = 0
rep.CudaStrategy = "Block Shape"
rep.CudaHorizontalBlockSize = [64, 2]
rep.CudaVerticalBlockSize = [2, 64]
rep.CudaStrategy = "Warp Marching"
rep.CudaWarpVariant = "SBShuffle"
rep.CudaWarpWidth = "8"
rep.CudaWarpRays = [2, 2]
rep.CudaBlockWarps = [2, 4]
rep.CudaStrategy = "Slab"
rep.CudaSlabBlock = [16, 12]
rep.CudaSlabDepth = "16"
rep.CudaSlabBorder = "Gathered"
rep.CudaStrategy = "Warp Marching"
rep.CudaMemoryLayout = "Z-Order"
rep.CudaRotationPolicy = "With Hysteresis"
rep.CudaRotationHysteresis = 7.5
rep.CudaRotationTile = [16, 4]
rep.CudaBlockSize = [32, 4]
rep.CudaRaySegments = "4"
rep.CudaEarlyRayTermination = 1
rep.CudaGraphicsInterop = 1
rep.CudaTerminationOpacity = 0.98
rep.CudaAutoAdjustSampleDistances = 0
rep.CudaSampleDistance = 0.5
rep.CudaCpuThreads = 2
rep.CudaCpuTileSize = [16, 8]
rep.CudaCpuSchedule = "Static"
Render(view)
rep.UpdatePropertyInformation()
stats = rep.GetPropertyValue("CudaLastFrameStatistics")
print("last frame:", stats)
ok &= check(("cuda warp-marching 256x1 SBShuffle, warp 2x2x8, Z-order, rotation hysteresis" in stats) or
            ("cpu standard 16x8" in stats),
            "the statistics do not show the configured launch shape: %s" % stats)
ok &= check(" 0 samples" not in stats, "no samples were taken")
ok &= check("image: OpenGL interop" in stats or "image: host memory (" in stats,
            "the statistics do not say how the image reached OpenGL: %s" % stats)
image = os.path.join(args.output, "TestCudaVolumeRepresentation.png")
SaveScreenshot(image, view, ImageResolution=[300, 300])
ok &= check(compare_with_baseline(image, args.baseline), "image differs from the baseline")

# a frame that sends nothing says nothing of it
Render(view)
rep.UpdatePropertyInformation()
stats = rep.GetPropertyValue("CudaLastFrameStatistics")
ok &= check(re.search(r"; latest upload [0-9.]+ ms, [1-9][0-9]* frames? before", stats) is not None,
            "a frame that changed nothing says it sent something: %s" % stats)
# one that sends the transfer function says so
opacity = GetOpacityTransferFunction("SLCImage")
points = list(opacity.Points)
opacity.Points = points[:4] + [70, 0, 0.5, 0] + points[8:]
Render(view)
rep.UpdatePropertyInformation()
stats = rep.GetPropertyValue("CudaLastFrameStatistics")
ok &= check(re.search(r"; latest upload [0-9.]+ ms, this frame", stats) is not None,
            "a frame that sent the transfer function does not say so: %s" % stats)
opacity.Points = points

# the slab strategy's properties reach the mapper
rep.CudaStrategy = "Slab"
Render(view)
rep.UpdatePropertyInformation()
stats = rep.GetPropertyValue("CudaLastFrameStatistics")
print("slab frame:", stats)
ok &= check(("cuda slab 16x12, slab depth 16" in stats) or ("cpu standard" in stats),
            "the statistics do not show the slab configuration: %s" % stats)

# Auto (the default strategy): it says what it uses and whether it is still
# tuning; Tune Now sweeps with progress and converges the view's class; the
# table goes to the cache directory, and Reset Tuning deletes it
default = rep.GetProperty("CudaStrategy").SMProperty.GetDefaultValue(0)
ok &= check(default == 4, "the default strategy is %d, not Auto (4)" % default)
cache = os.path.join(args.output, "tuning-cache-%d" % os.getpid())
rep.CudaStrategy = "Auto"
rep.CudaTuningRepeats = 1
rep.CudaTuningPrune = 2.0
rep.CudaTuningBudget = 1.0  # no bound: the first frames measure
rep.CudaTuningCacheDirectory = cache
Render(view)
rep.UpdatePropertyInformation()
auto = rep.GetPropertyValue("CudaAutoConfiguration")
print("auto, first frame:", auto, "| tuning:", rep.GetPropertyValue("CudaAutoTuning"))
ok &= check("tuning:" in auto and rep.GetPropertyValue("CudaAutoTuning") == 1,
            "Auto does not say it is tuning: %s" % auto)
cuda_rep = rep.GetClientSideObject().GetActiveRepresentation()  # the CUDA Volume one
progress = []
cuda_rep.AddObserver("ProgressEvent", lambda obj, event: progress.append(obj.GetProgress()))
rep.SMProxy.InvokeCommand("CudaTuneNow")
Render(view)
rep.UpdatePropertyInformation()
auto = rep.GetPropertyValue("CudaAutoConfiguration")
print("auto, after Tune Now:", auto, "| progress:", ["%.2f" % f for f in progress])
ok &= check("(tuned;" in auto and rep.GetPropertyValue("CudaAutoTuning") == 0,
            "Tune Now did not converge the view's class: %s" % auto)
# (the pipeline's own updates report 0 and 1 around it, and an upload its own
# 0 to 1 before it: on CUDA, a memory layout the sweep measures; Tune Now's
# progress is the last run from 0)
tune_now = progress[len(progress) - 1 - progress[::-1].index(0.0):] if 0.0 in progress else []
sweep = [f for f in tune_now if 0.0 < f < 1.0]
ok &= check(len(sweep) >= 3 and sweep == sorted(sweep) and tune_now[-1] == 1.0,
            "Tune Now's progress: %s" % progress)
files = os.listdir(cache) if os.path.isdir(cache) else []
ok &= check(len(files) == 1 and files[0].startswith("cvr-tuning-"), "cache directory: %s" % files)
rep.SMProxy.InvokeCommand("CudaResetTuning")
Render(view)
rep.UpdatePropertyInformation()
auto = rep.GetPropertyValue("CudaAutoConfiguration")
ok &= check("tuning:" in auto and not os.listdir(cache), "after Reset Tuning: %s, %s"
            % (auto, os.listdir(cache)))

# every blend mode of vtkVolumeMapper (the stock BlendMode offers three); each
# renders, and each image differs from the others
modes = list(rep.GetProperty("CudaBlendMode").Available)
ok &= check(modes == ["Composite", "Maximum Intensity", "Minimum Intensity", "Average Intensity",
                      "Additive", "Isosurface", "Slice"], "CudaBlendMode offers %s" % modes)
rep.CudaStrategy = "Standard"
rep.CudaAverageIntensityRange = [60, 255]
shots = []
for mode in modes[:5]:
    rep.CudaBlendMode = mode
    Render(view)
    rep.UpdatePropertyInformation()
    stats = rep.GetPropertyValue("CudaLastFrameStatistics")
    print("%s: %s" % (mode, stats))
    ok &= check(" 0 samples" not in stats and "standard" in stats, "%s: %s" % (mode, stats))
    shot = os.path.join(args.output, "TestCudaVolumeRepresentation-%s.png" % mode.replace(" ", ""))
    SaveScreenshot(shot, view, ImageResolution=[300, 300])
    shots.append((mode, read_png(shot)))
for i in range(len(shots)):
    for j in range(i + 1, len(shots)):
        apart = pixels_apart(shots[i][1], shots[j][1])
        ok &= check(apart > 900, "%s and %s render alike (%d pixels apart)"
                    % (shots[i][0], shots[j][0], apart))
rep.CudaBlendMode = "Composite"


# ParaView's own cropping properties (planes = origin + data bounds * scale)
# reach the mapper: half of the volume along x is cut away, with no warning
rep.UseCropping = 1
rep.CroppingOrigin = [0, 0, 0]
rep.CroppingScale = [0.5, 1, 1]
Render(view)
shot = os.path.join(args.output, "TestCudaVolumeRepresentation-Cropped.png")
SaveScreenshot(shot, view, ImageResolution=[300, 300])
whole, cropped = shown(shots[0][1]), shown(read_png(shot))
print("cropping: %d pixels show the volume, %d without" % (cropped, whole))
ok &= check(0 < cropped < 0.8 * whole, "cropped to half: %d pixels shown, %d uncropped"
            % (cropped, whole))
rep.UseCropping = 0

# Image Sample Distance: rays every 2 pixels, a quarter of them


def rays():
    rep.UpdatePropertyInformation()
    return int(re.search(r"(\d+) rays", rep.GetPropertyValue("CudaLastFrameStatistics")).group(1))


Render(view)
every_pixel = rays()
rep.CudaImageSampleDistance = 2.0
Render(view)
every_other = rays()
print("rays: %d every pixel, %d every 2 pixels" % (every_pixel, every_other))
ok &= check(0.2 * every_pixel < every_other < 0.3 * every_pixel,
            "Image Sample Distance 2 casts %d rays, against %d" % (every_other, every_pixel))
# outside 0.1 to 100 it is refused (an error) and the distance kept: VTK's
# setter would clamp 0 to 0.1, a hundred times the rays
for refused in (0.0, -2.0):
    rep.CudaImageSampleDistance = refused
    Render(view)
    ok &= check(rays() == every_other, "Image Sample Distance %g was taken: %d rays, against %d"
                % (refused, rays(), every_other))
rep.CudaImageSampleDistance = 1.0

# Empty-space skipping: the statistics count the samples it skipped, and the
# image is the one without it (the vase's opacity is 0 up to 60)


def skipped():
    rep.UpdatePropertyInformation()
    stats = rep.GetPropertyValue("CudaLastFrameStatistics")
    return int(re.search(r"skipped: (\d+) empty", stats).group(1))


rep.CudaEmptySpaceSkipping = 0
Render(view)
ok &= check(skipped() == 0, "samples skipped with Empty Space Skipping off")
plain = os.path.join(args.output, "TestCudaVolumeRepresentation-noskip.png")
SaveScreenshot(plain, view, ImageResolution=[300, 300])
rep.CudaEmptySpaceSkipping = 1
rep.CudaEmptySpaceCellSize = "4"
Render(view)
skipped_samples = skipped()
skipping = os.path.join(args.output, "TestCudaVolumeRepresentation-skip.png")
SaveScreenshot(skipping, view, ImageResolution=[300, 300])
apart = pixels_apart(read_png(plain), read_png(skipping))
print("empty-space skipping: %d samples skipped, %d pixels apart from the image without"
      % (skipped_samples, apart))
ok &= check(skipped_samples > 0, "Empty Space Skipping skipped nothing")
ok &= check(apart == 0, "Empty Space Skipping changed %d pixels" % apart)

# Memory Budget: a volume larger renders from bricks (the statistics count
# them), the same image; 0 goes back to rendering it whole
rep.CudaMemoryBudget = 0.1
rep.CudaBrickSize = "16"
Render(view)
rep.UpdatePropertyInformation()
stats = rep.GetPropertyValue("CudaLastFrameStatistics")
bricked = os.path.join(args.output, "TestCudaVolumeRepresentation-bricks.png")
SaveScreenshot(bricked, view, ImageResolution=[300, 300])
apart = pixels_apart(read_png(skipping), read_png(bricked))
print("memory budget 0.1 MiB: %s; %d pixels apart from the whole volume's image"
      % (re.search(r"bricks: [^;]*", stats).group(0) if "bricks:" in stats else "not bricked", apart))
ok &= check("bricks:" in stats, "Memory Budget 0.1 MiB: not bricked (%s)" % stats)
ok &= check(apart == 0, "Memory Budget changed %d pixels" % apart)
rep.CudaMemoryBudget = 0
Render(view)
rep.UpdatePropertyInformation()
ok &= check("bricks:" not in rep.GetPropertyValue("CudaLastFrameStatistics"),
            "Memory Budget 0: still bricked")
rep.CudaEmptySpaceSkipping = 0

# A 2D transfer function (value against gradient magnitude): ParaView's Use
# Transfer 2D with one box over the vase's bright values and every gradient
# renders through it, not through the 1D functions, and a box over weak
# gradients only shows less
def shot(name):
    path = os.path.join(args.output, "TestCudaVolumeRepresentation-%s.png" % name)
    SaveScreenshot(path, view, ImageResolution=[300, 300])
    return read_png(path)


one_d = shot("1d")
lo, hi = source.PointData["SLCImage"].GetRange()
tf2d = GetTransferFunction2D("SLCImage")
for boxes, name in (([100, 0, hi - 100, 0.25 * (hi - lo), 0.2, 0.6, 1.0, 0.4], "2d"),
                    ([100, 0, hi - 100, 0.02 * (hi - lo), 0.2, 0.6, 1.0, 0.4], "2d-weak")):
    tf2d.Boxes = boxes
    tf2d.Range = [lo, hi, 0, 0.25 * (hi - lo)]
    tf2d.OutputDimensions = [256, 256]
    rep.TransferFunction2D = tf2d
    rep.UseTransfer2D = 1
    Render(view)
    image = shot(name)
    print("2D transfer function (%s): %d pixels shown, %d apart from the 1D image"
          % (name, shown(image), pixels_apart(one_d, image)))
    ok &= check(shown(image) > 500 and pixels_apart(one_d, image) > 1000,
                "Use Transfer 2D (%s): not rendered through the 2D function" % name)
    if name == "2d":
        full = image
ok &= check(shown(image) < shown(full),
            "a box over weak gradients only shows as much as one over all (%d, %d pixels)"
            % (shown(image), shown(full)))
rep.UseTransfer2D = 0
Render(view)
ok &= check(pixels_apart(one_d, shot("1d-again")) == 0, "Use Transfer 2D off: not the 1D image")

# A second array as the 2D function's y axis (Use Gradient off, its array
# chosen): the vase's values reversed, so that a box over bright values and
# the lower half of the y axis shows the vase, one over its upper half
# (bright values whose reverse is bright too) nothing
reversed_vase = Calculator(Input=source, ResultArrayName="reversed", Function="%g - SLCImage" % hi)
second = Show(reversed_vase, view)
second.Representation = "CUDA Volume"
ColorBy(second, ("POINTS", "SLCImage"))
second.ScalarOpacityUnitDistance = 2.0
Hide(source, view)
second.TransferFunction2D = tf2d
second.UseTransfer2D = 1
second.UseGradientForTransfer2D = 0
second.ColorArray2Name = ["POINTS", "reversed"]
tf2d.Range = [lo, hi, 0, hi - lo]
shown_by_half = []
for y_box, name in (([0, 0.5 * (hi - lo)], "y-lower"), ([0.6 * (hi - lo), hi - lo], "y-upper")):
    tf2d.Boxes = [100, y_box[0], hi - 100, y_box[1], 0.2, 0.6, 1.0, 0.4]
    Render(view)
    shown_by_half.append(shown(shot(name)))
print("2D function over a second array: %d pixels shown by the lower half of its axis, %d by "
      "the upper" % tuple(shown_by_half))
ok &= check(shown_by_half[0] > 500 and shown_by_half[1] < shown_by_half[0] / 20,
            "the second array is not the 2D function's y axis (%d, %d pixels)" % tuple(shown_by_half))
Hide(reversed_vase, view)
rep = Show(source, view)

# the stock Volume representation renders through the override
rep.UpdatePropertyInformation()
before = rep.GetPropertyValue("CudaFramesRendered")
rep.Representation = "Volume"
Render(view)
rep.UpdatePropertyInformation()
after = rep.GetPropertyValue("CudaFramesRendered")
print("frames rendered by vtkCudaVolumeMapper: %d before, %d after the stock Volume frame"
      % (before, after))
ok &= check(after > before, "the stock Volume representation did not use vtkCudaVolumeMapper")

# A vector array (the vase's value along x, three times the height along y),
# coloured by its magnitude and then by its Y component: the colour map's
# vector mode reaches the mapper, which renders that quantity (with Map
# Scalars on, ParaView always gives it a vector mode)
Hide(source, view)
vectors = Calculator(Input=source, ResultArrayName="v", Function="SLCImage*iHat + 3*coordsZ*jHat")
vrep = Show(vectors, view)
vrep.Representation = "CUDA Volume"
vector_shots, vector_samples = [], []
for mode in ("Magnitude", "Y"):
    vrep.UpdatePropertyInformation()
    frames = vrep.GetPropertyValue("CudaFramesRendered")
    ColorBy(vrep, ("POINTS", "v", mode))
    GetColorTransferFunction("v").RescaleTransferFunction(0.0, 285.0)
    GetOpacityTransferFunction("v").Points = [0, 0, 0.5, 0, 67, 0, 0.5, 0, 285, 0.6, 0.5, 0]
    Render(view)
    vrep.UpdatePropertyInformation()
    stats = vrep.GetPropertyValue("CudaLastFrameStatistics")
    shot = os.path.join(args.output, "TestCudaVolumeRepresentation-vector-%s.png" % mode)
    SaveScreenshot(shot, view, ImageResolution=[300, 300])
    vector_shots.append(read_png(shot))
    vector_samples.append(re.search(r"(\d+) samples", stats).group(1))
    print("vector array coloured by %s: %d pixels shown; %s"
          % (mode, shown(vector_shots[-1]), stats))
    ok &= check(vrep.GetPropertyValue("CudaFramesRendered") > frames and " 0 samples" not in stats,
                "coloured by %s: no frame rendered (%s)" % (mode, stats))
    ok &= check(shown(vector_shots[-1]) > 1000, "coloured by %s: the volume is not shown" % mode)
apart = pixels_apart(vector_shots[0], vector_shots[1])
print("magnitude and Y: %d pixels apart, %s and %s samples" % (apart, vector_samples[0], vector_samples[1]))
ok &= check(apart > 1000 and vector_samples[0] != vector_samples[1],
            "coloured by magnitude and by Y: the same volume rendered (%d pixels apart)" % apart)
Hide(vectors, view)


# Several components as ParaView hands them to the mapper without a vector
# mode. The vase's four 8-bit components (vase_4comp.vti) with Map Scalars
# off are RGBA (dependent components): the colour is the data's own, so
# another colour map changes nothing, while another opacity map (read on the
# fourth component) does; with Map Scalars on the colour map colours them.
def frame(representation, name):
    representation.UpdatePropertyInformation()
    frames = representation.GetPropertyValue("CudaFramesRendered")
    Render(view)
    representation.UpdatePropertyInformation()
    stats = representation.GetPropertyValue("CudaLastFrameStatistics")
    path = os.path.join(args.output, "TestCudaVolumeRepresentation-%s.png" % name)
    SaveScreenshot(path, view, ImageResolution=[300, 300])
    image = read_png(path)
    print("%s: %d pixels shown; %s" % (name, shown(image), stats))
    return image, representation.GetPropertyValue("CudaFramesRendered") > frames and " 0 samples" not in stats


rgba = XMLImageDataReader(FileName=[data_file(args, "vtk/vase_4comp.vti")])
crep = Show(rgba, view)
crep.Representation = "CUDA Volume"
ColorBy(crep, ("POINTS", "Scalars_", "Magnitude"))
crep.MapScalars = 0
GetColorTransferFunction("Scalars_").ApplyPreset("Cool to Warm", True)
GetOpacityTransferFunction("Scalars_").Points = [0, 0, 0.5, 0, 40, 0, 0.5, 0, 255, 0.8, 0.5, 0]
direct, rendered = frame(crep, "rgba")
ok &= check(rendered and shown(direct) > 1000, "Map Scalars off: the RGBA vase is not shown")
GetColorTransferFunction("Scalars_").ApplyPreset("Black-Body Radiation", True)
other_colours, rendered = frame(crep, "rgba-other-colours")
ok &= check(rendered and pixels_apart(direct, other_colours) == 0,
            "Map Scalars off: another colour map changed %d pixels of the data's own colours"
            % pixels_apart(direct, other_colours))
GetOpacityTransferFunction("Scalars_").Points = [0, 0, 0.5, 0, 160, 0, 0.5, 0, 255, 0.8, 0.5, 0]
other_opacity, rendered = frame(crep, "rgba-other-opacity")
ok &= check(rendered and 0 < shown(other_opacity) < shown(direct),
            "Map Scalars off: an opacity map keeping less shows %d pixels against %d"
            % (shown(other_opacity), shown(direct)))
crep.MapScalars = 1
mapped, rendered = frame(crep, "rgba-mapped")
ok &= check(rendered and pixels_apart(other_opacity, mapped) > 1000,
            "Map Scalars on: the colour map does not colour the vase (%d pixels apart)"
            % pixels_apart(other_opacity, mapped))
Hide(rgba, view)

# Use Separate Opacity Array: the vase's values as colour, an array that is
# the vase below half its height and 0 above as opacity; ParaView pairs them
# into two dependent components (luminance + alpha), so the upper half
# disappears
halves = Calculator(Input=source, ResultArrayName="lower", Function="SLCImage*(coordsZ<37)")
hrep = Show(halves, view)
hrep.Representation = "CUDA Volume"
ColorBy(hrep, ("POINTS", "SLCImage"))
hrep.ScalarOpacityUnitDistance = 2.0
whole, rendered = frame(hrep, "whole")
hrep.UseSeparateOpacityArray = 1
hrep.OpacityArray = ["POINTS", "lower"]
lower, rendered = frame(hrep, "separate-opacity")
ok &= check(rendered and 1000 < shown(lower) < shown(whole) - 1000,
            "Use Separate Opacity Array: %d pixels shown against the whole vase's %d"
            % (shown(lower), shown(whole)))
Hide(halves, view)

# A colour array the data lacks, or a string array: the view hides such a
# volume without asking its mapper, so the representation says why, once
# until it changes (the stock Volume's mapper reports it too)
from vtkmodules.util.misc import calldata_type  # noqa: E402
from vtkmodules.util.vtkConstants import VTK_STRING  # noqa: E402
named = ProgrammableFilter(Input=source)
named.Script = """
from vtkmodules.vtkCommonCore import vtkStringArray
out = self.GetOutput()
out.ShallowCopy(self.GetInput())
names = vtkStringArray()
names.SetName("names")
names.SetNumberOfValues(out.GetNumberOfPoints())
for i in range(out.GetNumberOfPoints()):
    names.SetValue(i, "vase")
out.GetPointData().AddArray(names)
"""
nrep = Show(named, view)
nrep.Representation = "CUDA Volume"
said = []


@calldata_type(VTK_STRING)
def collect(caller, event, message):
    said.append(message)


nrep.GetClientSideObject().GetActiveRepresentation().AddObserver("ErrorEvent", collect)
for array, expected in (("missing", 'the colour array "missing" is not among the input\'s point arrays'),
                        ("names", 'the colour array "names" is a vtkStringArray, not numeric')):
    del said[:]
    nrep.ColorArrayName = ["POINTS", array]
    for _ in range(3):
        Render(view)
    ok &= check(len(said) == 1 and expected in said[0],
                "colour array %s: the representation said %r over three frames" % (array, said))
Hide(named, view)
finish(ok)
