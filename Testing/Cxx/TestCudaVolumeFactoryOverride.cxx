// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// The factory override: with it, vtkGPUVolumeRayCastMapper::New() returns a
// vtkCudaVolumeMapper, so vtkSmartVolumeMapper renders with it; without it,
// VTK's OpenGL mapper comes back.
#include "cvrExposedSmartMapper.h"
#include "cvrTestScene.h"

#include <cstdlib>

int TestCudaVolumeFactoryOverride(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  bool ok = true;
  // run with CVR_OVERRIDE_GPU_VOLUME_MAPPER=1 (a second ctest entry), the
  // override must already be on when the library has been loaded
  const char* env = std::getenv("CVR_OVERRIDE_GPU_VOLUME_MAPPER");
  if (env && std::string(env) == "1")
  {
    vtkSmartPointer<vtkGPUVolumeRayCastMapper> early =
      vtkSmartPointer<vtkGPUVolumeRayCastMapper>::Take(vtkGPUVolumeRayCastMapper::New());
    std::cout << "from the environment: override " << vtkCudaVolumeMapper::GetFactoryOverride()
              << ", New() gives " << early->GetClassName() << "\n";
    ok &= vtkCudaVolumeMapper::GetFactoryOverride() && early->IsA("vtkCudaVolumeMapper") == 1;
  }
  vtkCudaVolumeMapper::SetFactoryOverride(true);
  vtkSmartPointer<vtkGPUVolumeRayCastMapper> plain = vtkSmartPointer<vtkGPUVolumeRayCastMapper>::Take(
    vtkGPUVolumeRayCastMapper::New());
  ok &= plain->IsA("vtkCudaVolumeMapper") == 1;
  std::cout << "with the override, New() gives " << plain->GetClassName() << "\n";

  cvrTest::VolumeScene scene;
  vtkNew<cvrTest::ExposedSmartVolumeMapper> smart;
  smart->SetInputData(cvrTest::ReadNifti(file));
  smart->SetRequestedRenderModeToGPU();
  scene.Volume->SetMapper(smart);
  cvrTest::SetRamp(scene.Property, 30, 180);
  scene.View(30, 20);
  scene.Window->Render();
  auto* used = vtkCudaVolumeMapper::SafeDownCast(smart->GPU());
  ok &= used && used->GetLastRayCount() > 0;
  std::cout << "vtkSmartVolumeMapper's GPU mapper: " << smart->GPU()->GetClassName()
            << ", rays in its last frame: " << (used ? used->GetLastRayCount() : 0) << "\n";

  vtkCudaVolumeMapper::SetFactoryOverride(false);
  vtkSmartPointer<vtkGPUVolumeRayCastMapper> restored =
    vtkSmartPointer<vtkGPUVolumeRayCastMapper>::Take(vtkGPUVolumeRayCastMapper::New());
  std::cout << "without it, New() gives " << restored->GetClassName() << "\n";
  ok &= restored->IsA("vtkCudaVolumeMapper") == 0 &&
    restored->IsA("vtkOpenGLGPUVolumeRayCastMapper") == 1;
  return scene.Finish(argc, argv, ok);
}
