// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Shared by the VTK-level tests: real data from ../shared/data (skip when
// absent), transfer functions, and a window of the given size.
#ifndef cvrTestScene_h
#define cvrTestScene_h

#include "vtkActor.h"
#include "vtkCallbackCommand.h"
#include "vtkCamera.h"
#include "vtkCommand.h"
#include "vtkColorTransferFunction.h"
#include "vtkCudaVolumeMapper.h"
#include "vtkRegressionTestImage.h"
#include "vtkRenderWindow.h"
#include "vtkRenderWindowInteractor.h"
#include "vtkRenderer.h"
#include "vtkVolume.h"
#include "vtkImageData.h"
#include "vtkNIFTIImageReader.h"
#include "vtkNew.h"
#include "vtkPiecewiseFunction.h"
#include "vtkPolyDataMapper.h"
#include "vtkProperty.h"
#include "vtkSmartPointer.h"
#include "vtkSphereSource.h"
#include "vtkTestUtilities.h"
#include "vtkTesting.h"
#include "vtkVolumeProperty.h"

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

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

/// A mapper's errors and warnings from construction on, each as "error: ..."
/// or "warning: ...".
struct MessageLog
{
  std::vector<std::string> Messages;
  vtkNew<vtkCallbackCommand> Collector;

  explicit MessageLog(vtkObject* mapper)
  {
    this->Collector->SetClientData(&this->Messages);
    this->Collector->SetCallback([](vtkObject*, unsigned long event, void* clientData, void* callData) {
      static_cast<std::vector<std::string>*>(clientData)->push_back(
        std::string(event == vtkCommand::ErrorEvent ? "error: " : "warning: ") +
        static_cast<const char*>(callData));
    });
    mapper->AddObserver(vtkCommand::ErrorEvent, this->Collector);
    mapper->AddObserver(vtkCommand::WarningEvent, this->Collector);
  }
};

inline vtkSmartPointer<vtkImageData> ReadNifti(const std::string& path)
{
  vtkNew<vtkNIFTIImageReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  return reader->GetOutput();
}

/// The samples the last frame's rays reached: taken, or stepped over in
/// empty macro-cells, which each strategy does at its own granularity (Auto
/// may pick another strategy in any frame), so that this, not the samples
/// taken, follows the sample distance.
inline double SamplesReached(vtkCudaVolumeMapper* mapper)
{
  return static_cast<double>(mapper->GetLastSampleCount()) +
    static_cast<double>(mapper->GetLastSamplesSkippedEmpty());
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

/// An opaque blue sphere of radius 70 in the middle of the bonsai (256^3,
/// unit spacing), for the tests of depth against opaque geometry.
inline void AddOpaqueSphere(vtkRenderer* renderer)
{
  vtkNew<vtkSphereSource> sphere;
  sphere->SetCenter(128, 128, 128);
  sphere->SetRadius(70);
  sphere->SetThetaResolution(48);
  sphere->SetPhiResolution(48);
  vtkNew<vtkPolyDataMapper> sphereMapper;
  sphereMapper->SetInputConnection(sphere->GetOutputPort());
  vtkNew<vtkActor> actor;
  actor->SetMapper(sphereMapper);
  actor->GetProperty()->SetColor(0.3, 0.6, 0.9);
  renderer->AddActor(actor);
}

/// Says which backend rendered, compares the window with the test's baseline
/// and returns the test's exit code (0 only when `ok` and the images match).
inline int CompareWithBaseline(int argc, char* argv[], vtkRenderWindow* window,
  vtkRenderWindowInteractor* interactor, vtkCudaVolumeMapper* mapper, bool ok = true)
{
  std::cout << "rendered by " << mapper->GetLastConfiguration() << " ("
            << mapper->GetBackendDescription() << ")\n";
  const int retVal = vtkRegressionTestImage(window);
  if (retVal == vtkRegressionTester::DO_INTERACTOR)
  {
    interactor->Start();
  }
  return (ok && retVal) ? 0 : 1;
}

/// A window with one renderer showing one volume through vtkCudaVolumeMapper.
struct VolumeScene
{
  vtkNew<vtkRenderWindow> Window;
  vtkNew<vtkRenderer> Renderer;
  vtkNew<vtkRenderWindowInteractor> Interactor;
  vtkNew<vtkCudaVolumeMapper> Mapper;
  vtkNew<vtkVolumeProperty> Property;
  vtkNew<vtkVolume> Volume;

  explicit VolumeScene(int width = 300, int height = 300)
  {
    this->Window->SetSize(width, height);
    this->Window->SetMultiSamples(0);
    this->Window->AddRenderer(this->Renderer);
    this->Renderer->SetBackground(0.1, 0.1, 0.15);
    this->Interactor->SetRenderWindow(this->Window);
    this->Volume->SetMapper(this->Mapper);
    this->Volume->SetProperty(this->Property);
    this->Renderer->AddVolume(this->Volume);
  }

  /// Frames the scene from the given azimuth and elevation.
  void View(double azimuth, double elevation)
  {
    this->Renderer->ResetCamera();
    this->Renderer->GetActiveCamera()->Azimuth(azimuth);
    this->Renderer->GetActiveCamera()->Elevation(elevation);
    this->Renderer->ResetCamera();
  }

  /// Renders and compares with the baseline; the test's return value.
  int Finish(int argc, char* argv[], bool ok = true)
  {
    this->Window->Render();
    return CompareWithBaseline(argc, argv, this->Window, this->Interactor, this->Mapper, ok);
  }
};
}

#endif
