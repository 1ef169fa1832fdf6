// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Slice blending (after VTK's TestGPURayCastSlicePlane): a plane across the
// volume, an oblique one, one shaded, and one in parallel projection, each in
// its own viewport of the cranium CT, rendered by vtkCudaVolumeMapper and by
// VTK's vtkOpenGLGPUVolumeRayCastMapper, which must agree in every viewport
// within TestCudaVolumePeerMappers's mean (0.5 levels; shaded 1) and at most
// SLICE_OVER of the pixels over 8 levels: VTK cuts its slice to the texture's
// box, half a voxel wider on each side than the voxel centres ours keeps, so
// a rim of a voxel's width around the slice differs. (VTK does not clip its
// slices; ours keeps to the clipping planes as every mode does.) Also: a slice function that is not a vtkPlane, and none, are
// errors that say so; the mapper renders again with a plane.
#include "cvrPeerViewports.h"
#include "vtkPlane.h"
#include "vtkSphere.h"
#include "vtkTestErrorObserver.h"

static const double SLICE_OVER = 0.03;

int TestCudaVolumeSlicePlane(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "ct/cranium_ct.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> ct = cvrTest::ReadNifti(file);
  double bounds[6], spacing[3], centre[3];
  ct->GetBounds(bounds);
  ct->GetSpacing(spacing);
  for (int a = 0; a < 3; ++a)
  {
    centre[a] = 0.5 * (bounds[2 * a] + bounds[2 * a + 1]);
  }
  const double dt = 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));
  const struct
  {
    const char* Name;
    double Normal[3];
    bool Shade, Parallel;
  } cases[] = {
    { "axial slice", { 0.0, 0.0, 1.0 }, false, false },
    { "oblique slice", { 0.3, 1.0, 0.5 }, false, false },
    { "oblique slice, shaded", { 0.3, 1.0, 0.5 }, true, false },
    { "sagittal slice, parallel", { 1.0, 0.0, 0.0 }, false, true },
  };
  cvrTest::PeerViewports scene(400, 400, 2, 2);
  std::vector<vtkSmartPointer<vtkVolumeProperty>> properties;
  for (const auto& c : cases)
  {
    auto property = vtkSmartPointer<vtkVolumeProperty>::New();
    cvrTest::SetRamp(property, -200, 1500, 1.0);
    property->SetShade(c.Shade);
    vtkNew<vtkPlane> plane;
    plane->SetOrigin(centre);
    plane->SetNormal(c.Normal[0], c.Normal[1], c.Normal[2]);
    property->SetSliceFunction(plane);
    properties.push_back(property);
    cvrTest::PeerViewports::Viewport& v =
      scene.Add(c.Name, ct, property, dt, 40, 25, c.Parallel,
        [](vtkVolumeMapper* m) { m->SetBlendMode(vtkVolumeMapper::SLICE_BLEND); });
    v.MeanBound = c.Shade ? 1.0 : 0.5;
    v.OverBound = SLICE_OVER;
  }
  bool ok = scene.RenderAndCompare();

  vtkCudaVolumeMapper* mapper = scene.Viewports[0].Ours;
  vtkNew<vtkTest::ErrorObserver> observer;
  mapper->AddObserver(vtkCommand::ErrorEvent, observer);
  mapper->AddObserver(vtkCommand::WarningEvent, observer);
  vtkNew<vtkSphere> sphere;
  properties[0]->SetSliceFunction(sphere);
  scene.Window->Render();
  ok &= observer->CheckErrorMessage("takes a vtkPlane as the slice function, not a vtkSphere") == 0;
  properties[0]->SetSliceFunction(nullptr);
  scene.Window->Render();
  ok &= observer->CheckErrorMessage("slice blending needs a slice function") == 0;
  vtkNew<vtkPlane> plane;
  plane->SetOrigin(centre);
  plane->SetNormal(0.0, 0.0, 1.0);
  properties[0]->SetSliceFunction(plane);
  scene.Window->Render();
  ok &= !observer->GetError() && !observer->GetWarning();
  return scene.CompareWithBaseline(argc, argv, ok);
}
