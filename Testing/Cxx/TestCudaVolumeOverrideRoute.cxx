// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// The override's route: vtkSmartVolumeMapper (as ParaView's stock Volume)
// driving vtkCudaVolumeMapper. It locks the sample distance to the input
// spacing (VTK's SpacingAdjustedSampleDistance: 0.4 voxel for the 81^3
// Wavelet, less for smaller volumes), as VTK's own mapper honours it, where a
// mapper used directly adjusts it (a voxel in still frames). Through the
// route the mapper must take exactly the samples and draw exactly the image
// of a vtkCudaVolumeMapper used directly with the smart mapper's settings:
// the route adds nothing but that choice. Frame times are printed, not
// asserted.
#include "cvrExposedSmartMapper.h"
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"
#include "vtkRTAnalyticSource.h"

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

// Four views of the shaded Wavelet, as the mapper saw them.
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
    frames.push_back({ mapper->GetLastSampleCount(),
      mapper->GetLastSampleCount() + mapper->GetLastSamplesSkippedEmpty() +
        mapper->GetLastSamplesSkippedTerminated(),
      took.count(), cvrTest::Grab(scene.Window) });
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
  vtkCudaVolumeMapper::SetFactoryOverride(wasOn);

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
  return adjusted.Finish(argc, argv, ok);
}
