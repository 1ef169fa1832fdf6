// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// A multisampled render window, VTK's default (vtkRenderWindow's global
// default of 8 samples): the volume with an opaque sphere through it renders
// as in a window without multisampling (the scene's depth is resolved from
// the multisampled framebuffer before it is read), apart from the sphere's
// antialiased silhouette; and the samples its rays take are the same.
#include "cvrPeerViewports.h"

int TestCudaVolumeMultiSamples(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  cvrTest::VolumeScene scene;
  scene.Mapper->SetInputData(cvrTest::ReadNifti(file));
  scene.Mapper->EarlyRayTerminationOff();
  cvrTest::SetRamp(scene.Property, 30, 180, 0.3);
  cvrTest::AddOpaqueSphere(scene.Renderer);
  scene.View(30, 15);

  // multisampled from the first frame, as a window is by default; then the
  // same scene without
  scene.Window->SetMultiSamples(8);
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> multi = cvrTest::Grab(scene.Window);
  const vtkTypeUInt64 multiSamples = scene.Mapper->GetLastSampleCount();
  const std::string multiTransfer = scene.Mapper->GetLastImageTransfer();
  std::cout << "multisamples: " << scene.Window->GetMultiSamples() << " (" << scene.Window->GetClassName()
            << "), image transfer: " << multiTransfer << "\n";
  scene.Window->SetMultiSamples(0);
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> single = cvrTest::Grab(scene.Window);
  const vtkTypeUInt64 singleSamples = scene.Mapper->GetLastSampleCount();

  const double whole[4] = { 0, 0, 1, 1 };
  const cvrTest::ImageDifference d = cvrTest::CompareViewport(single, multi, whole, 300, 300, 8);
  std::printf("8 samples against none: %.2f levels mean, %.2f%% of the pixels over 8; samples "
              "%llu against %llu\n",
    d.MeanLevels, 100.0 * d.FractionOver, static_cast<unsigned long long>(multiSamples),
    static_cast<unsigned long long>(singleSamples));
  // the silhouette of the antialiased sphere differs, about 1% of the pixels;
  // its resolved depth there is a blend, so rays stop a little elsewhere
  const double sampleRatio =
    singleSamples > 0 ? static_cast<double>(multiSamples) / static_cast<double>(singleSamples) : 0;
  const bool ok = sampleRatio > 0.99 && sampleRatio < 1.01 && d.MeanLevels < 1.0 &&
    d.FractionOver < 0.03;
  if (!ok)
  {
    std::cerr << "the multisampled window does not render the volume as the other\n";
  }
  return ok ? 0 : 1;
}
