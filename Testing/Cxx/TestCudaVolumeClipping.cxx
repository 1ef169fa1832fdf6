// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Clipping planes (after VTK's TestGPURayCastClipping): one, two and three
// oblique planes, a plane with shading, with maximum intensity, and a plane
// with cropping in parallel projection, each in its own viewport of bonsai,
// rendered by vtkCudaVolumeMapper and by VTK's vtkOpenGLGPUVolumeRayCastMapper,
// which must agree within the peer tolerance of TestCudaVolumePeerMappers
// (mean at most 0.5 levels, at most 1% of the pixels over 8; shaded 1 level
// and 3%) in every viewport. Also: more planes than the library takes are an error naming the
// limit, and the mapper renders again once there are fewer.
#include "cvrPeerViewports.h"
#include "vtkPlane.h"
#include "vtkPlaneCollection.h"
#include "vtkTestErrorObserver.h"

namespace
{
// A plane through the point at fractions f of the bounds, keeping the side
// its normal points to.
vtkSmartPointer<vtkPlane> MakePlane(const double bounds[6], const double f[3], const double normal[3])
{
  auto plane = vtkSmartPointer<vtkPlane>::New();
  double origin[3];
  for (int a = 0; a < 3; ++a)
  {
    origin[a] = bounds[2 * a] + f[a] * (bounds[2 * a + 1] - bounds[2 * a]);
  }
  plane->SetOrigin(origin);
  plane->SetNormal(normal[0], normal[1], normal[2]);
  return plane;
}
}

int TestCudaVolumeClipping(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> bonsai = cvrTest::ReadNifti(file);
  double bounds[6], spacing[3];
  bonsai->GetBounds(bounds);
  bonsai->GetSpacing(spacing);
  const double dt = 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));

  const double centre[3] = { 0.5, 0.5, 0.5 }, low[3] = { 0.4, 0.3, 0.5 };
  const double n1[3] = { 1.0, 0.4, 0.2 }, n2[3] = { -0.3, 1.0, -0.4 }, n3[3] = { 0.2, -0.3, -1.0 };
  const struct
  {
    const char* Name;
    int Planes;
    int BlendMode;
    bool Shade, Parallel, Crop;
  } cases[] = {
    { "one plane", 1, vtkVolumeMapper::COMPOSITE_BLEND, false, false, false },
    { "two planes", 2, vtkVolumeMapper::COMPOSITE_BLEND, false, false, false },
    { "three planes", 3, vtkVolumeMapper::COMPOSITE_BLEND, false, false, false },
    { "one plane, shaded", 1, vtkVolumeMapper::COMPOSITE_BLEND, true, false, false },
    { "one plane, maximum intensity", 1, vtkVolumeMapper::MAXIMUM_INTENSITY_BLEND, false, false,
      false },
    { "one plane and cropping, parallel", 1, vtkVolumeMapper::COMPOSITE_BLEND, false, true, true },
  };
  cvrTest::PeerViewports scene(600, 400, 3, 2);
  std::vector<vtkSmartPointer<vtkVolumeProperty>> properties;
  for (const auto& c : cases)
  {
    auto property = vtkSmartPointer<vtkVolumeProperty>::New();
    cvrTest::SetRamp(property, 30, 180, c.BlendMode == vtkVolumeMapper::COMPOSITE_BLEND ? 0.5 : 1.0);
    property->SetShade(c.Shade);
    properties.push_back(property);
    cvrTest::PeerViewports::Viewport& v = scene.Add(c.Name, bonsai, property, dt, 30, 20, c.Parallel, [&](vtkVolumeMapper* m) {
      m->SetBlendMode(c.BlendMode);
      vtkNew<vtkPlaneCollection> planes;
      planes->AddItem(MakePlane(bounds, c.Planes == 3 ? low : centre, n1));
      if (c.Planes > 1)
      {
        planes->AddItem(MakePlane(bounds, centre, n2));
      }
      if (c.Planes > 2)
      {
        planes->AddItem(MakePlane(bounds, low, n3));
      }
      m->SetClippingPlanes(planes);
      if (c.Crop)
      {
        m->SetCropping(1);
        m->SetCroppingRegionPlanes(bounds[0], 0.5 * (bounds[0] + bounds[1]), bounds[2],
          0.7 * bounds[3] + 0.3 * bounds[2], bounds[4], bounds[5]);
        m->SetCroppingRegionFlags(VTK_CROP_INVERTED_CROSS);
      }
    });
    if (c.Shade)
    {
      v.MeanBound = 1.0; // TestCudaVolumePeerMappers's shaded bound: VTK's gradients
      v.OverBound = 0.03; // differ from ours in step and sign conventions
    }
  }
  bool ok = scene.RenderAndCompare();

  // more planes than the library takes: an error naming the limit
  vtkCudaVolumeMapper* mapper = scene.Viewports[0].Ours;
  vtkNew<vtkTest::ErrorObserver> observer;
  mapper->AddObserver(vtkCommand::ErrorEvent, observer);
  mapper->AddObserver(vtkCommand::WarningEvent, observer);
  vtkNew<vtkPlaneCollection> many;
  for (int i = 0; i < 33; ++i) // one more than CVR_MAX_CLIP_PLANES
  {
    many->AddItem(MakePlane(bounds, centre, n1));
  }
  mapper->SetClippingPlanes(many);
  scene.Window->Render();
  ok &= observer->CheckErrorMessage("33 clipping planes; at most 32 are supported") == 0;
  mapper->RemoveAllClippingPlanes();
  mapper->AddClippingPlane(MakePlane(bounds, centre, n1));
  scene.Window->Render();
  ok &= !observer->GetError() && !observer->GetWarning();
  return scene.CompareWithBaseline(argc, argv, ok);
}
