// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Volumetric scattering (vtkGPUVolumeRayCastMapper's VolumetricScatteringBlending
// and GlobalIlluminationReach, vtkVolumeProperty's ScatteringAnisotropy) on
// a shaded Wavelet, each setting in its own viewport, rendered by
// vtkCudaVolumeMapper and by VTK's vtkOpenGLGPUVolumeRayCastMapper, which
// must agree within the bounds below in every viewport. Scattering must
// change the image as much as it changes VTK's:
// the mean difference between blending 0 and each other viewport, ours
// against VTK's, within CHANGE_RATIO of each other (and VTK's over a level).
#include "cvrPeerViewports.h"
#include "vtkImageData.h"
#include "vtkLight.h"
#include "vtkRTAnalyticSource.h"

// Measured on Mesa with the CPU backend (see the test's output): blending 0,
// the Phong images alone, differ by 1.19 levels and 3.7% of the pixels over
// 8 (VTK takes its gradients in texture space: TestCudaVolumePeerMappers);
// with scattering, which outweighs them, by 0.05-0.73 and at most 2.8%.
static const double SHADED_MEAN_LEVELS = 1.5, SHADED_OVER = 0.06;
static const double SCATTERING_MEAN_LEVELS = 1.0, SCATTERING_OVER = 0.04;
// the change against blending 0, ours against VTK's: 0.97-1.19 of it
static const double CHANGE_RATIO = 0.25;

namespace
{
// The mean difference in levels between viewports a and b of one window image.
double ViewportChange(vtkImageData* image, const double a[4], const double b[4], int width, int height)
{
  vtkSmartPointer<vtkImageData> parts[2];
  const double* bounds[2] = { a, b };
  for (int i = 0; i < 2; ++i)
  {
    vtkNew<vtkExtractVOI> voi;
    voi->SetInputData(image);
    voi->SetVOI(static_cast<int>(bounds[i][0] * width + 0.5),
      static_cast<int>(bounds[i][2] * width + 0.5) - 1, static_cast<int>(bounds[i][1] * height + 0.5),
      static_cast<int>(bounds[i][3] * height + 0.5) - 1, 0, 0);
    voi->Update();
    parts[i] = vtkSmartPointer<vtkImageData>::New();
    parts[i]->DeepCopy(voi->GetOutput());
    parts[i]->SetOrigin(0, 0, 0);
  }
  return cvrTest::Compare(parts[0], parts[1], 8).MeanLevels;
}
}

int TestCudaVolumeScattering(int argc, char* argv[])
{
  vtkNew<vtkRTAnalyticSource> wavelet;
  wavelet->SetWholeExtent(-15, 16, -15, 16, -15, 16);
  wavelet->Update();
  vtkImageData* image = wavelet->GetOutput();
  const struct
  {
    const char* Name;
    float Blending, Reach, Anisotropy;
    bool SceneLights;
  } cases[] = {
    { "blending 0", 0.0f, 0.0f, 0.0f, false },
    { "blending 1, reach 0", 1.0f, 0.0f, 0.0f, false },
    { "blending 1, reach 0.4, anisotropy 0.5", 1.0f, 0.4f, 0.5f, false },
    { "blending 2, reach 0.4", 2.0f, 0.4f, 0.0f, false },
    { "blending 0.6, reach 0.4, anisotropy -0.4", 0.6f, 0.4f, -0.4f, false },
    { "blending 1.4, reach 0.3, scene lights", 1.4f, 0.3f, 0.3f, true },
  };
  cvrTest::PeerViewports scene(600, 400, 3, 2);
  std::vector<vtkSmartPointer<vtkVolumeProperty>> properties;
  std::vector<vtkSmartPointer<vtkLight>> lights;
  for (const auto& c : cases)
  {
    auto property = vtkSmartPointer<vtkVolumeProperty>::New();
    cvrTest::SetRamp(property, 120, 260, 0.5);
    property->SetShade(1);
    property->SetAmbient(0.2);
    property->SetDiffuse(0.8);
    property->SetSpecular(0.3);
    property->SetScatteringAnisotropy(c.Anisotropy);
    properties.push_back(property);
    cvrTest::PeerViewports::Viewport& v =
      scene.Add(c.Name, image, property, 0.5, 30, 20, false, [&](vtkVolumeMapper* m) {
        auto* gpu = vtkGPUVolumeRayCastMapper::SafeDownCast(m);
        gpu->SetVolumetricScatteringBlending(c.Blending);
        gpu->SetGlobalIlluminationReach(c.Reach);
      });
    v.MeanBound = c.Blending > 0.0f ? SCATTERING_MEAN_LEVELS : SHADED_MEAN_LEVELS;
    v.OverBound = c.Blending > 0.0f ? SCATTERING_OVER : SHADED_OVER;
    if (c.SceneLights) // a directional light from the upper left and a spot
    {
      for (int i = 0; i < 2; ++i)
      {
        auto light = vtkSmartPointer<vtkLight>::New();
        light->SetLightTypeToSceneLight();
        light->SetPosition(i ? 60.0 : -80.0, i ? 10.0 : 60.0, i ? 30.0 : 40.0);
        light->SetFocalPoint(0.0, 0.0, 0.0);
        light->SetPositional(i == 1);
        light->SetConeAngle(i ? 35.0 : 30.0);
        light->SetColor(i ? 1.0 : 0.6, 0.8, i ? 0.6 : 1.0);
        v.Renderer->AddLight(light);
        lights.push_back(light);
      }
    }
  }
  bool ok = scene.RenderAndCompare();

  // what scattering changes, ours against VTK's
  vtkSmartPointer<vtkImageData> ours = cvrTest::Grab(scene.Window);
  for (auto& v : scene.Viewports)
  {
    v.Volume->SetMapper(v.OpenGL);
  }
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> opengl = cvrTest::Grab(scene.Window);
  for (auto& v : scene.Viewports)
  {
    v.Volume->SetMapper(v.Ours);
  }
  const double* off = scene.Viewports[0].Bounds.data();
  for (size_t i = 1; i < scene.Viewports.size(); ++i)
  {
    if (cases[i].SceneLights)
    {
      continue; // other lights: not the first viewport's image
    }
    const double* on = scene.Viewports[i].Bounds.data();
    const double mine = ViewportChange(ours, off, on, scene.Width, scene.Height);
    const double vtks = ViewportChange(opengl, off, on, scene.Width, scene.Height);
    const bool pass = vtks > 1.0 && std::fabs(mine - vtks) <= CHANGE_RATIO * vtks;
    std::printf("%-44s changes the image by %.3f levels, VTK's by %.3f: %s\n",
      scene.Viewports[i].Name.c_str(), mine, vtks, pass ? "ok" : "NOT AS VTK");
    ok &= pass;
  }
  scene.Window->Render();
  return scene.CompareWithBaseline(argc, argv, ok);
}
