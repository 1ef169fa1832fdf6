// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// vtkRectilinearGrid input (VTK 9.1+'s mappers take it). Ours renders a grid
// whose coordinates are evenly spaced, as the image it is: the bonsai as a
// rectilinear grid (its extent starting away from 0, so origin and extent
// must be combined) renders the image's pixels exactly, and agrees with VTK's
// vtkOpenGLGPUVolumeRayCastMapper rendering the same grid within the peer
// bound of TestCudaVolumePeerMappers. Unevenly spaced coordinates are an
// error that says why and what to do (every strategy samples a regular
// lattice); the mapper renders again once the grid is even.
#include "cvrPeerCompare.h"
#include "cvrTestScene.h"
#include "vtkDoubleArray.h"
#include "vtkOpenGLGPUVolumeRayCastMapper.h"
#include "vtkPointData.h"
#include "vtkRectilinearGrid.h"
#include "vtkTestErrorObserver.h"

namespace
{
// The image's lattice as a rectilinear grid over the same points.
vtkSmartPointer<vtkRectilinearGrid> AsRectilinear(vtkImageData* image)
{
  int extent[6];
  double origin[3], spacing[3];
  image->GetExtent(extent);
  image->GetOrigin(origin);
  image->GetSpacing(spacing);
  auto grid = vtkSmartPointer<vtkRectilinearGrid>::New();
  grid->SetExtent(extent);
  vtkNew<vtkDoubleArray> coordinates[3];
  for (int a = 0; a < 3; ++a)
  {
    for (int i = extent[2 * a]; i <= extent[2 * a + 1]; ++i)
    {
      coordinates[a]->InsertNextValue(origin[a] + spacing[a] * i);
    }
  }
  grid->SetXCoordinates(coordinates[0]);
  grid->SetYCoordinates(coordinates[1]);
  grid->SetZCoordinates(coordinates[2]);
  grid->GetPointData()->ShallowCopy(image->GetPointData());
  return grid;
}
}

int TestCudaVolumeRectilinearGrid(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> image = cvrTest::ReadNifti(file);
  // an extent that starts away from zero, with the origin moved to match
  int extent[6];
  double origin[3], spacing[3];
  image->GetExtent(extent);
  image->GetOrigin(origin);
  image->GetSpacing(spacing);
  for (int a = 0; a < 3; ++a)
  {
    origin[a] -= 10.0 * spacing[a];
    extent[2 * a] += 10;
    extent[2 * a + 1] += 10;
  }
  image->SetExtent(extent);
  image->SetOrigin(origin);
  vtkSmartPointer<vtkRectilinearGrid> grid = AsRectilinear(image);

  cvrTest::VolumeScene scene(300, 300);
  cvrTest::SetRamp(scene.Property, 30, 180);
  scene.Mapper->SetAutoAdjustSampleDistances(0);
  scene.Mapper->SetSampleDistance(0.5);
  scene.Mapper->SetInputData(image);
  scene.View(30, 20);
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> fromImage = cvrTest::Grab(scene.Window);

  vtkNew<vtkTest::ErrorObserver> observer;
  scene.Mapper->AddObserver(vtkCommand::ErrorEvent, observer);
  scene.Mapper->AddObserver(vtkCommand::WarningEvent, observer);
  scene.Mapper->SetInputData(grid);
  scene.Window->Render();
  vtkSmartPointer<vtkImageData> fromGrid = cvrTest::Grab(scene.Window);
  const cvrTest::ImageDifference same = cvrTest::Compare(fromImage, fromGrid, 0);
  std::printf("rectilinear grid against the image: mean %.4f levels, %.4f%% of pixels differ\n",
    same.MeanLevels, 100.0 * same.FractionOver);
  bool ok = same.MeanLevels == 0.0 && !observer->GetError() && !observer->GetWarning();

  // VTK's mapper on the image and on the same grid
  vtkSmartPointer<vtkImageData> opengl[2];
  for (int i = 0; i < 2; ++i)
  {
    vtkNew<vtkOpenGLGPUVolumeRayCastMapper> mapper;
    mapper->SetUseJittering(0);
    mapper->SetAutoAdjustSampleDistances(0);
    mapper->SetSampleDistance(0.5);
    if (i == 0)
    {
      mapper->SetInputData(image);
    }
    else
    {
      mapper->SetInputData(grid);
    }
    scene.Volume->SetMapper(mapper);
    scene.Window->Render();
    opengl[i] = cvrTest::Grab(scene.Window);
  }
  scene.Volume->SetMapper(scene.Mapper);
  const cvrTest::ImageDifference peer = cvrTest::Compare(fromGrid, opengl[0], 8);
  const cvrTest::ImageDifference theirs = cvrTest::Compare(opengl[0], opengl[1], 8);
  std::printf("ours on the grid against VTK's on the image: mean %.3f levels, %.3f%% over 8\n"
              "VTK's on the grid against VTK's on the image: mean %.3f levels, %.3f%% over 8\n",
    peer.MeanLevels, 100.0 * peer.FractionOver, theirs.MeanLevels, 100.0 * theirs.FractionOver);
  ok &= peer.MeanLevels <= 0.5 && peer.FractionOver <= 0.01;

  // unevenly spaced: an error naming the axis and the way out
  vtkSmartPointer<vtkRectilinearGrid> uneven = AsRectilinear(image);
  vtkNew<vtkDoubleArray> y;
  y->DeepCopy(uneven->GetYCoordinates());
  y->SetValue(5, y->GetValue(5) + 0.4 * spacing[1]);
  uneven->SetYCoordinates(y);
  scene.Mapper->SetInputData(uneven);
  scene.Window->Render();
  ok &= observer->CheckErrorMessage("vtkRectilinearGrid with unevenly spaced or decreasing y "
                                    "coordinates") == 0;
  // and the mapper renders again with an even grid, and with the image
  scene.Mapper->SetInputData(grid);
  scene.Window->Render();
  ok &= !observer->GetError() && scene.Mapper->GetLastRayCount() > 0;
  vtkNew<vtkCudaVolumeMapper> fresh; // a rectilinear grid first, then the image
  fresh->SetAutoAdjustSampleDistances(0);
  fresh->SetSampleDistance(0.5);
  fresh->AddObserver(vtkCommand::ErrorEvent, observer);
  fresh->SetInputData(grid);
  scene.Volume->SetMapper(fresh);
  scene.Window->Render();
  fresh->SetInputData(image);
  scene.Window->Render();
  const cvrTest::ImageDifference after = cvrTest::Compare(fromImage, cvrTest::Grab(scene.Window), 0);
  std::printf("the image after a grid: mean %.4f levels\n", after.MeanLevels);
  ok &= !observer->GetError() && after.MeanLevels == 0.0;
  scene.Volume->SetMapper(scene.Mapper);
  return scene.Finish(argc, argv, ok);
}
