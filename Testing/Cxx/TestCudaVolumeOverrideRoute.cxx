// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// The override's route: vtkSmartVolumeMapper (as ParaView's stock Volume)
// driving vtkCudaVolumeMapper. It locks the sample distance to the input
// spacing (VTK's SpacingAdjustedSampleDistance: 0.4 voxel for the 81^3
// Wavelet, less for smaller volumes), as VTK's own mapper honours it, where a
// mapper used directly adjusts it (a voxel in still frames). Through the
// route the mapper must take exactly the samples and draw exactly the image
// of a vtkCudaVolumeMapper used directly with the smart mapper's settings:
// the route adds nothing but that choice. ParaView's stock Volume goes one
// step further, through vtkMultiBlockVolumeMapper, which turns jittering on
// in the smart mapper it makes (VTK since 2022-09, ParaView 5.11's included;
// 9.2.0 only in an OpenGL mapper): its image must be the direct mapper's with
// that jittering. Frame times are printed, not asserted.
#include "cvrExposedSmartMapper.h"
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"
#include "vtkMultiBlockVolumeMapper.h"
#include "vtkRTAnalyticSource.h"
#include "vtkVersionMacros.h"

#include <chrono>
#include <cstdio>
#include <vector>

namespace
{
struct Frame
{
  vtkTypeUInt64 Samples, Lattice;
  double Seconds;
  vtkSmartPointer<vtkImageData> Image;
};

// Four views of the shaded Wavelet, as the mapper saw them (no counts
// without the mapper).
std::vector<Frame> Orbit(cvrTest::VolumeScene& scene, vtkCudaVolumeMapper* mapper)
{
  std::vector<Frame> frames;
  scene.View(30, 20);
  scene.Window->Render(); // (the upload)
  for (int i = 0; i < 4; ++i)
  {
    scene.Renderer->GetActiveCamera()->Azimuth(20);
    const auto start = std::chrono::steady_clock::now();
    scene.Window->Render();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    const vtkTypeUInt64 samples = mapper ? mapper->GetLastSampleCount() : 0;
    const vtkTypeUInt64 lattice = mapper
      ? samples + mapper->GetLastSamplesSkippedEmpty() + mapper->GetLastSamplesSkippedTerminated()
      : 0;
    frames.push_back({ samples, lattice, took.count(), cvrTest::Grab(scene.Window) });
  }
  return frames;
}

void Shaded(cvrTest::VolumeScene& scene, vtkAlgorithmOutput* input, vtkVolumeMapper* mapper)
{
  mapper->SetInputConnection(input);
  scene.Volume->SetMapper(mapper);
  cvrTest::SetRamp(scene.Property, 100, 250);
  scene.Property->ShadeOn();
}
}

