// Shared by the VTK-level tests: real data from ../shared/data (skip when
// absent), transfer functions, and a window of the given size.
#ifndef cvrTestScene_h
#define cvrTestScene_h

#include "vtkColorTransferFunction.h"
#include "vtkImageData.h"
#include "vtkNIFTIImageReader.h"
#include "vtkNew.h"
#include "vtkPiecewiseFunction.h"
#include "vtkSmartPointer.h"
#include "vtkTestUtilities.h"
#include "vtkTesting.h"
#include "vtkVolumeProperty.h"

#include <fstream>
#include <iostream>
#include <string>

namespace cvrTest
{
/// Path of a file of ../shared/data (the test's -D argument); empty when
/// the file is not there, and the test should return VTK_SKIP_RETURN_CODE.
inline std::string DataFile(int argc, char* argv[], const char* relative)
{
  char* expanded = vtkTestUtilities::ExpandDataFileName(argc, argv, relative);
  std::string path = expanded;
  delete[] expanded;
  if (!std::ifstream(path).good())
  {
    std::cout << "data file " << relative << " not found: test skipped\n";
    return std::string();
  }
  return path;
}

inline vtkSmartPointer<vtkImageData> ReadNifti(const std::string& path)
{
  vtkNew<vtkNIFTIImageReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  return reader->GetOutput();
}

/// Colour ramp dark red -> white and opacity rising from 0 at lo to
/// maxOpacity at hi, as the C tests use.
inline void SetRamp(vtkVolumeProperty* property, double lo, double hi, double maxOpacity = 0.5)
{
  vtkNew<vtkColorTransferFunction> color;
  color->AddRGBPoint(lo, 0.35, 0.12, 0.05);
  color->AddRGBPoint(0.5 * (lo + hi), 0.68, 0.32, 0.16);
  color->AddRGBPoint(hi, 1.0, 0.92, 0.95);
  vtkNew<vtkPiecewiseFunction> opacity;
  opacity->AddPoint(lo, 0.0);
  opacity->AddPoint(hi, maxOpacity);
  property->SetColor(color);
  property->SetScalarOpacity(opacity);
  property->SetInterpolationTypeToLinear();
}
}

#endif
