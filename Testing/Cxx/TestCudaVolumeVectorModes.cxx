// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Multi-component scalars through the vector modes vtkSmartVolumeMapper
// offers (ParaView sets them from the colour map: "Magnitude", "X", "Y"...),
// each viewport against VTK's vtkOpenGLGPUVolumeRayCastMapper rendering what
// VTK's own filters make of the same array (vtkImageMagnitude,
// vtkImageExtractComponents), within the peer bound of
// TestCudaVolumePeerMappers:
//  - the gradient of the cranium CT (vtkImageGradient, three floats): its
//    magnitude, and its y component (signed);
//  - bonsai as two 8-bit components (half the value, the value): the second
//    component, in the array's own type (VTK's mapper renders the original
//    bonsai), and the magnitude.
// Then: nine components in magnitude mode (VTK's GPU mapper refuses more than
// four) render as three do; another component re-uploads the volume once and
// changes the image;
// the same component again uploads nothing, nor does a vector setting that
// selects nothing (the component in magnitude mode, any mode of one component).
#include "cvrPeerViewports.h"

#include "vtkImageCast.h"
#include "vtkImageExtractComponents.h"
#include "vtkImageGradient.h"
#include "vtkImageMagnitude.h"
#include "vtkPointData.h"
#include "vtkUnsignedCharArray.h"

namespace
{
/// bonsai as (value / 2, value), two unsigned chars per voxel.
vtkSmartPointer<vtkImageData> TwoComponents(vtkImageData* image)
{
  vtkDataArray* scalars = image->GetPointData()->GetScalars();
  vtkNew<vtkUnsignedCharArray> pairs;
  pairs->SetName("half and value");
  pairs->SetNumberOfComponents(2);
  pairs->SetNumberOfTuples(scalars->GetNumberOfTuples());
  for (vtkIdType i = 0; i < scalars->GetNumberOfTuples(); ++i)
  {
    const double v = scalars->GetComponent(i, 0);
    pairs->SetTypedComponent(i, 0, static_cast<unsigned char>(v / 2));
    pairs->SetTypedComponent(i, 1, static_cast<unsigned char>(v));
  }
  auto out = vtkSmartPointer<vtkImageData>::New();
  out->CopyStructure(image);
  out->GetPointData()->SetScalars(pairs);
  return out;
}

/// image's scalars `times` times over, side by side in each tuple.
vtkSmartPointer<vtkImageData> Repeat(vtkImageData* image, int times)
{
  vtkDataArray* scalars = image->GetPointData()->GetScalars();
  const int n = scalars->GetNumberOfComponents();
  vtkSmartPointer<vtkDataArray> repeated;
  repeated.TakeReference(scalars->NewInstance());
  repeated->SetName("repeated");
  repeated->SetNumberOfComponents(n * times);
  repeated->SetNumberOfTuples(scalars->GetNumberOfTuples());
  for (vtkIdType i = 0; i < scalars->GetNumberOfTuples(); ++i)
  {
    for (int c = 0; c < n * times; ++c)
    {
      repeated->SetComponent(i, c, scalars->GetComponent(i, c % n));
    }
  }
  auto out = vtkSmartPointer<vtkImageData>::New();
  out->CopyStructure(image);
  out->GetPointData()->SetScalars(repeated);
  return out;
}

vtkSmartPointer<vtkImageData> Magnitude(vtkImageData* image)
{
  vtkNew<vtkImageCast> cast; // VTK's magnitude keeps the input's type: 8 bits would wrap
  cast->SetInputData(image);
  cast->SetOutputScalarTypeToFloat();
  vtkNew<vtkImageMagnitude> magnitude;
  magnitude->SetInputConnection(cast->GetOutputPort());
  magnitude->Update();
  return magnitude->GetOutput();
}

vtkSmartPointer<vtkImageData> Component(vtkImageData* image, int c)
{
  vtkNew<vtkImageExtractComponents> extract;
  extract->SetInputData(image);
  extract->SetComponents(c);
  extract->Update();
  return extract->GetOutput();
}

double Dt(vtkImageData* image)
{
  double spacing[3];
  image->GetSpacing(spacing);
  return 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));
}
}

