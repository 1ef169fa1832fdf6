// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Composite input: the bonsai split into 2 x 2 x 2 blocks that share their
// boundary points, given to vtkCudaVolumeMapper as a vtkPartitionedDataSet
// and as a vtkMultiBlockDataSet (with a non-image block, which is skipped),
// must render as the whole image does, and as VTK's vtkMultiBlockVolumeMapper
// renders the blocks (peer check, Mesa here).
//
// Tolerance against the whole image, in 8-bit RGB levels: mean at most 0.05
// levels and at most 0.1% of the pixels off by more than 1 level (the
// foundation's bound between backends). Each block is ray cast on the same
// sample lattice as the whole volume, so the blocks take the whole volume's
// samples; early ray termination and the one-level rounding of each block's
// image are what remains. A block out of order, a gap or an overlap at block
// faces, or blocks sampled on lattices of their own fail it.
// Against vtkMultiBlockVolumeMapper: the peer bound of TestCudaVolumePeerMappers
// (mean 0.5 levels, 1% of the pixels over 8).
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"
#include "vtkCallbackCommand.h"
#include "vtkCommand.h"
#include "vtkExtractVOI.h"
#include "vtkMultiBlockDataSet.h"
#include "vtkMultiBlockVolumeMapper.h"
#include "vtkPartitionedDataSet.h"
#include "vtkPolyData.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace
{
bool Check(const char* what, const cvrTest::ImageDifference& d, double maxMean, double maxOver)
{
  const bool ok = d.MeanLevels <= maxMean && d.FractionOver <= maxOver;
  std::printf("%-52s mean %.3f levels, %.3f%% over %d: %s\n", what, d.MeanLevels,
    100.0 * d.FractionOver, d.Threshold, ok ? "ok" : "OUTSIDE THE TOLERANCE");
  return ok;
}

int warnings = 0; // about skipped blocks
void CountWarning(vtkObject*, unsigned long, void*, void* message)
{
  warnings += std::strstr(static_cast<const char*>(message), "not vtkImageData") != nullptr;
}
}

int TestCudaVolumePartitioned(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> whole = cvrTest::ReadNifti(file);
  int extent[6];
  whole->GetExtent(extent);

  // 2 x 2 x 2 blocks; neighbours share the points of their common face
  vtkNew<vtkPartitionedDataSet> partitioned;
  vtkNew<vtkMultiBlockDataSet> multiblock;
  for (int b = 0; b < 8; ++b)
  {
    int voi[6];
    for (int a = 0; a < 3; ++a)
    {
      const int mid = (extent[2 * a] + extent[2 * a + 1]) / 2;
      const bool upper = (b >> a) & 1;
      voi[2 * a] = upper ? mid : extent[2 * a];
      voi[2 * a + 1] = upper ? extent[2 * a + 1] : mid;
    }
    vtkNew<vtkExtractVOI> extract;
    extract->SetInputData(whole);
    extract->SetVOI(voi);
    extract->Update();
    vtkNew<vtkImageData> block;
    block->ShallowCopy(extract->GetOutput());
    partitioned->SetPartition(b, block);
    // nested two levels deep, to exercise the tree traversal
    if (b % 2 == 0)
    {
      multiblock->SetBlock(b / 2, vtkNew<vtkMultiBlockDataSet>());
    }
    vtkMultiBlockDataSet::SafeDownCast(multiblock->GetBlock(b / 2))->SetBlock(b % 2, block);
  }
  multiblock->SetBlock(4, vtkNew<vtkPolyData>()); // not image data: skipped

  cvrTest::VolumeScene scene(256, 256);
  cvrTest::SetRamp(scene.Property, 30, 180);
  vtkNew<vtkCallbackCommand> onWarning;
  onWarning->SetCallback(CountWarning);
  scene.Mapper->AddObserver(vtkCommand::WarningEvent, onWarning);

  bool ok = true;
  double bounds[6], wholeBounds[6];
  scene.Mapper->SetInputDataObject(partitioned);
  scene.Mapper->GetBounds(bounds);
  whole->GetBounds(wholeBounds);
  for (int i = 0; i < 6; ++i)
  {
    ok &= std::fabs(bounds[i] - wholeBounds[i]) < 1e-9;
  }
  std::printf("bounds of the partitioned input %s the image's\n", ok ? "are" : "ARE NOT");

  struct View
  {
    const char* Name;
    bool Parallel, Transform;
    double Azimuth, Elevation;
  };
  const View views[] = { { "perspective", false, false, 40, 25 },
    { "parallel, seen along a block face", true, false, 0, 0 },
    { "perspective, from below", false, false, 200, -60 },
    { "perspective, prop rotated and scaled", false, true, 120, 35 } };
  vtkNew<vtkMultiBlockVolumeMapper> peer;
  peer->SetInputDataObject(partitioned);
  // vtkMultiBlockVolumeMapper has no sample distance setting: both mappers
  // derive it from the spacing (AutoAdjustSampleDistances, the default)
  for (const View& v : views)
  {
    scene.Volume->SetOrientation(v.Transform ? 10.0 : 0.0, v.Transform ? 25.0 : 0.0, 0.0);
    scene.Volume->SetScale(1.0, v.Transform ? 1.3 : 1.0, 1.0);
    scene.Volume->SetMapper(scene.Mapper);
    scene.Mapper->SetInputData(whole);
    scene.View(v.Azimuth, v.Elevation);
    scene.Renderer->GetActiveCamera()->SetParallelProjection(v.Parallel);
    scene.Window->Render();
    auto reference = cvrTest::Grab(scene.Window);
    const auto wholeRays = scene.Mapper->GetLastRayCount();

    scene.Mapper->SetInputDataObject(partitioned);
    scene.Window->Render();
    auto blocks = cvrTest::Grab(scene.Window);
    ok &= Check((std::string(v.Name) + ", partitioned vs whole").c_str(),
      cvrTest::Compare(blocks, reference, 1), 0.05, 0.001);
    ok &= scene.Mapper->GetLastRayCount() >= wholeRays; // rays crossing faces count per block

    scene.Mapper->SetInputDataObject(multiblock);
    scene.Window->Render();
    ok &= Check((std::string(v.Name) + ", multiblock vs partitioned").c_str(),
      cvrTest::Compare(cvrTest::Grab(scene.Window), blocks, 0), 0.0, 0.0);

    scene.Volume->SetMapper(peer);
    scene.Window->Render();
    ok &= Check((std::string(v.Name) + ", vs vtkMultiBlockVolumeMapper").c_str(),
      cvrTest::Compare(blocks, cvrTest::Grab(scene.Window), 8), 0.5, 0.01);
  }
  std::printf("configuration \"%s\", %d warning(s) about skipped blocks\n",
    scene.Mapper->GetLastConfiguration(), warnings);
  ok &= std::string(scene.Mapper->GetLastConfiguration()).find("8 blocks") != std::string::npos;
  ok &= warnings == 1; // said once, not every frame

  // the regression image: the partitioned input, seen as in the first view
  scene.Volume->SetOrientation(0, 0, 0);
  scene.Volume->SetScale(1, 1, 1);
  scene.Volume->SetMapper(scene.Mapper);
  scene.Mapper->SetInputDataObject(partitioned);
  scene.View(40, 25);
  const auto uploads = scene.Mapper->GetVolumeUploadCount();
  scene.Window->Render();
  ok &= scene.Mapper->GetVolumeUploadCount() == uploads; // the blocks are not sent again
  return scene.Finish(argc, argv, ok);
}