int TestCudaVolumeOverrideRoute(int argc, char* argv[])
{
  vtkNew<vtkRTAnalyticSource> wavelet;
  wavelet->SetWholeExtent(-40, 40, -40, 40, -40, 40);
  bool ok = true;

  // directly: the default (sample distance adjusted), and the smart mapper's settings
  cvrTest::VolumeScene adjusted(300, 300);
  Shaded(adjusted, wavelet->GetOutputPort(), adjusted.Mapper);
  const std::vector<Frame> own = Orbit(adjusted, adjusted.Mapper);
  cvrTest::VolumeScene direct(300, 300);
  Shaded(direct, wavelet->GetOutputPort(), direct.Mapper);
  direct.Mapper->SetAutoAdjustSampleDistances(0);
  direct.Mapper->SetLockSampleDistanceToInputSpacing(1);
  direct.Mapper->SetSampleDistance(0.5f); // the smart mapper's: half the mean spacing
  const std::vector<Frame> locked = Orbit(direct, direct.Mapper);

  // through the override
  const bool wasOn = vtkCudaVolumeMapper::GetFactoryOverride();
  vtkCudaVolumeMapper::SetFactoryOverride(true);
  cvrTest::VolumeScene route(300, 300);
  vtkNew<cvrTest::ExposedSmartVolumeMapper> smart;
  smart->SetRequestedRenderModeToGPU();
  Shaded(route, wavelet->GetOutputPort(), smart);
  route.Window->Render(); // (the smart mapper makes its GPU mapper here)
  auto* used = vtkCudaVolumeMapper::SafeDownCast(smart->GPU());
  ok &= used != nullptr;
  const std::vector<Frame> routed = used ? Orbit(route, used) : std::vector<Frame>();
  // ParaView's stock Volume: the multiblock mapper over the smart one
  cvrTest::VolumeScene stock(300, 300);
  vtkNew<vtkMultiBlockVolumeMapper> blocks;
  blocks->SetRequestedRenderMode(vtkSmartVolumeMapper::GPURenderMode);
  Shaded(stock, wavelet->GetOutputPort(), blocks);
  const std::vector<Frame> stocked = Orbit(stock, nullptr);
  vtkCudaVolumeMapper::SetFactoryOverride(wasOn);
#if VTK_VERSION_NUMBER >= VTK_VERSION_CHECK(9, 2, 20220916)
  const bool stockJitters = true;
#else
  const bool stockJitters = false;
#endif
  cvrTest::VolumeScene shaken(300, 300); // (a scene of its own: Orbit turns the camera on)
  Shaded(shaken, wavelet->GetOutputPort(), shaken.Mapper);
  shaken.Mapper->SetAutoAdjustSampleDistances(0);
  shaken.Mapper->SetLockSampleDistanceToInputSpacing(1);
  shaken.Mapper->SetSampleDistance(0.5f);
  shaken.Mapper->SetUseJittering(1);
  const std::vector<Frame> jittered = Orbit(shaken, shaken.Mapper);

  for (size_t i = 0; i < routed.size(); ++i)
  {
    const cvrTest::ImageDifference d = cvrTest::Compare(routed[i].Image, locked[i].Image, 1);
    const bool same = routed[i].Samples == locked[i].Samples && d.MeanLevels == 0.0;
    // the lock asks for more samples than the adjusted distance (a voxel)
    const bool finer = routed[i].Lattice > 2 * own[i].Lattice;
    std::printf("view %zu: through vtkSmartVolumeMapper %llu samples (%llu on the rays), %.3f s; "
                "directly with its settings %llu, %.3f s, %.3f levels apart: %s; adjusted "
                "distance %llu on the rays, %.3f s: %s\n",
      i, static_cast<unsigned long long>(routed[i].Samples),
      static_cast<unsigned long long>(routed[i].Lattice), routed[i].Seconds,
      static_cast<unsigned long long>(locked[i].Samples), locked[i].Seconds, d.MeanLevels,
      same ? "ok" : "FAILED", static_cast<unsigned long long>(own[i].Lattice), own[i].Seconds,
      finer ? "ok" : "FAILED");
    ok &= same && finer;
  }
  for (size_t i = 0; i < stocked.size(); ++i)
  {
    const std::vector<Frame>& expected = stockJitters ? jittered : locked;
    const std::vector<Frame>& other = stockJitters ? locked : jittered;
    const double levels = cvrTest::Compare(stocked[i].Image, expected[i].Image, 1).MeanLevels;
    const double otherLevels = cvrTest::Compare(stocked[i].Image, other[i].Image, 1).MeanLevels;
    const bool same = levels == 0.0 && otherLevels > 0.0;
    std::printf("view %zu: through vtkMultiBlockVolumeMapper %.3f levels from the direct mapper "
                "%s jittering, %.3f %s it: %s\n",
      i, levels, stockJitters ? "with" : "without", otherLevels,
      stockJitters ? "without" : "with", same ? "ok" : "FAILED");
    ok &= same;
  }
  ok &= stocked.size() == 4;
  return adjusted.Finish(argc, argv, ok);
}
