// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// 2D transfer functions over two arrays (after VTK's
// TestGPURayCastTransfer2DYScalars): the cranium CT with a second point array,
// the CT smoothed (a Gaussian of two voxels: the local mean density), as the
// function's y axis (vtkGPUVolumeRayCastMapper::SetTransfer2DYAxisArray), so
// that bone whose neighbourhood is bone (thick) and bone whose neighbourhood
// is soft tissue (thin edges, the skull's inner table) take different colours.
// Each viewport is rendered by vtkCudaVolumeMapper and by VTK's
// vtkOpenGLGPUVolumeRayCastMapper, which must agree within the peer
// tolerance of TestCudaVolumePeerMappers (no gradient decides a class here):
//  - thick bone white, thin bone orange, soft tissue faint;
//  - the same, shaded;
//  - only thin bone, from another side;
//  - a coarse 32 x 16 function, which both mappers resize to 1024 a side.
// Then: the same function with the gradient as its y axis (no array) renders
// another image; the y axis array's values changed in place (Modified) move
// the image, and back; a y axis array the input lacks is said once, and the
// gradient magnitude is the y axis.
#include "cvrPeerViewports.h"
#include "cvrTransfer2D.h"
#include "vtkImageGaussianSmooth.h"
#include "vtkPointData.h"
#include <cmath>

