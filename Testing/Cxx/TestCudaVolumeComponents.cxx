// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Multi-component data (after VTK's TestGPURayCastFourComponents*,
// ...TwoComponentsDependent and ...TwoComponentsIndependent): VTK's
// vase_4comp.vti (four 8-bit components) and bonsai made into two components
// (its values and their reverse, vtkImageAppendComponents), rendered by
// vtkCudaVolumeMapper and by VTK's vtkOpenGLGPUVolumeRayCastMapper, which
// must agree within the peer bound (mean at most 0.5 levels, at most 1% of
// the pixels over 8; shaded 1.0 and 3%, as TestCudaVolumeClipping's; bonsai's
// two components 0.75 and 2%) in every viewport:
//  - the vase as RGBA (dependent), perspective and parallel;
//  - the vase as four independent components, red, green, blue and grey;
//  - bonsai as luminance + alpha (dependent: colour from the values, opacity
//    from their reverse);
//  - bonsai's two independent components, red and blue, and the same
//    shaded (each lit by its own gradient).
// With every weight 0 nothing is drawn where weights 1 draw the vase, and no
// warning or error is reported.
#include "cvrPeerViewports.h"
#include "vtkColorTransferFunction.h"
#include "vtkImageAppendComponents.h"
#include "vtkImageShiftScale.h"
#include "vtkPiecewiseFunction.h"
#include "vtkPointData.h"
#include "vtkXMLImageDataReader.h"

namespace
{
// A colour ramp from `from` to `to` and an opacity ramp over [lo, hi] (0 to
// maxOpacity), as component c's functions.
void SetComponent(vtkVolumeProperty* p, int c, double lo, double hi, double maxOpacity,
  const double from[3], const double to[3])
{
  vtkNew<vtkColorTransferFunction> colour;
  colour->AddRGBPoint(lo, from[0], from[1], from[2]);
  colour->AddRGBPoint(hi, to[0], to[1], to[2]);
  vtkNew<vtkPiecewiseFunction> opacity;
  opacity->AddPoint(lo, 0.0);
  opacity->AddPoint(hi, maxOpacity);
  p->SetColor(c, colour);
  p->SetScalarOpacity(c, opacity);
}
}

