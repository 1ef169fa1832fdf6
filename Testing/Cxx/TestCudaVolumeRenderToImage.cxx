// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// RenderToImage, as VTK's TestGPURayCastRenderToImage: the volume goes to
// GetColorImage()/GetDepthImage() and not to the window. The depth of a
// pixel is that of its first visible sample, so it is below 1 exactly where
// the colour image has opacity, and an opaque sphere in front limits it.
#include "cvrTestScene.h"
#include "cvrPeerCompare.h"
#include "vtkActor.h"
#include "vtkFloatArray.h"
#include "vtkImageActor.h"
#include "vtkImageMapper3D.h"
#include "vtkPointData.h"
#include "vtkPolyDataMapper.h"
#include "vtkSphereSource.h"
#include "vtkUnsignedCharArray.h"

int TestCudaVolumeRenderToImage(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  cvrTest::VolumeScene scene(300, 300);
  scene.Mapper->SetInputData(cvrTest::ReadNifti(file));
  cvrTest::SetRamp(scene.Property, 30, 180);
  scene.View(20, 10);
  scene.Mapper->RenderToImageOn();
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> window = cvrTest::Grab(scene.Window);

  vtkNew<vtkImageData> color, depth, depth8;
  scene.Mapper->GetColorImage(color);
  scene.Mapper->GetDepthImage(depth);
  scene.Mapper->SetDepthImageScalarTypeToUnsignedChar();
  scene.Mapper->GetDepthImage(depth8);
  int dims[3];
  color->GetDimensions(dims);
  bool ok = dims[0] == 300 && dims[1] == 300;
  auto* rgba = static_cast<unsigned char*>(color->GetScalarPointer());
  auto* z = static_cast<float*>(depth->GetScalarPointer());
  auto* z8 = static_cast<unsigned char*>(depth8->GetScalarPointer());
  long visible = 0, mismatched = 0, badDepth8 = 0;
  for (long p = 0; ok && p < 300L * 300L; ++p)
  {
    visible += rgba[4 * p + 3] > 0;
    mismatched += (rgba[4 * p + 3] > 0) != (z[p] < 1.0f) && rgba[4 * p + 3] > 1;
    badDepth8 += std::abs(static_cast<int>(z8[p]) - static_cast<int>(z[p] * 255.0f)) > 1;
  }
  // nothing was drawn into the window: it shows its background only
  auto* pixels = static_cast<unsigned char*>(window->GetScalarPointer());
  long drawn = 0;
  for (long p = 0; p < 300L * 300L; ++p)
  {
    drawn += pixels[3 * p] > 40; // background is (0.1, 0.1, 0.15)
  }
  std::cout << visible << " visible pixels, " << mismatched << " with depth and opacity at odds, "
            << badDepth8 << " bad 8-bit depths, " << drawn << " drawn into the window\n";
  ok = ok && visible > 5000 && mismatched == 0 && badDepth8 == 0 && drawn == 0;

  // show the colour image for the regression comparison
  scene.Renderer->RemoveAllViewProps();
  vtkNew<vtkImageActor> actor;
  actor->GetMapper()->SetInputData(color);
  scene.Renderer->AddActor(actor);
  scene.Renderer->ResetCamera();
  return scene.Finish(argc, argv, ok);
}
