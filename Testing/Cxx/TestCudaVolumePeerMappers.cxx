// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Peer check: the same scenes rendered by vtkCudaVolumeMapper, by VTK's
// vtkOpenGLGPUVolumeRayCastMapper (Mesa here; jittering off, the same sample
// distance) and by vtkFixedPointVolumeRayCastMapper must agree.
//
// Tolerance, in 8-bit RGB levels over the whole window:
//  - against the OpenGL mapper: mean difference at most 0.5 levels and at
//    most 1% of the pixels off by more than 8 levels (measured with Mesa:
//    mean 0.06-0.13, at most 0.3% over 8);
//  - against the fixed-point mapper: mean at most 1.5 levels and at most 2%
//    of the pixels off by more than 24 levels (measured: mean 0.5-0.6, at
//    most 0.7% over 24): it quantizes scalars and opacities to 15 bits.
// The remaining differences sit at thin, bright edges (transfer-function
// interpolation, 8-bit framebuffers). A wrong camera, matrix, spacing,
// direction or opacity correction moves whole regions and fails the bound.
// With shading, the bound against the OpenGL mapper is a mean of 1 level and
// 3% of the pixels over 8 (measured: 0.38 and 1.5%): VTK takes gradients in
// texture space with its own step and sign conventions, we take them per
// voxel and turn them into world space; the lit colours agree to a few levels
// except along fine branches.
// Where the image has a direction matrix, the fixed-point mapper is not
// compared: VTK 9.2's fixed-point mapper ignores vtkImageData's direction
// (its image then differs from the OpenGL mapper's as much as from ours).
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"
#include "vtkCamera.h"
#include "vtkCudaVolumeMapper.h"
#include "vtkFixedPointVolumeRayCastMapper.h"
#include "vtkMatrix3x3.h"
#include "vtkOpenGLGPUVolumeRayCastMapper.h"
#include "vtkRegressionTestImage.h"
#include "vtkRenderWindowInteractor.h"
#include "vtkRenderer.h"
#include "vtkTransform.h"
#include "vtkVolume.h"

namespace
{
struct Scene
{
  const char* File;
  double Lo, Hi;
  bool Parallel;
  bool Transform; // rotate, scale and move the prop, and give the image a direction
  bool Shade;     // Phong shading under the renderer's default headlight
};

bool Check(const char* what, const cvrTest::ImageDifference& d, double maxMean, double maxOver)
{
  const bool ok = d.MeanLevels <= maxMean && d.FractionOver <= maxOver;
  std::printf("%-58s mean %.2f levels, %.2f%% over %d levels: %s\n", what, d.MeanLevels,
    100.0 * d.FractionOver, d.Threshold, ok ? "ok" : "OUTSIDE THE TOLERANCE");
  return ok;
}
}

int TestCudaVolumePeerMappers(int argc, char* argv[])
{
  const Scene scenes[] = {
    { "scivis/bonsai.nii.gz", 30, 180, false, false, false },
    { "ct/cranium_ct.nii.gz", 100, 1500, true, false, false },
    { "mri/avm_mra_337x319x154.nii.gz", 60, 200, false, true, false },
    { "mri/avm_mra_337x319x154.nii.gz", 60, 200, false, false, false },
    { "scivis/bonsai.nii.gz", 30, 180, false, false, true },
  };
  vtkNew<vtkRenderWindow> window;
  window->SetSize(256, 256);
  window->SetMultiSamples(0);
  vtkNew<vtkRenderer> ren;
  ren->SetBackground(0.1, 0.1, 0.15);
  window->AddRenderer(ren);
  vtkNew<vtkRenderWindowInteractor> iren;
  iren->SetRenderWindow(window);

  bool ok = true;
  int ran = 0;
  for (const Scene& s : scenes)
  {
    const std::string file = cvrTest::DataFile(argc, argv, s.File);
    if (file.empty())
    {
      continue;
    }
    ++ran;
    vtkSmartPointer<vtkImageData> image = cvrTest::ReadNifti(file);
    if (s.Transform)
    {
      vtkNew<vtkMatrix3x3> direction; // a quarter turn about z
      direction->SetElement(0, 0, 0);
      direction->SetElement(0, 1, -1);
      direction->SetElement(1, 0, 1);
      direction->SetElement(1, 1, 0);
      image->SetDirectionMatrix(direction);
    }
    double spacing[3];
    image->GetSpacing(spacing);
    const double dt = 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));

    vtkNew<vtkCudaVolumeMapper> ours;
    vtkNew<vtkOpenGLGPUVolumeRayCastMapper> opengl;
    vtkNew<vtkFixedPointVolumeRayCastMapper> fixed;
    vtkVolumeMapper* mappers[3] = { ours, opengl, fixed };
    ours->SetAutoAdjustSampleDistances(0);
    ours->SetSampleDistance(dt);
    opengl->SetAutoAdjustSampleDistances(0);
    opengl->SetSampleDistance(dt);
    opengl->SetUseJittering(0);
    fixed->SetAutoAdjustSampleDistances(0);
    fixed->SetSampleDistance(dt);
    fixed->SetImageSampleDistance(1.0);
    fixed->SetInteractiveSampleDistance(dt);

    vtkNew<vtkVolumeProperty> property;
    cvrTest::SetRamp(property, s.Lo, s.Hi);
    property->SetShade(s.Shade);
    vtkNew<vtkVolume> volume;
    volume->SetProperty(property);
    if (s.Transform)
    {
      volume->SetOrientation(10, 25, -5);
      volume->SetScale(1.0, 1.2, 0.9);
      volume->SetPosition(5, -3, 2);
    }
    ren->RemoveAllViewProps();
    ren->AddVolume(volume);

    vtkSmartPointer<vtkImageData> frames[3];
    for (int m = 0; m < 3; ++m)
    {
      mappers[m]->SetInputData(image);
      volume->SetMapper(mappers[m]);
      if (m == 0)
      {
        ren->ResetCamera();
        ren->GetActiveCamera()->Azimuth(40);
        ren->GetActiveCamera()->Elevation(25);
        ren->GetActiveCamera()->SetParallelProjection(s.Parallel);
        ren->ResetCamera();
      }
      window->Render();
      frames[m] = cvrTest::Grab(window);
    }
    std::string what = std::string(s.File) + (s.Parallel ? ", parallel" : ", perspective") +
      (s.Transform ? ", transformed" : "") + (s.Shade ? ", shaded" : "");
    ok &= Check((what + " vs OpenGL").c_str(), cvrTest::Compare(frames[0], frames[1], 8),
      s.Shade ? 1.0 : 0.5, s.Shade ? 0.03 : 0.01);
    if (!s.Transform)
    {
      ok &= Check(
        (what + " vs fixed point").c_str(), cvrTest::Compare(frames[0], frames[2], 24), 1.5, 0.02);
    }
    volume->SetMapper(ours); // the regression image is ours, last scene
    window->Render();
  }
  if (!ran)
  {
    return VTK_SKIP_RETURN_CODE;
  }
  const int retVal = vtkRegressionTestImage(window);
  if (retVal == vtkRegressionTester::DO_INTERACTOR)
  {
    iren->Start();
  }
  return (ok && retVal) ? 0 : 1;
}