int TestCudaVolumeTransfer2DYAxis(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "ct/cranium_ct.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> ct = cvrTest::ReadNifti(file);
  vtkNew<vtkImageGaussianSmooth> smooth;
  smooth->SetInputData(ct);
  smooth->SetStandardDeviations(2.0, 2.0, 2.0);
  smooth->SetRadiusFactors(2.0, 2.0, 2.0);
  smooth->Update();
  vtkDataArray* smoothed = smooth->GetOutput()->GetPointData()->GetScalars();
  smoothed->SetName("smoothed");
  ct->GetPointData()->GetScalars()->SetName("ct");
  ct->GetPointData()->AddArray(smoothed);
  double spacing[3], range[2], yRange[2];
  ct->GetSpacing(spacing);
  ct->GetPointData()->GetScalars()->GetFiniteRange(range);
  smoothed->GetFiniteRange(yRange);
  const double dt = 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));
  const std::vector<cvrTest::Box2D> boneAndTissue = {
    { { 0, 80 }, { -100, 150 }, { 0.9, 0.5, 0.4, 0.04 } },      // soft tissue
    { { 500, 2000 }, { 400, 2000 }, { 1.0, 1.0, 0.95, 0.5 } },  // thick bone
    { { 500, 2000 }, { -500, 250 }, { 1.0, 0.55, 0.15, 0.5 } }, // thin bone
  };
  const std::vector<cvrTest::Box2D> thinBone = { { { 400, 2000 }, { -500, 250 }, { 1.0, 0.6, 0.2, 0.6 } } };
  auto make = [&](int width, int height, const std::vector<cvrTest::Box2D>& boxes) {
    return cvrTest::MakeTransfer2D(width, height, range, yRange, 0.04, 0.04, boxes);
  };
  vtkSmartPointer<vtkImageData> functions[] = { make(256, 256, boneAndTissue),
    make(256, 256, boneAndTissue), make(256, 256, thinBone), make(32, 16, boneAndTissue) };
  const struct
  {
    const char* Name;
    bool Shade;
    double Azimuth;
  } cases[] = {
    { "2D over two arrays: bone, thick and thin", false, 40 },
    { "2D over two arrays, shaded", true, 40 },
    { "2D over two arrays: thin bone", false, -60 },
    { "2D over two arrays: coarse (32 x 16)", false, 40 },
  };
  cvrTest::PeerViewports scene(600, 400, 2, 2);
  for (int i = 0; i < 4; ++i)
  {
    auto property = vtkSmartPointer<vtkVolumeProperty>::New();
    cvrTest::SetRamp(property, 100, 1500, 0.6); // the 1D functions, unused in TF_2D mode
    property->SetInterpolationTypeToLinear();
    property->SetShade(cases[i].Shade);
    property->SetTransferFunction2D(functions[i]);
    property->SetTransferFunctionMode(vtkVolumeProperty::TF_2D);
    cvrTest::PeerViewports::Viewport& v = scene.Add(cases[i].Name, ct, property, dt,
      cases[i].Azimuth, 25, false, [](vtkVolumeMapper* m) {
        auto* gpu = vtkGPUVolumeRayCastMapper::SafeDownCast(m);
        gpu->SetScalarModeToUsePointFieldData();
        gpu->SelectScalarArray("ct");
        gpu->SetTransfer2DYAxisArray("smoothed");
      });
    // the boxes' edges are steep in both values, which move with the sample
    // positions (VTK's lattice starts one step into each ray, ours is
    // global): up to 2% of the pixels over 8 levels (measured on Mesa, CPU
    // backend: 0.11 levels and 0.6% over 8, thin bone 0.18 and 0.99%); the
    // coarse function through both mappers' sinc resize 0.85 and 6.9%
    // (TestCudaVolumeTransfer2D's coarse bound); shaded, where both take
    // their own gradients, 0.77 and 3.6%
    v.OverBound = 0.02;
    if (i == 3)
    {
      v.MeanBound = 1.3;
      v.OverBound = 0.08;
    }
    if (cases[i].Shade) // TestCudaVolumeTransfer2D's shaded bound
    {
      v.MeanBound = 1.0;
      v.OverBound = 0.06;
    }
  }
  scene.CollectMessages();
  bool ok = scene.RenderAndCompare();
  ok &= scene.NoUnexpectedMessages();
  for (int i = 0; i < 4; ++i)
  {
    const long visible = scene.VisibleWith(i) - scene.VisibleWith(-1);
    std::printf("%s: %ld pixels show the volume\n", cases[i].Name, visible);
    ok &= visible > 2000;
  }
  vtkSmartPointer<vtkImageData> before = cvrTest::Grab(scene.Window);
  cvrTest::PeerViewports::Viewport& first = scene.Viewports[0];
  auto inViewport = [&](vtkImageData* a, vtkImageData* b) {
    return cvrTest::CompareViewport(a, b, first.Bounds.data(), scene.Width, scene.Height, 8);
  };

  // the gradient as the y axis: another image
  first.Ours->SetTransfer2DYAxisArray(nullptr);
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> byGradient = cvrTest::Grab(scene.Window);
  const cvrTest::ImageDifference gradient = inViewport(before, byGradient);
  std::printf("the gradient as the y axis instead: mean %.3f levels\n", gradient.MeanLevels);
  ok &= gradient.MeanLevels > 2.0;
  first.Ours->SetTransfer2DYAxisArray("smoothed");

  // the y axis array's values moved up in place: thin bone reads as thick
  std::vector<double> saved(static_cast<size_t>(smoothed->GetNumberOfTuples()));
  for (vtkIdType i = 0; i < smoothed->GetNumberOfTuples(); ++i)
  {
    saved[static_cast<size_t>(i)] = smoothed->GetComponent(i, 0);
    smoothed->SetComponent(i, 0, std::min(saved[static_cast<size_t>(i)] + 600.0, yRange[1]));
  }
  smoothed->Modified();
  scene.Window->Render();
  const cvrTest::ImageDifference moved = inViewport(before, cvrTest::Grab(scene.Window));
  for (vtkIdType i = 0; i < smoothed->GetNumberOfTuples(); ++i)
  {
    smoothed->SetComponent(i, 0, saved[static_cast<size_t>(i)]);
  }
  smoothed->Modified();
  scene.Window->Render();
  const cvrTest::ImageDifference back = inViewport(before, cvrTest::Grab(scene.Window));
  std::printf("y axis values moved: mean %.3f levels; back: %.3f\n", moved.MeanLevels,
    back.MeanLevels);
  ok &= moved.MeanLevels > 2.0 && back.MeanLevels == 0.0;

  // an array the input lacks: said once, the gradient is the y axis
  first.Ours->SetTransfer2DYAxisArray("no such array");
  scene.Window->Render();
  scene.Window->Render();
  const cvrTest::ImageDifference missing = inViewport(byGradient, cvrTest::Grab(scene.Window));
  int said = 0;
  for (const std::string& m : scene.Messages)
  {
    said += m.find("no such array is not among the point arrays") != std::string::npos;
  }
  std::printf("a missing y axis array: said %d times; mean %.3f levels from the gradient's "
              "image\n",
    said, missing.MeanLevels);
  ok &= said == 1 && missing.MeanLevels == 0.0;
  first.Ours->SetTransfer2DYAxisArray("smoothed");
  scene.Window->Render();
  return scene.CompareWithBaseline(argc, argv, ok);
}
