"""The CUDA Volume representation in pvbatch: every property of ours set,
shared properties of the stock Volume representation used, the statistics
reported, the image compared with its baseline; then the stock Volume
representation, which must render through vtkCudaVolumeMapper too."""
import os

from cvr_pvtest import arguments, check, compare_with_baseline, data_file, finish, load_plugin

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403

load_plugin(args)
source = XMLImageDataReader(FileName=[data_file(args, "vtk/vase_1comp.vti")])
view = CreateRenderView()
view.ViewSize = [300, 300]
view.OrientationAxesVisibility = 0
view.Background = [0.1, 0.1, 0.15]
rep = Show(source, view)
ok = check("CUDA Volume" in rep.GetProperty("Representation").Available,
           "CUDA Volume is not a representation type of image data")
rep.Representation = "CUDA Volume"
ColorBy(rep, ("POINTS", "SLCImage"))
lut = GetColorTransferFunction("SLCImage")
lut.ApplyPreset("Cool to Warm", True)
pwf = GetOpacityTransferFunction("SLCImage")
pwf.Points = [0, 0, 0.5, 0, 60, 0, 0.5, 0, 255, 0.6, 0.5, 0]
rep.ScalarOpacityUnitDistance = 2.0
rep.Shade = 1
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
rep.CudaStrategy = "Warp Marching"
rep.CudaMemoryLayout = "Z-Order"
rep.CudaRotationPolicy = "With Hysteresis"
rep.CudaRotationHysteresis = 7.5
rep.CudaRotationTile = [16, 4]
rep.CudaBlockSize = [32, 4]
rep.CudaEarlyRayTermination = 1
rep.CudaTerminationOpacity = 0.98
rep.CudaAutoAdjustSampleDistances = 0
rep.CudaSampleDistance = 0.5
rep.CudaCpuThreads = 2
rep.CudaCpuTileSize = [16, 8]
rep.CudaCpuSchedule = "Static"
view.CameraPosition = [57, -300, 200]
view.CameraFocalPoint = [57, 50, 37]
view.CameraViewUp = [0, 0, 1]
Render(view)
rep.UpdatePropertyInformation()
stats = rep.GetPropertyValue("CudaLastFrameStatistics")
print("last frame:", stats)
ok &= check(("cuda warp-marching 256x1 SBShuffle, warp 2x2x8, Z-order, rotation hysteresis" in stats) or
            ("cpu standard 16x8" in stats),
            "the statistics do not show the configured launch shape: %s" % stats)
ok &= check(" 0 samples" not in stats, "no samples were taken")
image = os.path.join(args.output, "TestCudaVolumeRepresentation.png")
SaveScreenshot(image, view, ImageResolution=[300, 300])
ok &= check(compare_with_baseline(image, args.baseline), "image differs from the baseline")

# the slab strategy's properties reach the mapper
rep.CudaStrategy = "Slab"
Render(view)
rep.UpdatePropertyInformation()
stats = rep.GetPropertyValue("CudaLastFrameStatistics")
print("slab frame:", stats)
ok &= check(("cuda slab 16x12, slab depth 16" in stats) or ("cpu standard" in stats),
            "the statistics do not show the slab configuration: %s" % stats)

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
finish(ok)
