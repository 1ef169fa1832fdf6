// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Volumes larger than the memory budget (vtkGPUVolumeRayCastMapper's
// MaxMemoryInBytes and MaxMemoryFraction): the cranium CT shaded in
// perspective and the bonsai in parallel projection, rendered with a
// budget of a quarter of each volume, so that they render from bricks of 32
// voxels, and compared with VTK's vtkOpenGLGPUVolumeRayCastMapper (the peer
// bound of TestCudaVolumePeerMappers; shaded TestCudaVolumeGradientOpacity's).
// Then:
//  - every viewport was bricked (its bricks drawn and loaded are reported),
//    reading VTK's array in place: no host copy of its own;
//  - without the budget (UseDefaultMaxMemory) the volumes are not bricked,
//    and the window is the same image: on the CPU pixel for pixel, on CUDA
//    no pixel more than a level apart (the bricked kernel's shading rounds
//    in the last bit where nvcc fuses other multiply-adds);
//  - MaxMemoryFraction scales the budget: at 1.0 of a budget of half a
//    volume, fewer bricks are loaded per frame than at 0.25 of it.
#include "cvrPeerViewports.h"

int TestCudaVolumeBricks(int argc, char* argv[])
{
  const struct
  {
    const char* File;
    double Lo, Hi;
    bool Shade, Parallel;
  } cases[] = {
    { "ct/cranium_ct.nii.gz", 100, 1500, true, false },
    { "scivis/bonsai.nii.gz", 30, 180, false, true },
  };
  cvrTest::PeerViewports scene(600, 300, 2, 1);
  std::vector<double> bytes;
  for (const auto& c : cases)
  {
    const std::string file = cvrTest::DataFile(argc, argv, c.File);
    if (file.empty())
    {
      return VTK_SKIP_RETURN_CODE;
    }
    vtkSmartPointer<vtkImageData> image = cvrTest::ReadNifti(file);
    double spacing[3];
    image->GetSpacing(spacing);
    const double dt = 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));
    auto property = vtkSmartPointer<vtkVolumeProperty>::New();
    cvrTest::SetRamp(property, c.Lo, c.Hi, 0.6);
    property->SetShade(c.Shade);
    cvrTest::PeerViewports::Viewport& v =
      scene.Add(c.File, image, property, dt, 35, 20, c.Parallel, [](vtkVolumeMapper*) {});
    bytes.push_back(static_cast<double>(image->GetNumberOfPoints()) *
      image->GetPointData()->GetScalars()->GetDataTypeSize());
    v.Ours->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD); // (bricked frames are)
    v.Ours->SetMaxMemoryInBytes(static_cast<vtkIdType>(bytes.back() / 4));
    v.Ours->SetMaxMemoryFraction(1.0);
    v.Ours->SetBrickSize(32);
    if (c.Shade)
    {
      v.MeanBound = 1.0;
      v.OverBound = 0.06;
    }
  }
  bool ok = scene.RenderAndCompare();

  vtkSmartPointer<vtkImageData> bricked = cvrTest::Grab(scene.Window);
  for (auto& v : scene.Viewports)
  {
    vtkCudaVolumeMapper* m = v.Ours;
    std::printf("%-24s %d of %d bricks drawn, %d loaded (%.1f MiB in %.2f ms), a host copy of "
                "%llu bytes; %s\n",
      v.Name.c_str(), m->GetLastBricksDrawn(), m->GetLastBrickCount(), m->GetLastBricksLoaded(),
      static_cast<double>(m->GetLastBrickBytesLoaded()) / 1048576.0,
      m->GetLastBrickLoadTimeMs(), static_cast<unsigned long long>(m->GetHostCopyBytes()),
      m->GetLastConfiguration());
    ok &= m->GetLastBrickCount() > 0 && m->GetLastBricksDrawn() > 0 && m->GetLastBricksLoaded() > 0;
    ok &= m->GetHostCopyBytes() == 0;
  }

  for (auto& v : scene.Viewports)
  {
    v.Ours->UseDefaultMaxMemory();
  }
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> whole = cvrTest::Grab(scene.Window);
  const bool cpu = std::string(scene.Viewports.front().Ours->GetBackendDescription()).rfind("CPU", 0) == 0;
  const cvrTest::ImageDifference same = cvrTest::Compare(bricked, whole, cpu ? 0 : 1);
  std::printf("bricked against whole (%s): mean %.4f levels, %.4f%% of the pixels over %d\n",
    cpu ? "CPU" : "CUDA", same.MeanLevels, 100.0 * same.FractionOver, cpu ? 0 : 1);
  ok &= same.FractionOver == 0.0;
  for (auto& v : scene.Viewports)
  {
    ok &= v.Ours->GetLastBrickCount() == 0;
  }

  // the fraction applies: a budget of half the volume at 1.0 holds twice
  // the bricks of the same budget at 0.5, so the frame loads fewer
  vtkCudaVolumeMapper* m = scene.Viewports.front().Ours;
  m->SetMaxMemoryInBytes(static_cast<vtkIdType>(bytes.front() / 2));
  int loaded[2];
  for (int f = 0; f < 2; ++f)
  {
    m->SetMaxMemoryFraction(f ? 1.0f : 0.5f);
    scene.Window->Render();
    scene.Window->Render(); // (the second frame: what the cache keeps)
    loaded[f] = m->GetLastBricksLoaded();
  }
  std::printf("a budget of half the volume at fractions 0.5 and 1.0: %d and %d bricks loaded "
              "per frame\n", loaded[0], loaded[1]);
  ok &= loaded[1] < loaded[0];
  return ok ? 0 : 1;
}