int TestCudaVolumeVectorModes(int argc, char* argv[])
{
  const std::string cranium = cvrTest::DataFile(argc, argv, "ct/cranium_ct.nii.gz");
  const std::string bonsai = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (cranium.empty() || bonsai.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  // a real vector field: the CT's gradient, in HU per mm
  vtkNew<vtkImageGradient> gradient;
  gradient->SetInputData(cvrTest::ReadNifti(cranium));
  gradient->SetDimensionality(3);
  vtkNew<vtkImageCast> toFloat;
  toFloat->SetInputConnection(gradient->GetOutputPort());
  toFloat->SetOutputScalarTypeToFloat();
  toFloat->Update();
  vtkSmartPointer<vtkImageData> field = toFloat->GetOutput();
  vtkSmartPointer<vtkImageData> fieldMagnitude = Magnitude(field);
  vtkSmartPointer<vtkImageData> fieldY = Component(field, 1);
  const double top = fieldMagnitude->GetScalarRange()[1];
  std::printf("cranium gradient: 3 x %s, magnitude up to %.1f\n",
    field->GetPointData()->GetScalars()->GetDataTypeAsString(), top);

  vtkSmartPointer<vtkImageData> plain = cvrTest::ReadNifti(bonsai);
  vtkSmartPointer<vtkImageData> pairs = TwoComponents(plain);
  vtkSmartPointer<vtkImageData> pairsMagnitude = Magnitude(pairs);

  const struct
  {
    const char* Name;
    vtkImageData* Ours;
    int Mode, Component;
    vtkImageData* Peer;
    double Lo, Hi;
  } cases[] = {
    { "cranium gradient, magnitude", field, vtkCudaVolumeMapper::VECTOR_MAGNITUDE, 0,
      fieldMagnitude, 0.08 * top, 0.4 * top },
    { "cranium gradient, y", field, vtkCudaVolumeMapper::VECTOR_COMPONENT, 1, fieldY, 0.05 * top,
      0.3 * top },
    { "bonsai (v/2, v), component 1", pairs, vtkCudaVolumeMapper::VECTOR_COMPONENT, 1, plain, 30,
      180 },
    { "bonsai (v/2, v), magnitude", pairs, vtkCudaVolumeMapper::VECTOR_MAGNITUDE, 0,
      pairsMagnitude, 1.118 * 30, 1.118 * 180 },
  };
  cvrTest::PeerViewports scene(600, 600, 2, 2);
  for (const auto& c : cases)
  {
    auto property = vtkSmartPointer<vtkVolumeProperty>::New();
    cvrTest::SetRamp(property, c.Lo, c.Hi, 0.6);
    cvrTest::PeerViewports::Viewport& v =
      scene.Add(c.Name, c.Ours, property, Dt(c.Ours), 30, 20, false, [](vtkVolumeMapper*) {});
    v.Ours->SetVectorMode(c.Mode);
    v.Ours->SetVectorComponent(c.Component);
    v.OpenGL->SetInputData(c.Peer);
  }
  bool ok = scene.RenderAndCompare();

  // the first component of the bonsai pair: one upload more, another image
  cvrTest::PeerViewports::Viewport& v = scene.Viewports[2];
  const vtkTypeUInt64 uploads = v.Ours->GetVolumeUploadCount();
  vtkSmartPointer<vtkImageData> before = cvrTest::Grab(scene.Window);
  v.Ours->SetVectorComponent(0);
  vtkSmartPointer<vtkImageData> half = cvrTest::Grab(scene.Window);
  const cvrTest::ImageDifference d =
    cvrTest::CompareViewport(before, half, v.Bounds.data(), scene.Width, scene.Height, 8);
  const vtkTypeUInt64 afterSwitch = v.Ours->GetVolumeUploadCount();
  v.Ours->SetVectorComponent(1);
  scene.Window->Render();
  scene.Window->Render();
  const vtkTypeUInt64 afterBack = v.Ours->GetVolumeUploadCount();
  std::printf("component 0 instead of 1: %llu upload(s), %.1f%% of the viewport over 8 levels; "
              "back to 1: %llu upload(s) in two frames\n",
    static_cast<unsigned long long>(afterSwitch - uploads), 100.0 * d.FractionOver,
    static_cast<unsigned long long>(afterBack - afterSwitch));
  ok &= afterSwitch == uploads + 1 && d.FractionOver > 0.05 && afterBack == afterSwitch + 1;

  // what a setting does not select uploads nothing: the component in
  // magnitude mode, the mode of one component (the peer's magnitude image)
  cvrTest::PeerViewports::Viewport& m = scene.Viewports[3];
  const vtkTypeUInt64 magnitudeUploads = m.Ours->GetVolumeUploadCount();
  m.Ours->SetVectorComponent(1);
  scene.Window->Render();
  ok &= m.Ours->GetVolumeUploadCount() == magnitudeUploads;
  m.Ours->SetInputData(pairsMagnitude);
  scene.Window->Render();
  const vtkTypeUInt64 single = m.Ours->GetVolumeUploadCount();
  m.Ours->SetVectorMode(vtkCudaVolumeMapper::VECTOR_COMPONENT);
  scene.Window->Render();
  m.Ours->SetVectorMode(vtkCudaVolumeMapper::VECTOR_DISABLED);
  scene.Window->Render();
  const vtkTypeUInt64 unselected = m.Ours->GetVolumeUploadCount() - single;
  std::printf("vector settings that select nothing: %llu upload(s)\n",
    static_cast<unsigned long long>(unselected));
  ok &= unselected == 0;
  m.Ours->SetInputData(pairs);
  m.Ours->SetVectorMode(vtkCudaVolumeMapper::VECTOR_MAGNITUDE);
  m.Ours->SetVectorComponent(0);
  scene.Window->Render();

  // nine components (the gradient three times over, whose magnitude is
  // sqrt(3) the gradient's) in magnitude mode: vtkGPUVolumeRayCastMapper
  // refuses more than four components before a vector mode reduces them
  // (ParaView's Volume takes the magnitude first); ours renders the three
  // components' image with the functions stretched by sqrt(3)
  {
    cvrTest::PeerViewports::Viewport& g = scene.Viewports[0];
    vtkSmartPointer<vtkImageData> three = cvrTest::Grab(scene.Window);
    vtkVolumeProperty* p = g.Volume->GetProperty();
    const double s3 = std::sqrt(3.0);
    cvrTest::SetRamp(p, s3 * 0.08 * top, s3 * 0.4 * top, 0.6);
    g.Ours->SetInputData(Repeat(field, 3));
    vtkSmartPointer<vtkImageData> nine = cvrTest::Grab(scene.Window);
    const cvrTest::ImageDifference d9 =
      cvrTest::CompareViewport(three, nine, g.Bounds.data(), scene.Width, scene.Height, 8);
    const bool same = g.Ours->GetLastRayCount() > 0 && d9.FractionOver < 0.01 && d9.MeanLevels < 0.5;
    std::printf("nine components, magnitude: %llu rays, %.2f levels mean, %.3f%% over 8 against "
                "three: %s\n",
      static_cast<unsigned long long>(g.Ours->GetLastRayCount()), d9.MeanLevels,
      100.0 * d9.FractionOver, same ? "ok" : "WRONG");
    ok &= same;
    cvrTest::SetRamp(p, 0.08 * top, 0.4 * top, 0.6);
    g.Ours->SetInputData(field);
    scene.Window->Render();
  }
  return scene.CompareWithBaseline(argc, argv, ok);
}
