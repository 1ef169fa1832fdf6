// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// The prop's position, orientation, scale and user matrix, as VTK's
// TestGPURayCastVolumeOrientation: two copies of one volume, one moved by
// the prop's own transform and the other by a user matrix.
#include "cvrTestScene.h"
#include "vtkTransform.h"

int TestCudaVolumeMatrix(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "mri/stroke_t1.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  cvrTest::VolumeScene scene(400, 300);
  vtkSmartPointer<vtkImageData> image = cvrTest::ReadNifti(file);
  scene.Mapper->SetInputData(image);
  cvrTest::SetRamp(scene.Property, 60, 160, 0.4);
  scene.Volume->SetOrientation(20, 45, 0);
  scene.Volume->SetScale(1.0, 1.3, 0.8);
  scene.Volume->SetPosition(-80, 0, 0);

  vtkNew<vtkCudaVolumeMapper> mapper2;
  mapper2->SetInputData(image);
  vtkNew<vtkVolume> volume2;
  volume2->SetMapper(mapper2);
  volume2->SetProperty(scene.Property);
  vtkNew<vtkTransform> user;
  user->Translate(100, 20, 0);
  user->RotateZ(-30);
  user->RotateX(60);
  volume2->SetUserTransform(user);
  scene.Renderer->AddVolume(volume2);
  scene.View(0, 10);
  return scene.Finish(argc, argv);
}
