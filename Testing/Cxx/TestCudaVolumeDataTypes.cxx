// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Real data of several scalar types, as VTK's TestGPURayCast* data tests:
// int16 CT with signed values (cranium, non-isometric), a non-isometric
// uint8 MR angiogram, float32 (hydrogen) and a double copy of the CT, each in
// its own viewport.
#include "cvrTestScene.h"
#include "vtkImageCast.h"
#include "vtkXMLImageDataReader.h"

int TestCudaVolumeDataTypes(int argc, char* argv[])
{
  const std::string ct = cvrTest::DataFile(argc, argv, "ct/cranium_ct.nii.gz");
  const std::string mra = cvrTest::DataFile(argc, argv, "mri/avm_mra_337x319x154.nii.gz");
  const std::string hydrogen = cvrTest::DataFile(argc, argv, "vtk/hydrogen/hydrogen.vti");
  if (ct.empty() || mra.empty() || hydrogen.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkNew<vtkXMLImageDataReader> reader;
  reader->SetFileName(hydrogen.c_str());
  reader->Update();
  vtkSmartPointer<vtkImageData> ctImage = cvrTest::ReadNifti(ct);
  vtkNew<vtkImageCast> toDouble;
  toDouble->SetInputData(ctImage);
  toDouble->SetOutputScalarTypeToDouble();
  toDouble->Update();

  vtkSmartPointer<vtkImageData> mraImage = cvrTest::ReadNifti(mra);
  struct Panel
  {
    vtkImageData* Image;
    double Lo, Hi, Opacity;
  } panels[] = {
    { ctImage, 100, 1500, 0.5 },
    { mraImage, 60, 200, 0.5 },
    { reader->GetOutput(), 0.05, 0.6, 0.3 },
    { toDouble->GetOutput(), 100, 1500, 0.5 },
  };
  vtkNew<vtkRenderWindow> window;
  window->SetSize(400, 400);
  window->SetMultiSamples(0);
  vtkNew<vtkRenderWindowInteractor> iren;
  iren->SetRenderWindow(window);
  vtkNew<vtkCudaVolumeMapper> mappers[4];
  vtkNew<vtkVolumeProperty> properties[4];
  for (int i = 0; i < 4; ++i)
  {
    mappers[i]->SetInputData(panels[i].Image);
    cvrTest::SetRamp(properties[i], panels[i].Lo, panels[i].Hi, panels[i].Opacity);
    vtkNew<vtkVolume> volume;
    volume->SetMapper(mappers[i]);
    volume->SetProperty(properties[i]);
    vtkNew<vtkRenderer> ren;
    ren->SetViewport(0.5 * (i % 2), 0.5 * (i / 2), 0.5 * (i % 2) + 0.5, 0.5 * (i / 2) + 0.5);
    ren->SetBackground(0.1, 0.1, 0.15);
    ren->AddVolume(volume);
    window->AddRenderer(ren);
    ren->ResetCamera();
    ren->GetActiveCamera()->Azimuth(30);
    ren->GetActiveCamera()->Elevation(-60);
    ren->ResetCamera();
  }
  window->Render();
  bool ok = true;
  for (int i = 0; i < 4; ++i)
  {
    ok &= mappers[i]->GetLastRayCount() > 0;
  }
  return cvrTest::CompareWithBaseline(argc, argv, window, iren, mappers[0], ok);
}
