// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Cropping (after VTK's TestGPURayCastCropping): VTK's named region sets
// (sub-volume, fence, inverted fence, cross, inverted cross) and a set of
// scattered regions, each in its own viewport of bonsai, rendered by
// vtkCudaVolumeMapper and by VTK's vtkOpenGLGPUVolumeRayCastMapper, which
// must agree within the peer tolerance of TestCudaVolumePeerMappers (mean at
// most 0.5 levels, at most 1% of the pixels over 8) in every viewport. The
// planes lie at 30% and 60% of each axis in data coordinates, so both
// mappers cut the same voxels. No warning or error is reported.
#include "cvrPeerViewports.h"

int TestCudaVolumeCropping(int argc, char* argv[])
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
  double planes[6];
  for (int a = 0; a < 3; ++a)
  {
    const double length = bounds[2 * a + 1] - bounds[2 * a];
    planes[2 * a] = bounds[2 * a] + 0.3 * length;
    planes[2 * a + 1] = bounds[2 * a] + 0.6 * length;
  }
  const double dt = 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));

  const struct
  {
    const char* Name;
    int Flags;
    bool Parallel;
  } cases[] = {
    { "sub-volume", VTK_CROP_SUBVOLUME, false },
    { "fence", VTK_CROP_FENCE, false },
    { "inverted fence", VTK_CROP_INVERTED_FENCE, false },
    { "cross", VTK_CROP_CROSS, false },
    { "inverted cross", VTK_CROP_INVERTED_CROSS, false },
    { "scattered regions, parallel", 0x5a5a5a5, true },
  };
  vtkNew<vtkVolumeProperty> property;
  cvrTest::SetRamp(property, 30, 180, 0.5);
  cvrTest::PeerViewports scene(600, 400, 3, 2);
  for (const auto& c : cases)
  {
    scene.Add(c.Name, bonsai, property, dt, 30, 20, c.Parallel, [&](vtkVolumeMapper* m) {
      m->SetCropping(1);
      m->SetCroppingRegionPlanes(planes);
      m->SetCroppingRegionFlags(c.Flags);
    });
  }
  // cropping is rendered, not warned about (the one message allowed is the
  // notice that a build without CUDA renders on the CPU)
  scene.CollectMessages();
  bool ok = scene.RenderAndCompare();
  ok &= scene.NoUnexpectedMessages();
  return scene.CompareWithBaseline(argc, argv, ok);
}
