// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Empty-space skipping (VTK 9.2's mapper has none; its ERT and sample counts
// are what vtkCudaVolumeMapper's statistics add): the cranium CT, the AVM MRA
// and the bonsai, one shaded, one with cells of 16 voxels, two in parallel
// projection, each rendered with skipping and compared with
// VTK's vtkOpenGLGPUVolumeRayCastMapper (the peer bound of
// TestCudaVolumePeerMappers; shaded TestCudaVolumeGradientOpacity's). Then:
//  - every viewport skipped samples, and samples taken + skipped as empty +
//    behind termination make up the same lattice with skipping off;
//  - with skipping off the window is the same image, pixel for pixel (the
//    standard strategy in both);
//  - a transfer function with no transparent value skips nothing, and the
//    original one skips again (the empty cells are found anew when the
//    function changes).
#include "cvrPeerViewports.h"

namespace
{
vtkTypeUInt64 Lattice(vtkCudaVolumeMapper* m)
{
  return m->GetLastSampleCount() + m->GetLastSamplesSkippedEmpty() +
    m->GetLastSamplesSkippedTerminated();
}
}

int TestCudaVolumeEmptySpace(int argc, char* argv[])
{
  const struct
  {
    const char* File;
    double Lo, Hi;
    bool Shade;
    int Cell;
    bool Parallel;
  } cases[] = {
    { "ct/cranium_ct.nii.gz", 100, 1500, false, 8, false },
    { "ct/cranium_ct.nii.gz", 100, 1500, true, 8, false },
    { "mri/avm_mra_337x319x154.nii.gz", 60, 200, false, 16, false },
    { "scivis/bonsai.nii.gz", 30, 180, false, 8, true },
  };
  cvrTest::PeerViewports scene(600, 400, 2, 2);
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
    char name[128];
    std::snprintf(name, sizeof name, "%s%s, cells of %d", c.File, c.Shade ? " shaded" : "", c.Cell);
    cvrTest::PeerViewports::Viewport& v =
      scene.Add(name, image, property, dt, 35, 20, c.Parallel, [](vtkVolumeMapper*) {});
    v.Ours->EmptySpaceSkippingOn();
    v.Ours->SetEmptySpaceCellSize(c.Cell);
    if (c.Shade) // TestCudaVolumeGradientOpacity's shaded bound: VTK's gradients differ from ours
    {
      v.MeanBound = 1.0;
      v.OverBound = 0.06;
    }
  }
  bool ok = scene.RenderAndCompare();

  // AUTO (the default) may render the next frames with another candidate,
  // and warp marching composites within the reference tolerance of the
  // standard strategy, not bit for bit: the comparison below holds one
  // strategy, the standard one
  for (auto& v : scene.Viewports)
  {
    v.Ours->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD);
  }
  // grabbing the window renders it once more (VTK's window-to-image filter),
  // so the counts compared below are those of the grabbed frames
  vtkSmartPointer<vtkImageData> with = cvrTest::Grab(scene.Window);
  std::vector<vtkTypeUInt64> lattice;
  for (auto& v : scene.Viewports)
  {
    const double share = static_cast<double>(v.Ours->GetLastSamplesSkippedEmpty()) /
      static_cast<double>(std::max<vtkTypeUInt64>(Lattice(v.Ours), 1));
    std::printf("%-44s skipped %.1f%% as empty, %llu samples taken, %llu behind termination\n",
      v.Name.c_str(), 100.0 * share, static_cast<unsigned long long>(v.Ours->GetLastSampleCount()),
      static_cast<unsigned long long>(v.Ours->GetLastSamplesSkippedTerminated()));
    ok &= share > 0.1; // most of each data set is air or background
    lattice.push_back(Lattice(v.Ours));
  }

  for (auto& v : scene.Viewports)
  {
    v.Ours->SetEmptySpaceSkipping(0);
  }
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> without = cvrTest::Grab(scene.Window);
  const cvrTest::ImageDifference same =
    cvrTest::Compare(with, without, 0);
  std::printf("with against without skipping: mean %.4f levels, %.4f%% of the pixels differ\n",
    same.MeanLevels, 100.0 * same.FractionOver);
  ok &= same.FractionOver == 0.0;
  for (size_t i = 0; i < scene.Viewports.size(); ++i)
  {
    vtkCudaVolumeMapper* m = scene.Viewports[i].Ours;
    const bool counts = m->GetLastSamplesSkippedEmpty() == 0 && Lattice(m) == lattice[i];
    std::printf("%s without skipping: %llu rays (%s)\n", scene.Viewports[i].Name.c_str(),
      static_cast<unsigned long long>(m->GetLastRayCount()), m->GetLastConfiguration());
    if (!counts)
    {
      std::printf("%s without skipping: %llu skipped, lattice %llu (with skipping %llu)\n",
        scene.Viewports[i].Name.c_str(), static_cast<unsigned long long>(m->GetLastSamplesSkippedEmpty()),
        static_cast<unsigned long long>(Lattice(m)), static_cast<unsigned long long>(lattice[i]));
    }
    ok &= counts;
    m->SetEmptySpaceSkipping(1);
  }

  // a function that leaves nothing transparent, then the ramp again
  cvrTest::PeerViewports::Viewport& first = scene.Viewports.front();
  vtkPiecewiseFunction* opacity = first.Volume->GetProperty()->GetScalarOpacity();
  vtkNew<vtkPiecewiseFunction> saved;
  saved->DeepCopy(opacity);
  opacity->RemoveAllPoints();
  opacity->AddPoint(-5000.0, 0.002);
  opacity->AddPoint(5000.0, 0.002);
  scene.Window->Render();
  const vtkTypeUInt64 dense = first.Ours->GetLastSamplesSkippedEmpty();
  opacity->DeepCopy(saved);
  scene.Window->Render();
  const vtkTypeUInt64 again = first.Ours->GetLastSamplesSkippedEmpty();
  std::printf("no transparent value: %llu skipped; the ramp again: %llu skipped\n",
    static_cast<unsigned long long>(dense), static_cast<unsigned long long>(again));
  ok &= dense == 0 && again > 0;
  return scene.CompareWithBaseline(argc, argv, ok);
}
