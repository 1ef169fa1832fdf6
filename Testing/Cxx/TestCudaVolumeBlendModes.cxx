// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Blend modes (after VTK's TestGPURayCastBlendModes): composite, maximum,
// minimum and average intensity, and additive, each in its own viewport,
// rendered by vtkCudaVolumeMapper and by VTK's vtkOpenGLGPUVolumeRayCastMapper
// (jittering off, the same sample distance), which must agree within the
// peer tolerance of TestCudaVolumePeerMappers (mean at most 0.5 levels, at
// most 1% of the pixels over 8) in every viewport. Real data (bonsai) and
// VTK's wavelet source, whose minima vary from ray to ray (bonsai's empty
// border makes every ray's minimum zero; the wavelet's minima lie in -31..57).
#include "cvrPeerViewports.h"
#include "vtkRTAnalyticSource.h"
#include "vtkTestErrorObserver.h"

namespace
{
struct Case
{
  const char* Name;
  int BlendMode;
  bool Wavelet;  // VTK's wavelet source instead of bonsai
  double Lo, Hi; // the ramp's range (cvrTest::SetRamp)
  double MaxOpacity;
  bool Parallel;
};
}

int TestCudaVolumeBlendModes(int argc, char* argv[])
{
  const std::string bonsaiFile = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (bonsaiFile.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> bonsai = cvrTest::ReadNifti(bonsaiFile);
  vtkNew<vtkRTAnalyticSource> waveletSource;
  waveletSource->SetWholeExtent(0, 63, 0, 63, 0, 63);
  waveletSource->Update();
  vtkImageData* wavelet = waveletSource->GetOutput();

  const Case cases[] = {
    { "composite", vtkVolumeMapper::COMPOSITE_BLEND, false, 30, 180, 0.5, false },
    { "maximum intensity", vtkVolumeMapper::MAXIMUM_INTENSITY_BLEND, false, 30, 180, 1.0, false },
    { "minimum intensity", vtkVolumeMapper::MINIMUM_INTENSITY_BLEND, true, -40, 60, 1.0, false },
    { "average intensity", vtkVolumeMapper::AVERAGE_INTENSITY_BLEND, false, 30, 180, 1.0, false },
    { "additive", vtkVolumeMapper::ADDITIVE_BLEND, false, 30, 180, 0.05, false },
    { "maximum intensity, wavelet, parallel", vtkVolumeMapper::MAXIMUM_INTENSITY_BLEND, true, 60,
      260, 1.0, true },
  };
  cvrTest::PeerViewports scene(600, 400, 3, 2);
  std::vector<vtkSmartPointer<vtkVolumeProperty>> properties;
  for (const Case& c : cases)
  {
    vtkImageData* image = c.Wavelet ? wavelet : bonsai.Get();
    double spacing[3];
    image->GetSpacing(spacing);
    // the wavelet's extremes lie on the box's faces, which a sample reaches
    // within a step: a finer step there
    const double dt = (c.Wavelet ? 0.25 : 0.5) * std::min(spacing[0], std::min(spacing[1], spacing[2]));
    auto property = vtkSmartPointer<vtkVolumeProperty>::New();
    cvrTest::SetRamp(property, c.Lo, c.Hi, c.MaxOpacity);
    properties.push_back(property);
    scene.Add(c.Name, image, property, dt, 30, 20, c.Parallel, [&](vtkVolumeMapper* m) {
      m->SetBlendMode(c.BlendMode);
      m->SetAverageIPScalarRange(40, 255); // bonsai's empty border stays out of the mean
    });
  }
  bool ok = scene.RenderAndCompare();
  vtkCudaVolumeMapper* ours[2] = { scene.Viewports[0].Ours, scene.Viewports[1].Ours };

  // what the mapper does not do is said, not skipped silently:
  // 2D transfer-function mode without a 2D function a warning, once;
  // with CUDA, a strategy that composites only says which one renders
  // maximum intensity, and the slab which one renders jittering
  vtkNew<vtkTest::ErrorObserver> observer;
  for (vtkCudaVolumeMapper* m : ours)
  {
    m->AddObserver(vtkCommand::ErrorEvent, observer);
    m->AddObserver(vtkCommand::WarningEvent, observer);
  }
  properties[0]->SetTransferFunctionMode(vtkVolumeProperty::TF_2D);
  scene.Window->Render();
  ok &= observer->CheckWarningMessage("2D transfer-function mode but has no 2D transfer function "
                                      "(SetTransferFunction2D): rendered with the 1D functions") == 0;
  scene.Window->Render();
  ok &= !observer->GetWarning(); // once
  properties[0]->SetTransferFunctionMode(vtkVolumeProperty::TF_1D);
  if (std::string(ours[1]->GetLastConfiguration()).compare(0, 4, "cuda") == 0)
  {
    ours[1]->SetStrategy(vtkCudaVolumeMapper::STRATEGY_SLAB);
    scene.Window->Render();
    ok &= observer->CheckWarningMessage("the slab strategy composites only: maximum intensity "
                                        "blending renders with the standard strategy") == 0;
    ours[0]->SetStrategy(vtkCudaVolumeMapper::STRATEGY_SLAB);
    ours[0]->SetUseJittering(1);
    scene.Window->Render();
    ok &= observer->CheckWarningMessage("the slab strategy needs its rays on one lattice: "
                                        "jittering renders with the standard strategy") == 0;
    ours[0]->SetUseJittering(0);
  }
  ok &= !observer->GetError();
  scene.Window->Render();
  return scene.CompareWithBaseline(argc, argv, ok);
}
