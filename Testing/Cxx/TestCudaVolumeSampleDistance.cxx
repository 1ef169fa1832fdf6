// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Sample distances, as VTK's TestGPURayCastVolumeSampleDistance: an explicit
// coarse distance, AutoAdjustSampleDistances (the smallest voxel edge) and
// LockSampleDistanceToInputSpacing, side by side. The samples taken must
// scale with the inverse of the distance.
#include "cvrTestScene.h"

int TestCudaVolumeSampleDistance(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> image = cvrTest::ReadNifti(file);
  vtkNew<vtkRenderWindow> window;
  window->SetSize(450, 150);
  window->SetMultiSamples(0);
  vtkNew<vtkRenderWindowInteractor> iren;
  iren->SetRenderWindow(window);
  vtkNew<vtkVolumeProperty> property;
  cvrTest::SetRamp(property, 30, 180);
  vtkNew<vtkCudaVolumeMapper> mappers[3];
  for (int i = 0; i < 3; ++i)
  {
    mappers[i]->SetInputData(image);
    mappers[i]->EarlyRayTerminationOff(); // so sample counts depend on the distance alone
    vtkNew<vtkVolume> volume;
    volume->SetMapper(mappers[i]);
    volume->SetProperty(property);
    vtkNew<vtkRenderer> ren;
    ren->SetViewport(i / 3.0, 0, (i + 1) / 3.0, 1);
    ren->SetBackground(0.1, 0.1, 0.15);
    ren->AddVolume(volume);
    window->AddRenderer(ren);
    ren->ResetCamera();
    ren->GetActiveCamera()->Azimuth(20);
    ren->ResetCamera();
  }
  mappers[0]->SetAutoAdjustSampleDistances(0);
  mappers[0]->SetSampleDistance(4.0);
  mappers[1]->SetAutoAdjustSampleDistances(1);
  mappers[2]->SetAutoAdjustSampleDistances(0);
  mappers[2]->LockSampleDistanceToInputSpacingOn();
  window->Render();

  // 4.0 against the auto-adjusted 1.0 (bonsai's voxels are unit cubes)
  const double reached[3] = { cvrTest::SamplesReached(mappers[0]),
    cvrTest::SamplesReached(mappers[1]), cvrTest::SamplesReached(mappers[2]) };
  const double ratio = reached[1] / reached[0];
  // half the mean spacing: 0.5, for 256^3 voxels
  const double ratioLocked = reached[2] / reached[1];
  std::cout << "samples reached at 4.0, auto, locked: " << reached[0] << ", " << reached[1] << ", "
            << reached[2] << " (ratios " << ratio << ", " << ratioLocked << ")\n";
  const bool ok = ratio > 3.8 && ratio < 4.2 && ratioLocked > 1.9 && ratioLocked < 2.1;
  if (!ok)
  {
    std::cerr << "sample counts do not follow the sample distances\n";
  }
  return cvrTest::CompareWithBaseline(argc, argv, window, iren, mappers[0], ok);
}
