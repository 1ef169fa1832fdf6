// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Shading on and off, as VTK's TestGPURayCastVolumeLightning/Shading tests:
// the unshaded engine block (left), shaded under the renderer's headlight
// (middle), and under a coloured directional light and a spot light
// (right). Shading must change the image and the extra lights must too.
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"
#include "vtkLight.h"

int TestCudaVolumeShading(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/engine.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> image = cvrTest::ReadNifti(file);
  vtkNew<vtkRenderWindow> window;
  window->SetSize(480, 160);
  window->SetMultiSamples(0);
  vtkNew<vtkRenderWindowInteractor> iren;
  iren->SetRenderWindow(window);
  vtkNew<vtkCudaVolumeMapper> mappers[3];
  vtkNew<vtkVolumeProperty> properties[3];
  vtkNew<vtkRenderer> renderers[3];
  for (int i = 0; i < 3; ++i)
  {
    mappers[i]->SetInputData(image);
    cvrTest::SetRamp(properties[i], 80, 200, 0.6);
    properties[i]->SetShade(i > 0);
    properties[i]->SetAmbient(0.2);
    properties[i]->SetDiffuse(0.8);
    properties[i]->SetSpecular(0.4);
    properties[i]->SetSpecularPower(20);
    vtkNew<vtkVolume> volume;
    volume->SetMapper(mappers[i]);
    volume->SetProperty(properties[i]);
    renderers[i]->SetViewport(i / 3.0, 0, (i + 1) / 3.0, 1);
    renderers[i]->SetBackground(0.1, 0.1, 0.15);
    renderers[i]->AddVolume(volume);
    window->AddRenderer(renderers[i]);
    renderers[i]->ResetCamera();
    renderers[i]->GetActiveCamera()->Azimuth(35);
    renderers[i]->GetActiveCamera()->Elevation(30);
    renderers[i]->ResetCamera();
  }
  vtkNew<vtkLight> blue, spot;
  blue->SetLightTypeToSceneLight();
  blue->SetPosition(-300, 200, 300);
  blue->SetFocalPoint(128, 128, 64);
  blue->SetColor(0.4, 0.6, 1.0);
  spot->SetLightTypeToSceneLight();
  spot->SetPositional(true);
  spot->SetPosition(128, 500, 64);
  spot->SetFocalPoint(128, 128, 64);
  spot->SetConeAngle(30);
  spot->SetColor(1.0, 0.8, 0.5);
  renderers[2]->AddLight(blue);
  renderers[2]->AddLight(spot);
  window->Render();

  // the three panels show the same geometry at the same place: compare them
  vtkSmartPointer<vtkImageData> frame = cvrTest::Grab(window);
  auto* rgb = static_cast<unsigned char*>(frame->GetScalarPointer());
  double diff[2] = { 0, 0 };
  for (int y = 0; y < 160; ++y)
  {
    for (int x = 0; x < 160; ++x)
    {
      for (int c = 0; c < 3; ++c)
      {
        const int a = rgb[3 * (y * 480 + x) + c], b = rgb[3 * (y * 480 + x + 160) + c],
                  d = rgb[3 * (y * 480 + x + 320) + c];
        diff[0] += std::abs(a - b);
        diff[1] += std::abs(b - d);
      }
    }
  }
  diff[0] /= 3.0 * 160 * 160;
  diff[1] /= 3.0 * 160 * 160;
  std::cout << "mean difference unshaded/headlight " << diff[0] << ", headlight/three lights "
            << diff[1] << " levels\n";
  const bool ok = diff[0] > 3.0 && diff[1] > 3.0;
  return cvrTest::CompareWithBaseline(argc, argv, window, iren, mappers[2], ok);
}
