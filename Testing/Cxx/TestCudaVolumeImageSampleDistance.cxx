// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// ImageSampleDistance and AutoAdjustSampleDistances (after VTK's
// TestGPURayCastImageSampleXY and its interactive sample distances).
//  - Rays every 1, 2 and 3.5 pixels and every half pixel, each in its own
//    viewport of the bonsai, by vtkCudaVolumeMapper and by VTK's
//    vtkOpenGLGPUVolumeRayCastMapper, which must agree within the peer bound
//    of TestCudaVolumePeerMappers (both stretch a coarse image over the
//    viewport with linear filtering; measured on Mesa, CPU backend: mean
//    0.10-0.17 levels, at most 0.035% of the pixels over 8); the rays cast
//    scale with 1 / distance^2.
//  - AutoAdjustSampleDistances: in interactive frames (the window's desired
//    update rate leaves each volume far less than a second) the sample
//    distance grows by VTK's steps up to MaximumImageSampleDistance, so the
//    samples fall to about a tenth; a still frame samples fully again.
#include "cvrPeerViewports.h"

#include <limits>

int TestCudaVolumeImageSampleDistance(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> image = cvrTest::ReadNifti(file);
  vtkNew<vtkVolumeProperty> property;
  cvrTest::SetRamp(property, 30, 180, 1.0);
  const struct
  {
    const char* Name;
    float Distance;
  } cases[] = { { "rays every pixel", 1.0f }, { "every 2 pixels", 2.0f },
    { "every 3.5 pixels", 3.5f }, { "every half pixel", 0.5f } };
  cvrTest::PeerViewports scene(400, 400, 2, 2);
  for (const auto& c : cases)
  {
    const float isd = c.Distance;
    scene.Add(c.Name, image, property, 0.5, 30, 20, false, [isd](vtkVolumeMapper* m) {
      static_cast<vtkGPUVolumeRayCastMapper*>(m)->SetImageSampleDistance(isd);
    });
  }
  bool ok = scene.RenderAndCompare();

  // the rays: the viewport's pixels over the distance squared
  const double full = static_cast<double>(scene.Viewports[0].Ours->GetLastRayCount());
  for (size_t i = 1; i < scene.Viewports.size(); ++i)
  {
    const double d = cases[i].Distance;
    const double ratio = static_cast<double>(scene.Viewports[i].Ours->GetLastRayCount()) / full;
    const bool scaled = ratio > 0.85 / (d * d) && ratio < 1.15 / (d * d);
    std::printf("%s: %.4f of the rays (1 / %.2f^2 = %.4f): %s\n", cases[i].Name, ratio, d,
      1.0 / (d * d), scaled ? "ok" : "WRONG");
    ok &= scaled;
  }

  // a distance outside VTK's 0.1 to 100 pixels (VTK's setter clamps it, 0
  // becoming a hundred times the rays) is refused with an error, the rays
  // kept as they were
  vtkCudaVolumeMapper* mapper = scene.Viewports[0].Ours;
  {
    cvrTest::MessageLog log(mapper);
    const unsigned long long before = mapper->GetLastRayCount();
    const float refused[] = { 0.0f, -2.0f, 0.05f, 101.0f, std::numeric_limits<float>::quiet_NaN() };
    for (float d : refused)
    {
      mapper->SetImageSampleDistance(d);
    }
    scene.Window->Render();
    const bool kept = mapper->GetImageSampleDistance() == 1.0f && mapper->GetLastRayCount() == before;
    size_t errors = 0;
    for (const std::string& m : log.Messages)
    {
      errors += m.find("error: ") == 0 && m.find("outside 0.1 to 100") != std::string::npos;
    }
    std::printf("ImageSampleDistance 0, -2, 0.05, 101, NaN: %zu errors, distance %g, %llu rays "
                "(%llu before): %s\n",
      errors, mapper->GetImageSampleDistance(), static_cast<unsigned long long>(mapper->GetLastRayCount()),
      static_cast<unsigned long long>(before), errors == 5 && kept ? "refused" : "WRONG");
    ok &= errors == 5 && kept;
  }

  // AutoAdjustSampleDistances in interactive and still frames
  mapper->SetAutoAdjustSampleDistances(1);
  scene.Window->Render();
  const double still = cvrTest::SamplesReached(mapper);
  scene.Window->SetDesiredUpdateRate(1000.0); // a quarter of a millisecond per volume
  double interactive = still;
  for (int frame = 0; frame < 6; ++frame)
  {
    scene.Window->Render();
    interactive = cvrTest::SamplesReached(mapper);
  }
  scene.Window->SetDesiredUpdateRate(0.0001);
  scene.Window->Render();
  const double back = cvrTest::SamplesReached(mapper);
  std::printf("AutoAdjustSampleDistances: %.0f samples reached still, %.0f interactive (%.3f), %.0f "
              "still again\n",
    still, interactive, interactive / still, back);
  // distance 10 times the voxel's: a tenth of the samples, give or take the
  // lattice's ends
  const bool adjusted = interactive / still > 0.07 && interactive / still < 0.13 && back == still;
  if (!adjusted)
  {
    std::printf("interactive frames do not coarsen the sampling as VTK's mapper does\n");
  }
  ok &= adjusted;
  mapper->SetAutoAdjustSampleDistances(0);
  scene.Window->Render();
  return scene.CompareWithBaseline(argc, argv, ok);
}