int TestCudaVolumeComponents(int argc, char* argv[])
{
  const std::string vaseFile = cvrTest::DataFile(argc, argv, "vtk/vase_4comp.vti");
  const std::string bonsaiFile = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (vaseFile.empty() || bonsaiFile.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkNew<vtkXMLImageDataReader> reader;
  reader->SetFileName(vaseFile.c_str());
  reader->Update();
  vtkImageData* vase = reader->GetOutput();
  vtkSmartPointer<vtkImageData> bonsai = cvrTest::ReadNifti(bonsaiFile);
  vtkNew<vtkImageShiftScale> reverse; // 255 - v
  reverse->SetInputData(bonsai);
  reverse->SetShift(-255.0);
  reverse->SetScale(-1.0);
  reverse->SetOutputScalarTypeToUnsignedChar();
  vtkNew<vtkImageAppendComponents> append;
  append->AddInputData(bonsai);
  append->AddInputConnection(reverse->GetOutputPort());
  append->Update();
  vtkImageData* two = append->GetOutput();
  double spacing[3];
  bonsai->GetSpacing(spacing);
  const double dt = 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));

  const double red[3] = { 1.0, 0.2, 0.1 }, orange[3] = { 1.0, 0.7, 0.3 };
  const double blue[3] = { 0.1, 0.3, 1.0 }, cyan[3] = { 0.4, 0.9, 1.0 };
  const double green[3] = { 0.1, 0.8, 0.2 }, white[3] = { 1.0, 1.0, 1.0 };
  // the vase as RGBA: opacity from the fourth component (VTK's test's ramp)
  vtkNew<vtkVolumeProperty> rgba;
  rgba->IndependentComponentsOff();
  SetComponent(rgba, 0, 0, 255, 1.0, white, white);
  // the vase's components each on its own
  vtkNew<vtkVolumeProperty> four;
  SetComponent(four, 0, 0, 255, 0.3, red, orange);
  SetComponent(four, 1, 0, 255, 0.3, green, white);
  SetComponent(four, 2, 0, 255, 0.3, blue, cyan);
  SetComponent(four, 3, 0, 255, 0.3, white, white);

  vtkNew<vtkVolumeProperty> fourAll, fourNone; // the same with every weight 1, and 0
  fourAll->DeepCopy(four);
  fourAll->SetComponentWeight(3, 1.0);
  fourNone->DeepCopy(four);
  for (int c = 0; c < 4; ++c)
  {
    fourNone->SetComponentWeight(c, 0.0);
  }
  // bonsai: luminance + alpha, colour from the values (over their range),
  // opacity from their reverse (high where bonsai is low)
  vtkNew<vtkVolumeProperty> la;
  la->IndependentComponentsOff();
  {
    vtkNew<vtkColorTransferFunction> colour;
    colour->AddRGBPoint(0, 0.2, 0.3, 1.0);
    colour->AddRGBPoint(255, 1.0, 0.9, 0.3);
    vtkNew<vtkPiecewiseFunction> opacity; // over the reverse: bonsai's 30..180
    opacity->AddPoint(75, 0.5);
    opacity->AddPoint(225, 0.0);
    la->SetColor(0, colour);
    la->SetScalarOpacity(0, opacity);
  }
  // bonsai's two components independent, red and blue
  vtkNew<vtkVolumeProperty> independent, lit;
  for (vtkVolumeProperty* p : { independent.Get(), lit.Get() })
  {
    SetComponent(p, 0, 30, 180, 0.5, red, orange);
    SetComponent(p, 1, 75, 225, 0.3, blue, cyan);
  }
  lit->ShadeOn();
  lit->SetShade(1, 1);

  auto blend = [](int mode) {
    return [mode](vtkVolumeMapper* m) { m->SetBlendMode(mode); };
  };
  double vaseSpacing[3];
  vase->GetSpacing(vaseSpacing);
  const double vaseDt = 0.5 * vaseSpacing[0];
  cvrTest::PeerViewports scene(600, 600, 3, 3);
  scene.Add("vase RGBA", vase, rgba, vaseDt, 30, 20, false, blend(vtkVolumeMapper::COMPOSITE_BLEND));
  scene.Add("vase RGBA, parallel", vase, rgba, vaseDt, -40, 10, true,
    blend(vtkVolumeMapper::COMPOSITE_BLEND));
  scene.Add("vase, 4 independent", vase, fourAll, vaseDt, 30, 20, false,
    blend(vtkVolumeMapper::COMPOSITE_BLEND));
  scene.Add("vase, 4 independent, parallel", vase, fourAll, vaseDt, 120, -20, true,
    blend(vtkVolumeMapper::COMPOSITE_BLEND));
  // two 8-bit channels in VTK's texture: a little over the one-component
  // bound (measured 0.537 levels, 0.44%; 0.263 levels, 1.155%)
  auto& luminance = scene.Add("bonsai luminance + alpha", two, la, dt, 30, 20, false,
    blend(vtkVolumeMapper::COMPOSITE_BLEND));
  luminance.MeanBound = 0.75;
  luminance.OverBound = 0.02;
  auto& pair = scene.Add("bonsai, 2 independent, parallel", two, independent, dt, 120, -20, true,
    blend(vtkVolumeMapper::COMPOSITE_BLEND));
  pair.MeanBound = 0.75;
  pair.OverBound = 0.02;
  auto& shaded = scene.Add("bonsai, 2 independent, shaded", two, lit, dt, -60, 30, false,
    blend(vtkVolumeMapper::COMPOSITE_BLEND));
  shaded.MeanBound = 1.0; // TestCudaVolumePeerMappers's shaded bound
  shaded.OverBound = 0.03;
  scene.Add("vase, 4 independent, every weight 0", vase, fourNone, vaseDt, 30, 20, false,
    blend(vtkVolumeMapper::COMPOSITE_BLEND));

  scene.CollectMessages();
  bool ok = scene.RenderAndCompare();

  // the weights count: every weight 0 (viewport 7) shows nothing where
  // weights 1 (viewport 2, the same view) show the vase
  // (the window's ninth cell has no renderer: black, counted in each)
  const long empty = scene.VisibleWith(-1);
  const long none = scene.VisibleWith(7) - empty, all = scene.VisibleWith(2) - empty;
  std::printf("visible pixels: every weight 0 %ld, every weight 1 %ld\n", none, all);
  if (!(none == 0 && all > 1000))
  {
    std::printf("weights 0 should take every component out\n");
    ok = false;
  }
  ok &= scene.NoUnexpectedMessages();
  return scene.CompareWithBaseline(argc, argv, ok);
}
