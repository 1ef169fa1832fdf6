// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Gradient opacity and jittering (after VTK's TestGPURayCastGradientOpacity
// and TestGPURayCastJittering): gradient opacity unshaded and shaded, with
// the NATIVE range type, disabled (DisableGradientOpacity), and on an
// isosurface, each in its own viewport of the cranium CT, rendered by
// vtkCudaVolumeMapper and by VTK's vtkOpenGLGPUVolumeRayCastMapper, which
// must agree within the peer tolerance of TestCudaVolumePeerMappers in every
// viewport (shaded: 1 level and 6%; the isosurface TestCudaVolumeIsosurface's). Jittering (the sixth viewport) moves
// every ray by its own fraction of a sample: ours and VTK's noise differ
// pixel by pixel, so there the mean only is held (JITTER_MEAN_LEVELS), and
// the jittered image must differ from the unjittered one (it is not ignored).
#include "cvrPeerViewports.h"
#include "vtkContourValues.h"

// measured on Mesa with the CPU backend: see the test's output
static const double JITTER_MEAN_LEVELS = 1.5;

int TestCudaVolumeGradientOpacity(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "ct/cranium_ct.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> ct = cvrTest::ReadNifti(file);
  double spacing[3];
  ct->GetSpacing(spacing);
  const double dt = 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));
  enum Kind
  {
    Plain,
    Native,
    Disabled,
    Isosurface,
    Jitter
  };
  const struct
  {
    const char* Name;
    Kind What;
    bool Shade;
  } cases[] = {
    { "gradient opacity", Plain, false },
    { "gradient opacity, shaded", Plain, true },
    { "gradient opacity, native range", Native, false },
    { "gradient opacity disabled", Disabled, false },
    { "gradient opacity, isosurface", Isosurface, false },
    { "jittering, gradient opacity", Jitter, false },
  };
  cvrTest::PeerViewports scene(600, 400, 3, 2);
  std::vector<vtkSmartPointer<vtkVolumeProperty>> properties;
  for (const auto& c : cases)
  {
    auto property = vtkSmartPointer<vtkVolumeProperty>::New();
    cvrTest::SetRamp(property, 100, 1500, 0.6);
    property->SetShade(c.Shade);
    vtkNew<vtkPiecewiseFunction> go; // keeps the surfaces, drops the flat insides
    go->AddPoint(0.0, 0.0);
    go->AddPoint(c.What == Native ? 200.0 : 60.0, 0.0);
    go->AddPoint(c.What == Native ? 1200.0 : 250.0, 1.0);
    property->SetGradientOpacity(go);
    property->SetDisableGradientOpacity(c.What == Disabled);
    property->GetIsoSurfaceValues()->SetValue(0, 700.0);
    properties.push_back(property);
    cvrTest::PeerViewports::Viewport& v =
      scene.Add(c.Name, ct, property, dt, 40, 25, false, [&](vtkVolumeMapper* m) {
        auto* gpu = vtkGPUVolumeRayCastMapper::SafeDownCast(m);
        if (c.What == Native)
        {
          gpu->SetGradientOpacityRangeType(vtkGPUVolumeRayCastMapper::NATIVE);
        }
        if (c.What == Isosurface)
        {
          m->SetBlendMode(vtkVolumeMapper::ISOSURFACE_BLEND);
        }
        gpu->SetUseJittering(c.What == Jitter);
      });
    if (c.Shade) // shading and gradient opacity both take VTK's gradients, which
    {            // differ from ours: their differences add up (measured 0.81, 4.0%)
      v.MeanBound = 1.0;
      v.OverBound = 0.06;
    }
    if (c.What == Isosurface) // TestCudaVolumeIsosurface's bounds
    {
      v.MeanBound = 0.5;
      v.OverBound = 0.04;
    }
    if (c.What == Jitter)
    {
      v.MeanBound = JITTER_MEAN_LEVELS;
      v.OverBound = 1.0;
    }
  }
  bool ok = scene.RenderAndCompare();

  // the jittered viewport against itself unjittered: jittering is not ignored
  cvrTest::PeerViewports::Viewport& jittered = scene.Viewports.back();
  vtkSmartPointer<vtkImageData> with = cvrTest::Grab(scene.Window);
  jittered.Ours->SetUseJittering(0);
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> without = cvrTest::Grab(scene.Window);
  const cvrTest::ImageDifference d = cvrTest::CompareViewport(
    with, without, jittered.Bounds.data(), scene.Width, scene.Height, 8);
  std::printf("jittered against unjittered: mean %.3f levels, %.3f%% over 8\n", d.MeanLevels,
    100.0 * d.FractionOver);
  ok &= d.MeanLevels > 0.05;
  jittered.Ours->SetUseJittering(1);
  scene.Window->Render();
  return scene.CompareWithBaseline(argc, argv, ok);
}
