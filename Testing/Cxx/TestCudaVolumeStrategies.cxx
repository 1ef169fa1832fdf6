// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Every strategy through the VTK mapper: the standard one, Block Shape and
// Warp Marching (1D in its four variants, and 3D), set with the mapper's
// setters, must render the standard strategy's image within the tolerance
// between backends (mean at most 0.05 levels, at most 0.1% of the pixels off
// by more than one level), and the statistics must name what rendered. On
// the CPU backend the strategies are CUDA's: the CPU renders its one image
// and says "cpu standard". Invalid warp settings are reported and the mapper
// renders again once they are fixed.
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"
#include "vtkCallbackCommand.h"
#include "vtkCamera.h"
#include "vtkCommand.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace
{
int errors = 0;
void CountError(vtkObject*, unsigned long, void*, void*)
{
  ++errors;
}
}

int TestCudaVolumeStrategies(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  cvrTest::VolumeScene scene(256, 256);
  scene.Mapper->SetInputData(cvrTest::ReadNifti(file));
  cvrTest::SetRamp(scene.Property, 30, 180);
  scene.View(140, 20);
  scene.Window->Render();
  auto reference = cvrTest::Grab(scene.Window);
  const bool cuda = std::strncmp(scene.Mapper->GetLastConfiguration(), "cuda", 4) == 0;

  struct Config
  {
    const char* Name;
    int Strategy, Variant, Width, RaysX, RaysY, WarpsX, WarpsY;
    const char* Expect; // in the configuration line on CUDA
    int Layout, Rotation, SlabBorder;
  };
  const Config configs[] = {
    { "block shape", vtkCudaVolumeMapper::STRATEGY_BLOCK_SHAPE, 0, 32, 1, 1, 1, 8, "block-shape" },
    { "1D SBShared", vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING,
      vtkCudaVolumeMapper::WARP_SB_SHARED, 32, 1, 1, 1, 8, "SBShared, warp 1x1x32" },
    { "1D DBShared", vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING,
      vtkCudaVolumeMapper::WARP_DB_SHARED, 32, 1, 1, 1, 8, "DBShared, warp 1x1x32" },
    { "1D SBShuffle", vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING,
      vtkCudaVolumeMapper::WARP_SB_SHUFFLE, 32, 1, 1, 2, 4, "SBShuffle, warp 1x1x32" },
    { "1D DBShuffle", vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING,
      vtkCudaVolumeMapper::WARP_DB_SHUFFLE, 32, 1, 1, 1, 8, "DBShuffle, warp 1x1x32" },
    { "3D DBShuffle 2x2x8", vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING,
      vtkCudaVolumeMapper::WARP_DB_SHUFFLE, 8, 2, 2, 1, 8, "DBShuffle, warp 2x2x8" },
    { "3D rays automatic", vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING,
      vtkCudaVolumeMapper::WARP_DB_SHUFFLE, 4, 0, 0, 1, 8, "DBShuffle, warp 4x2x4" },
    { "array order", vtkCudaVolumeMapper::STRATEGY_BLOCK_SHAPE, 0, 32, 1, 1, 1, 8,
      "block-shape 32x4, array order", vtkCudaVolumeMapper::LAYOUT_ARRAY_ORDER },
    { "Z-order, 3D", vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING,
      vtkCudaVolumeMapper::WARP_DB_SHUFFLE, 8, 2, 2, 1, 8, "warp 2x2x8, Z-order",
      vtkCudaVolumeMapper::LAYOUT_Z_ORDER },
    { "in-place rotation", vtkCudaVolumeMapper::STRATEGY_BLOCK_SHAPE, 0, 32, 1, 1, 1, 8,
      "rotation on region change, axes", vtkCudaVolumeMapper::LAYOUT_TEXTURE,
      vtkCudaVolumeMapper::ROTATION_ON_REGION_CHANGE },
    { "rotation, array order", vtkCudaVolumeMapper::STRATEGY_STANDARD, 0, 32, 1, 1, 1, 8,
      "array order, rotation hysteresis", vtkCudaVolumeMapper::LAYOUT_ARRAY_ORDER,
      vtkCudaVolumeMapper::ROTATION_HYSTERESIS },
    // unshaded, the slab strategy takes the same samples: the same image
    { "slab", vtkCudaVolumeMapper::STRATEGY_SLAB, 0, 32, 1, 1, 1, 8,
      "slab 16x16, slab depth 16, ring border" },
    { "slab, gathered", vtkCudaVolumeMapper::STRATEGY_SLAB, 0, 32, 1, 1, 1, 8,
      "slab 16x16, slab depth 16, gathered border", vtkCudaVolumeMapper::LAYOUT_TEXTURE,
      vtkCudaVolumeMapper::ROTATION_NEVER, vtkCudaVolumeMapper::SLAB_BORDER_GATHERED },
  };
  bool ok = true;
  for (const Config& c : configs)
  {
    scene.Mapper->SetStrategy(c.Strategy);
    scene.Mapper->SetWarpVariant(c.Variant);
    scene.Mapper->SetWarpWidth(c.Width);
    scene.Mapper->SetWarpRays(c.RaysX, c.RaysY);
    scene.Mapper->SetBlockWarps(c.WarpsX, c.WarpsY);
    scene.Mapper->SetMemoryLayout(c.Layout);
    scene.Mapper->SetRotationPolicy(c.Rotation);
    scene.Mapper->SetSlabBlock(16, 16);
    scene.Mapper->SetSlabDepth(16);
    scene.Mapper->SetSlabBorder(c.SlabBorder);
    scene.Window->Render();
    const cvrTest::ImageDifference d =
      cvrTest::Compare(cvrTest::Grab(scene.Window), reference, 1);
    const std::string config = scene.Mapper->GetLastConfiguration();
    const bool named = cuda ? config.find(c.Expect) != std::string::npos
                            : config.find("cpu standard") != std::string::npos;
    const bool same = d.MeanLevels <= 0.05 && d.FractionOver <= 0.001;
    std::printf("%-20s \"%s\": mean %.3f levels, %.3f%% over 1: %s\n", c.Name, config.c_str(),
      d.MeanLevels, 100.0 * d.FractionOver, same && named ? "ok" : "FAILED");
    ok &= same && named;
  }

  // a view along x: the volume is turned in place (x and z trade places), same image
  scene.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_BLOCK_SHAPE);
  scene.Mapper->SetMemoryLayout(vtkCudaVolumeMapper::LAYOUT_TEXTURE);
  scene.Mapper->SetRotationPolicy(vtkCudaVolumeMapper::ROTATION_NEVER);
  vtkNew<vtkCamera> baselineCamera;
  baselineCamera->DeepCopy(scene.Renderer->GetActiveCamera());
  {
    double bounds[6], c[3];
    scene.Mapper->GetBounds(bounds);
    for (int a = 0; a < 3; ++a)
    {
      c[a] = 0.5 * (bounds[2 * a] + bounds[2 * a + 1]);
    }
    vtkCamera* camera = scene.Renderer->GetActiveCamera();
    camera->SetFocalPoint(c);
    camera->SetPosition(c[0] + 500.0, c[1] + 80.0, c[2] + 120.0); // mostly along x
    camera->SetViewUp(0.0, 1.0, 0.0);
    scene.Renderer->ResetCamera();
  }
  scene.Window->Render();
  const auto alongX = cvrTest::Grab(scene.Window);
  scene.Mapper->SetRotationPolicy(vtkCudaVolumeMapper::ROTATION_ON_REGION_CHANGE);
  scene.Window->Render();
  {
    const cvrTest::ImageDifference d = cvrTest::Compare(cvrTest::Grab(scene.Window), alongX, 1);
    const std::string config = scene.Mapper->GetLastConfiguration();
    // the stored copy's x is another axis now: x trades places with y or z,
    // whichever the view looks along least (rotation_policy.c)
    const size_t axes = config.find("axes ");
    const bool turned = !cuda ||
      (axes != std::string::npos && config.compare(axes + 5, 2, "+1") != 0 &&
        config.compare(axes + 5, 2, "-1") != 0);
    const bool same = d.MeanLevels <= 0.05 && d.FractionOver <= 0.001;
    std::printf("%-20s \"%s\": mean %.3f levels, %.3f%% over 1: %s\n", "turned along x",
      config.c_str(), d.MeanLevels, 100.0 * d.FractionOver, same && turned ? "ok" : "FAILED");
    ok &= same && turned;
  }
  scene.Mapper->SetRotationPolicy(vtkCudaVolumeMapper::ROTATION_NEVER);
  scene.Renderer->GetActiveCamera()->DeepCopy(baselineCamera); // the baseline's view

  // a warp width that is not a power of two: one error, nothing drawn; fixed, it renders
  scene.Mapper->SetWarpRays(0, 0);
  scene.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING);
  vtkNew<vtkCallbackCommand> onError;
  onError->SetCallback(CountError);
  scene.Mapper->AddObserver(vtkCommand::ErrorEvent, onError);
  scene.Mapper->SetWarpWidth(12);
  const auto frames = vtkCudaVolumeMapper::GetNumberOfFramesRendered();
  scene.Window->Render();
  bool refused = errors == 1 && vtkCudaVolumeMapper::GetNumberOfFramesRendered() == frames;
  scene.Mapper->SetWarpWidth(8);
  scene.Window->Render();
  refused &= errors == 1 && vtkCudaVolumeMapper::GetNumberOfFramesRendered() == frames + 1;
  std::printf("invalid warp width: %d error(s), then rendered again: %s\n", errors,
    refused ? "ok" : "FAILED");
  ok &= refused;
  return scene.Finish(argc, argv, ok);
}
