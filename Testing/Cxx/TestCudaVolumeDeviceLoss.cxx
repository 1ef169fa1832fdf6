// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// A CUDA device lost mid-run (a sticky CUDA error, made by the library's test
// hook CVR_DEBUG_LOSE_DEVICE_AT_RENDER=3: its third render runs a kernel that
// writes to an invalid address first; a window's first frame may take two).
// Bonsai, standard strategy, backend AUTO: the frames before render on CUDA;
// frame 2 or 3 loses the device, the mapper says so once (one warning, no
// error) and renders that frame on the CPU, within the reference tolerance
// of the frame before; the frames after, up to 5, render on the CPU without
// another message. A mapper made afterwards in the same process
// (whose device stays broken) renders on the CPU too, saying why once.
// Skipped without a CUDA device, and where the window's OpenGL runs on the
// CUDA device (images through interop) before the fault is made.
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"


#include <cstdlib>
#include <string>
#include <vector>

namespace
{
bool OnCpu(vtkCudaVolumeMapper* mapper)
{
  return std::string(mapper->GetLastConfiguration()).rfind("cpu", 0) == 0;
}
}

int TestCudaVolumeDeviceLoss(int argc, char* argv[])
{
  if (vtkCudaVolumeMapper::GetNumberOfCudaDevices() == 0)
  {
    std::cout << "no CUDA device: test skipped\n";
    return VTK_SKIP_RETURN_CODE;
  }
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> bonsai = cvrTest::ReadNifti(file);
  setenv("CVR_DEBUG_LOSE_DEVICE_AT_RENDER", "3", 1); // read when the mapper makes its context
  cvrTest::VolumeScene scene(300, 300);
  scene.Mapper->SetInputData(bonsai);
  scene.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD);
  scene.Mapper->SetAutoAdjustSampleDistances(0);
  cvrTest::SetRamp(scene.Property, 30, 180, 0.6);
  scene.View(30, 20);
  cvrTest::MessageLog log(scene.Mapper);
  const std::vector<std::string>& messages = log.Messages;

  // the hook counts the library's renders, which a window's first frame
  // may call more than once: the loss comes at frame 2 or 3
  bool ok = true;
  vtkSmartPointer<vtkImageData> frames[6];
  int firstCpu = 0;
  for (int f = 1; f <= 5; ++f)
  {
    scene.Window->Render();
    if (f == 1 && std::string(scene.Mapper->GetLastImageTransfer()) == "OpenGL interop")
    {
      // the window's OpenGL runs on the CUDA device (NVIDIA's): a kernel
      // fault beside it left an H200 hanging every later process's first
      // launch until the machine was replaced; the test runs in Mesa windows
      std::cout << "the window's OpenGL shares the CUDA device (interop): test skipped\n";
      unsetenv("CVR_DEBUG_LOSE_DEVICE_AT_RENDER");
      return VTK_SKIP_RETURN_CODE;
    }
    frames[f] = cvrTest::Grab(scene.Window);
    const bool cpu = OnCpu(scene.Mapper);
    std::printf("frame %d: %s\n", f, scene.Mapper->GetLastConfiguration());
    firstCpu = cpu && !firstCpu ? f : firstCpu;
    ok &= cpu == (firstCpu && f >= firstCpu); // once on the CPU, it stays there
  }
  unsetenv("CVR_DEBUG_LOSE_DEVICE_AT_RENDER"); // the mapper's context has read it
  ok &= firstCpu >= 2 && firstCpu <= 3;
  const int lossFrame = firstCpu >= 2 ? firstCpu : 2;
  const cvrTest::ImageDifference lost = cvrTest::Compare(frames[lossFrame - 1], frames[lossFrame], 8);
  const cvrTest::ImageDifference after = cvrTest::Compare(frames[lossFrame], frames[5], 8);
  std::printf("frame %d (CPU) against frame %d (CUDA): mean %.3f levels, %.3f%% over 8; frame 5 "
              "against %d: %.3f\n",
    lossFrame, lossFrame - 1, lost.MeanLevels, 100.0 * lost.FractionOver, lossFrame,
    after.MeanLevels);
  ok &= lost.MeanLevels <= 0.5 && lost.FractionOver <= 0.01 && after.MeanLevels == 0.0;
  for (const std::string& m : messages)
  {
    std::printf("said: %s\n", m.c_str());
  }
  ok &= messages.size() == 1 && messages[0].find("warning: ") == 0 &&
    messages[0].find("the CUDA device was lost") != std::string::npos &&
    messages[0].find("illegal memory access") != std::string::npos;

  // another mapper, later, in the same process
  cvrTest::VolumeScene later(300, 300);
  later.Mapper->SetInputData(bonsai);
  later.Mapper->SetAutoAdjustSampleDistances(0);
  cvrTest::SetRamp(later.Property, 30, 180, 0.6);
  later.View(30, 20);
  cvrTest::MessageLog laterLog(later.Mapper);
  const std::vector<std::string>& laterMessages = laterLog.Messages;
  later.Window->Render();
  later.Window->Render();
  std::printf("a later mapper: %s\n", later.Mapper->GetLastConfiguration());
  for (const std::string& m : laterMessages)
  {
    std::printf("later mapper said: %s\n", m.c_str());
  }
  ok &= OnCpu(later.Mapper) && laterMessages.size() == 1 &&
    laterMessages[0].find("rendering on the CPU") != std::string::npos;
  const cvrTest::ImageDifference same = cvrTest::Compare(frames[5], cvrTest::Grab(later.Window), 8);
  std::printf("the later mapper's image against frame 5: mean %.3f levels\n", same.MeanLevels);
  ok &= same.MeanLevels <= 0.5;
  std::printf("%s\n", ok ? "device loss handled" : "ERROR: device loss not handled as it should");
  return ok ? 0 : 1;
}
