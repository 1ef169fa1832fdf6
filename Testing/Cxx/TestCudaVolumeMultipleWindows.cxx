// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Several render windows at once, each with its own mapper, volume and
// state: A (bonsai, standard strategy), B (the cranium CT, maximum
// intensity, warp marching) and C (the same vtkImageData as A, another
// transfer function, shaded, AUTO). Each is rendered and grabbed first; then
// 12 rounds turn every camera by 30 degrees and render the windows in turn,
// C switching its shading off and on again midway; with the first cameras
// back, every window shows its first image again (CPU backend: pixel for
// pixel; CUDA: within the reference tolerance, AUTO choosing by timings),
// and each mapper uploaded its volume once, the shared image included. Then
// B is destroyed (window, mapper and the backend's state of both) while A
// and C go on: their images stay the same, and a new window for B's scene
// renders B's first image again.
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"

#include "vtkCamera.h"

#include <memory>

namespace
{
struct Window
{
  const char* Name = nullptr;
  std::unique_ptr<cvrTest::VolumeScene> Scene;
  vtkNew<vtkCamera> FirstCamera;
  vtkSmartPointer<vtkImageData> FirstImage;
};

std::unique_ptr<cvrTest::VolumeScene> Scene(vtkImageData* image, int which)
{
  std::unique_ptr<cvrTest::VolumeScene> s(new cvrTest::VolumeScene(200, 200));
  s->Mapper->SetInputData(image);
  switch (which)
  {
    case 0:
      cvrTest::SetRamp(s->Property, 30, 180, 0.6);
      s->Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD);
      s->View(30, 20);
      break;
    case 1:
      cvrTest::SetRamp(s->Property, 100, 1500, 1.0);
      s->Mapper->SetBlendModeToMaximumIntensity();
      s->Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING);
      s->View(-40, 10);
      break;
    default:
      cvrTest::SetRamp(s->Property, 60, 220, 0.4);
      s->Property->ShadeOn();
      s->Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_AUTO);
      s->View(120, -30);
      break;
  }
  return s;
}

/// Whether `image` is `first` again: pixel for pixel on the CPU; on CUDA
/// within the reference tolerance (AUTO may choose another configuration).
bool Same(const char* what, vtkImageData* first, vtkImageData* image, bool cuda)
{
  const cvrTest::ImageDifference exact = cvrTest::Compare(first, image, 0);
  const cvrTest::ImageDifference over8 = cvrTest::Compare(first, image, 8);
  const bool same = cuda ? over8.MeanLevels <= 0.1 && over8.FractionOver <= 0.001
                         : exact.FractionOver == 0.0;
  std::printf("%-40s mean %.4f levels, %.3f%% of pixels differ, %.3f%% over 8: %s\n", what,
    exact.MeanLevels, 100.0 * exact.FractionOver, 100.0 * over8.FractionOver,
    same ? "ok" : "CHANGED");
  return same;
}
}

int TestCudaVolumeMultipleWindows(int argc, char* argv[])
{
  const std::string bonsai = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  const std::string cranium = cvrTest::DataFile(argc, argv, "ct/cranium_ct.nii.gz");
  if (bonsai.empty() || cranium.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> shared = cvrTest::ReadNifti(bonsai);
  vtkSmartPointer<vtkImageData> ct = cvrTest::ReadNifti(cranium);
  Window windows[3];
  const char* names[3] = { "A: bonsai, standard", "B: cranium, maximum intensity, warp",
    "C: bonsai again, shaded, AUTO" };
  for (int w = 0; w < 3; ++w)
  {
    windows[w].Name = names[w];
    windows[w].Scene = Scene(w == 1 ? ct.Get() : shared.Get(), w);
    windows[w].Scene->Window->Render();
    windows[w].FirstImage = cvrTest::Grab(windows[w].Scene->Window);
    windows[w].FirstCamera->DeepCopy(windows[w].Scene->Renderer->GetActiveCamera());
  }
  const bool cuda =
    std::string(windows[0].Scene->Mapper->GetBackendDescription()).compare(0, 4, "CUDA") == 0;
  std::cout << "backend: " << windows[0].Scene->Mapper->GetBackendDescription() << "\n";

  for (int round = 0; round < 12; ++round)
  {
    if (round == 4 || round == 8)
    {
      windows[2].Scene->Property->SetShade(round == 8);
    }
    for (Window& w : windows)
    {
      w.Scene->Renderer->GetActiveCamera()->Azimuth(30);
      w.Scene->Window->Render();
    }
  }
  bool ok = true;
  for (Window& w : windows)
  {
    w.Scene->Renderer->GetActiveCamera()->DeepCopy(w.FirstCamera);
    w.Scene->Window->Render();
    ok &= Same(w.Name, w.FirstImage, cvrTest::Grab(w.Scene->Window), cuda);
    const vtkTypeUInt64 uploads = w.Scene->Mapper->GetVolumeUploadCount();
    std::printf("%-40s %llu volume upload(s), last frame %s\n", w.Name,
      static_cast<unsigned long long>(uploads), w.Scene->Mapper->GetLastConfiguration());
    ok &= uploads == 1;
  }

  // B goes, with everything the backend held for it; A and C go on
  windows[1].Scene.reset();
  for (int w : { 0, 2 })
  {
    windows[w].Scene->Renderer->GetActiveCamera()->Azimuth(45);
    windows[w].Scene->Window->Render();
    windows[w].Scene->Renderer->GetActiveCamera()->DeepCopy(windows[w].FirstCamera);
    windows[w].Scene->Window->Render();
    const std::string what = std::string(windows[w].Name) + " after B";
    ok &= Same(what.c_str(), windows[w].FirstImage, cvrTest::Grab(windows[w].Scene->Window), cuda);
  }
  std::unique_ptr<cvrTest::VolumeScene> again = Scene(ct, 1);
  again->Window->Render();
  ok &= Same("B in a new window", windows[1].FirstImage, cvrTest::Grab(again->Window), cuda);
  return ok ? 0 : 1;
}
