// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// A mapper used from another thread than the one it was created on: the
// window, the mapper and its first frame on the main thread (bonsai, standard
// strategy); the OpenGL context released, then a worker thread renders the
// same window twice (the view turned and back) and grabs it; then the main
// thread renders it again. Every image of the first view is the first
// image (CPU backend: pixel for pixel; CUDA: the same kernel on the same
// data, also pixel for pixel), the turned one differs, the volume is
// uploaded once and no message is given.
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"


#include <string>
#include <thread>
#include <vector>

int TestCudaVolumeOtherThread(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> bonsai = cvrTest::ReadNifti(file);
  cvrTest::VolumeScene scene(300, 300);
  scene.Mapper->SetInputData(bonsai);
  scene.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD);
  scene.Mapper->SetAutoAdjustSampleDistances(0);
  cvrTest::SetRamp(scene.Property, 30, 180, 0.6);
  scene.View(30, 20);
  cvrTest::MessageLog log(scene.Mapper);
  const std::vector<std::string>& messages = log.Messages;

  scene.Window->Render();
  vtkSmartPointer<vtkImageData> first = cvrTest::Grab(scene.Window);
  const vtkTypeUInt64 uploads = scene.Mapper->GetVolumeUploadCount();
  std::printf("main thread: %s\n", scene.Mapper->GetLastConfiguration());
  scene.Window->ReleaseCurrent(); // the worker makes the context its own

  vtkSmartPointer<vtkImageData> turned, worker;
  std::string workerConfiguration;
  std::thread thread([&]() {
    scene.Renderer->GetActiveCamera()->Azimuth(90);
    scene.Window->Render();
    turned = cvrTest::Grab(scene.Window);
    scene.Renderer->GetActiveCamera()->Azimuth(-90);
    scene.Window->Render();
    worker = cvrTest::Grab(scene.Window);
    workerConfiguration = scene.Mapper->GetLastConfiguration();
    scene.Window->ReleaseCurrent();
  });
  thread.join();
  std::printf("worker thread: %s\n", workerConfiguration.c_str());
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> again = cvrTest::Grab(scene.Window);

  const cvrTest::ImageDifference byWorker = cvrTest::Compare(first, worker, 0);
  const cvrTest::ImageDifference backHome = cvrTest::Compare(first, again, 0);
  const cvrTest::ImageDifference turn = cvrTest::Compare(first, turned, 8);
  std::printf("worker's image: %.3f%% of pixels differ from the first; main thread's again: "
              "%.3f%%; turned: mean %.3f levels\n",
    100.0 * byWorker.FractionOver, 100.0 * backHome.FractionOver, turn.MeanLevels);
  bool ok = byWorker.FractionOver == 0.0 && backHome.FractionOver == 0.0 && turn.MeanLevels > 2.0;
  std::printf("volume uploads: %llu after the first frame, %llu at the end\n",
    static_cast<unsigned long long>(uploads),
    static_cast<unsigned long long>(scene.Mapper->GetVolumeUploadCount()));
  ok &= uploads == 1 && scene.Mapper->GetVolumeUploadCount() == 1;
  for (const std::string& m : messages)
  {
    const bool expected = m.find("rendering on the CPU") != std::string::npos;
    std::printf("%s message: %s\n", expected ? "expected" : "ERROR: unexpected", m.c_str());
    ok &= expected;
  }
  return cvrTest::CompareWithBaseline(argc, argv, scene.Window, scene.Interactor, scene.Mapper, ok);
}
