// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// What the mapper sends to the backend, and when: the volume once until its
// data change (then over the copy there is, its progress reported), the
// transfer function once until the property changes, never on camera moves. With the CUDA backend forced, IsRenderSupported says
// whether a device is there, so vtkSmartVolumeMapper can fall back.
#include "cvrTestScene.h"
#include "vtkCallbackCommand.h"
#include "vtkDataArray.h"
#include "vtkPiecewiseFunction.h"
#include "vtkPointData.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

int TestCudaVolumeChangeTracking(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/engine.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  cvrTest::VolumeScene scene(200, 200);
  vtkSmartPointer<vtkImageData> image = cvrTest::ReadNifti(file);
  scene.Mapper->SetInputData(image);
  cvrTest::SetRamp(scene.Property, 80, 200, 0.5);
  scene.View(20, 20);
  bool ok = true;
  auto expect = [&](const char* when, vtkTypeUInt64 volumes, vtkTypeUInt64 functions) {
    const bool good = scene.Mapper->GetVolumeUploadCount() == volumes &&
      scene.Mapper->GetTransferFunctionUploadCount() == functions;
    std::cout << when << ": " << scene.Mapper->GetVolumeUploadCount() << " volume and "
              << scene.Mapper->GetTransferFunctionUploadCount() << " transfer-function uploads"
              << (good ? "" : " (UNEXPECTED)") << "\n";
    ok &= good;
  };
  scene.Window->Render();
  expect("first frame", 1, 1);
  for (int i = 0; i < 3; ++i)
  {
    scene.Renderer->GetActiveCamera()->Azimuth(15);
    scene.Window->Render();
  }
  expect("three camera moves", 1, 1);
  scene.Property->GetScalarOpacity()->AddPoint(140, 0.05);
  scene.Window->Render();
  expect("opacity edited", 1, 2);
  scene.Property->SetInterpolationTypeToNearest(); // a property change: the table is rebuilt
  scene.Window->Render();
  expect("interpolation changed", 1, 3);
  // new values of the same shape go over the copy there is, and the upload
  // reports its progress
  struct Progress
  {
    int Events = 0;
    double Last = 0.0;
  } progress;
  vtkNew<vtkCallbackCommand> onProgress;
  onProgress->SetClientData(&progress);
  onProgress->SetCallback([](vtkObject*, unsigned long, void* client, void* call) {
    auto* p = static_cast<Progress*>(client);
    ++p->Events;
    p->Last = *static_cast<double*>(call);
  });
  scene.Mapper->AddObserver(vtkCommand::ProgressEvent, onProgress);
  image->GetPointData()->GetScalars()->Modified();
  scene.Window->Render();
  expect("data modified", 2, 4);
  std::cout << "updates in place: " << scene.Mapper->GetVolumeUpdateCount() << "; progress events "
            << progress.Events << ", the last at " << progress.Last << "\n";
  ok &= scene.Mapper->GetVolumeUpdateCount() == 1 && progress.Events >= 1 && progress.Last == 1.0;
  scene.Mapper->RemoveObserver(onProgress);

  const int saved = scene.Mapper->GetBackend();
  scene.Mapper->SetBackend(vtkCudaVolumeMapper::BACKEND_CUDA);
  const int supported = scene.Mapper->IsRenderSupported(scene.Window, scene.Property);
  std::cout << "CUDA backend supported: " << supported << " (" << vtkCudaVolumeMapper::GetNumberOfCudaDevices()
            << " CUDA devices)\n";
  ok &= supported == (vtkCudaVolumeMapper::GetNumberOfCudaDevices() > 0 ? 1 : 0);
  scene.Mapper->SetBackend(vtkCudaVolumeMapper::BACKEND_CPU);
  ok &= scene.Mapper->IsRenderSupported(scene.Window, scene.Property) == 1;
  scene.Mapper->SetBackend(saved);

  // ranks of an MPI job spread over a node's GPUs by their node-local rank
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "5", 1);
  const int d4 = vtkCudaVolumeMapper::LocalRankDevice(4), d1 = vtkCudaVolumeMapper::LocalRankDevice(1),
            d0 = vtkCudaVolumeMapper::LocalRankDevice(0);
  unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  setenv("SLURM_LOCALID", "2", 1);
  const int slurm = vtkCudaVolumeMapper::LocalRankDevice(4);
  unsetenv("SLURM_LOCALID");
  std::cout << "local rank 5 on 4, 1, 0 devices: " << d4 << ", " << d1 << ", " << d0
            << "; SLURM local id 2 on 4: " << slurm << "\n";
  ok &= d4 == 1 && d1 == 0 && d0 == 0 && slurm == 2;

  // and share the node's cores on the CPU backend: its cores over the local
  // ranks by default (not every rank a thread per core)
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const int alone = vtkCudaVolumeMapper::LocalRankThreads();
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
  const int two = vtkCudaVolumeMapper::LocalRankThreads();
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "1000000", 1);
  const int many = vtkCudaVolumeMapper::LocalRankThreads();
  unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  std::cout << "CPU threads by default: " << alone << " alone (0: one per core), " << two
            << " of 2 local ranks, " << many << " of a million (" << cores << " cores)\n";
  ok &= alone == 0 && two == std::max(1, cores / 2) && many == 1;
  {
    // a mapper of such a rank renders with that many
    vtkNew<vtkCudaVolumeMapper> rank;
    rank->SetBackend(vtkCudaVolumeMapper::BACKEND_CPU);
    rank->SetInputData(image);
    scene.Volume->SetMapper(rank);
    setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
    scene.Window->Render();
    unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    const std::string backend = rank->GetBackendDescription();
    const std::string expected = "CPU: " + std::to_string(two) + " thread";
    std::cout << "a rank of 2 on the node renders on \"" << backend << "\"\n";
    ok &= backend.compare(0, expected.size(), expected) == 0;
    scene.Volume->SetMapper(scene.Mapper);
  }
  return scene.Finish(argc, argv, ok);
}
