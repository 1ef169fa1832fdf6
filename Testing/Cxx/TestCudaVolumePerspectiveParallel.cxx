// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Bonsai (uint8 CT) in a perspective (left) and a parallel (right) view, as
// VTK's TestGPURayCastPerspectiveParallel switches between the two.
#include "cvrTestScene.h"
#include "vtkCamera.h"
#include "vtkCudaVolumeMapper.h"
#include "vtkRegressionTestImage.h"
#include "vtkRenderWindow.h"
#include "vtkRenderWindowInteractor.h"
#include "vtkRenderer.h"
#include "vtkVolume.h"

int TestCudaVolumePerspectiveParallel(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkNew<vtkCudaVolumeMapper> mapper;
  mapper->SetInputData(cvrTest::ReadNifti(file));
  mapper->SetAutoAdjustSampleDistances(0);
  mapper->SetSampleDistance(0.5);
  vtkNew<vtkVolumeProperty> property;
  cvrTest::SetRamp(property, 30, 180);
  vtkNew<vtkVolume> volume;
  volume->SetMapper(mapper);
  volume->SetProperty(property);

  vtkNew<vtkRenderWindow> window;
  window->SetSize(400, 200);
  window->SetMultiSamples(0);
  for (int i = 0; i < 2; ++i)
  {
    vtkNew<vtkRenderer> ren;
    ren->SetViewport(0.5 * i, 0.0, 0.5 * (i + 1), 1.0);
    ren->SetBackground(0.1, 0.1, 0.15);
    ren->AddVolume(volume);
    window->AddRenderer(ren);
    ren->ResetCamera();
    ren->GetActiveCamera()->Azimuth(30);
    ren->GetActiveCamera()->Elevation(20);
    ren->GetActiveCamera()->SetParallelProjection(i == 1);
    ren->ResetCamera();
  }
  vtkNew<vtkRenderWindowInteractor> iren;
  iren->SetRenderWindow(window);
  window->Render();

  return cvrTest::CompareWithBaseline(argc, argv, window, iren, mapper);
}
