// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Cell scalars, as VTK's TestGPURayCastCellData: the iron protein's point
// data moved to its cells. The volume keeps the image's bounds (it reaches
// the outer faces of the cells, not their centres).
#include "cvrTestScene.h"
#include "vtkCellData.h"
#include "vtkPointDataToCellData.h"
#include "vtkStructuredPointsReader.h"

int TestCudaVolumeCellData(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "vtk/ironProt.vtk");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkNew<vtkStructuredPointsReader> reader;
  reader->SetFileName(file.c_str());
  vtkNew<vtkPointDataToCellData> toCells;
  toCells->SetInputConnection(reader->GetOutputPort());
  toCells->PassPointDataOff();
  toCells->Update();

  cvrTest::VolumeScene scene;
  scene.Mapper->SetInputConnection(toCells->GetOutputPort());
  scene.Mapper->SetScalarModeToUseCellData();
  cvrTest::SetRamp(scene.Property, 40, 200, 0.4);
  scene.Property->SetInterpolationTypeToNearest();
  scene.View(30, 30);
  scene.Window->Render();
  double bounds[6];
  scene.Volume->GetBounds(bounds);
  std::cout << "bounds " << bounds[0] << " " << bounds[1] << ", rays "
            << scene.Mapper->GetLastRayCount() << "\n";
  return scene.Finish(argc, argv, scene.Mapper->GetLastRayCount() > 0);
}
