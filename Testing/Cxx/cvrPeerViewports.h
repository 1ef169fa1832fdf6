// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// A window of several viewports, each one volume rendered once by
// vtkCudaVolumeMapper and once by VTK's vtkOpenGLGPUVolumeRayCastMapper with
// the same settings (jittering off, a fixed sample distance), compared
// viewport by viewport: the peer check of the feature tests that follow VTK's
// multi-viewport tests (TestGPURayCastBlendModes, ...Cropping, ...Clipping).
#ifndef cvrPeerViewports_h
#define cvrPeerViewports_h

#include "cvrPeerCompare.h"
#include "cvrTestScene.h"
#include "vtkCallbackCommand.h"
#include "vtkExtractVOI.h"
#include "vtkOpenGLGPUVolumeRayCastMapper.h"
#include "vtkPointData.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace cvrTest
{
/// The difference of two window images inside one viewport.
inline ImageDifference CompareViewport(
  vtkImageData* a, vtkImageData* b, const double viewport[4], int width, int height, int threshold)
{
  const int x0 = static_cast<int>(viewport[0] * width + 0.5);
  const int x1 = static_cast<int>(viewport[2] * width + 0.5) - 1;
  const int y0 = static_cast<int>(viewport[1] * height + 0.5);
  const int y1 = static_cast<int>(viewport[3] * height + 0.5) - 1;
  vtkSmartPointer<vtkImageData> parts[2];
  vtkImageData* images[2] = { a, b };
  for (int i = 0; i < 2; ++i)
  {
    vtkNew<vtkExtractVOI> voi;
    voi->SetInputData(images[i]);
    voi->SetVOI(x0, x1, y0, y1, 0, 0);
    voi->Update();
    parts[i] = voi->GetOutput();
  }
  return Compare(parts[0], parts[1], threshold);
}

struct PeerViewports
{
  struct Viewport
  {
    std::string Name;
    vtkSmartPointer<vtkCudaVolumeMapper> Ours;
    vtkSmartPointer<vtkOpenGLGPUVolumeRayCastMapper> OpenGL;
    vtkSmartPointer<vtkVolume> Volume;
    vtkSmartPointer<vtkRenderer> Renderer;
    std::array<double, 4> Bounds;
    // the peer bound: mean levels, and the fraction of pixels over 8 levels
    double MeanBound = 0.5, OverBound = 0.01;
  };

  int Width, Height, Columns, Rows;
  vtkNew<vtkRenderWindow> Window;
  vtkNew<vtkRenderWindowInteractor> Interactor;
  std::vector<Viewport> Viewports;
  std::vector<std::string> Messages; ///< CollectMessages
  vtkNew<vtkCallbackCommand> Collector;

  PeerViewports(int width, int height, int columns, int rows)
    : Width(width)
    , Height(height)
    , Columns(columns)
    , Rows(rows)
  {
    this->Window->SetSize(width, height);
    this->Window->SetMultiSamples(0);
    this->Interactor->SetRenderWindow(this->Window);
  }

  /// The next viewport (row by row from the top left): `image` through
  /// `property`, sampled every `sampleDistance` world units, seen from the
  /// azimuth and elevation; `configure` is applied to both mappers.
  Viewport& Add(const char* name, vtkImageData* image, vtkVolumeProperty* property,
    double sampleDistance, double azimuth, double elevation, bool parallel,
    const std::function<void(vtkVolumeMapper*)>& configure)
  {
    const int i = static_cast<int>(this->Viewports.size());
    Viewport v;
    v.Name = name;
    v.Ours = vtkSmartPointer<vtkCudaVolumeMapper>::New();
    v.OpenGL = vtkSmartPointer<vtkOpenGLGPUVolumeRayCastMapper>::New();
    v.OpenGL->SetUseJittering(0);
    for (vtkGPUVolumeRayCastMapper* m :
      { static_cast<vtkGPUVolumeRayCastMapper*>(v.Ours), static_cast<vtkGPUVolumeRayCastMapper*>(v.OpenGL) })
    {
      m->SetInputData(image);
      m->SetAutoAdjustSampleDistances(0);
      m->SetSampleDistance(sampleDistance);
      configure(m);
    }
    v.Volume = vtkSmartPointer<vtkVolume>::New();
    v.Volume->SetProperty(property);
    v.Volume->SetMapper(v.Ours);
    v.Renderer = vtkSmartPointer<vtkRenderer>::New();
    v.Renderer->SetBackground(0.1, 0.1, 0.15);
    const double col = i % this->Columns, row = this->Rows - 1 - i / this->Columns;
    v.Bounds = { col / this->Columns, row / this->Rows, (col + 1) / this->Columns,
      (row + 1) / this->Rows };
    v.Renderer->SetViewport(v.Bounds.data());
    v.Renderer->AddVolume(v.Volume);
    v.Renderer->ResetCamera();
    v.Renderer->GetActiveCamera()->Azimuth(azimuth);
    v.Renderer->GetActiveCamera()->Elevation(elevation);
    v.Renderer->GetActiveCamera()->SetParallelProjection(parallel);
    v.Renderer->ResetCamera();
    this->Window->AddRenderer(v.Renderer);
    this->Viewports.push_back(v);
    return this->Viewports.back();
  }

  /// Renders with our mappers, then with VTK's, and compares every viewport
  /// against its bound (by default TestCudaVolumePeerMappers's: mean at most
  /// 0.5 levels, at most 1% of the pixels over 8). Prints each; leaves our
  /// mappers in place.
  bool RenderAndCompare()
  {
    this->Window->Render();
    vtkSmartPointer<vtkImageData> ours = Grab(this->Window);
    for (Viewport& v : this->Viewports)
    {
      v.Volume->SetMapper(v.OpenGL);
    }
    this->Window->Render();
    vtkSmartPointer<vtkImageData> opengl = Grab(this->Window);
    bool ok = true;
    for (Viewport& v : this->Viewports)
    {
      const ImageDifference d =
        CompareViewport(ours, opengl, v.Bounds.data(), this->Width, this->Height, 8);
      const bool pass = d.MeanLevels <= v.MeanBound && d.FractionOver <= v.OverBound;
      std::printf("%-44s (%s) vs OpenGL: mean %.3f levels, %.3f%% over 8: %s\n", v.Name.c_str(),
        v.Ours->GetLastConfiguration(), d.MeanLevels, 100.0 * d.FractionOver,
        pass ? "ok" : "OUTSIDE THE TOLERANCE");
      ok &= pass;
      v.Volume->SetMapper(v.Ours);
    }
    this->Window->Render();
    return ok;
  }

  /// Collects our mappers' errors and warnings from here on into Messages.
  void CollectMessages()
  {
    this->Collector->SetClientData(&this->Messages);
    this->Collector->SetCallback([](vtkObject*, unsigned long, void* clientData, void* callData) {
      static_cast<std::vector<std::string>*>(clientData)->push_back(static_cast<const char*>(callData));
    });
    for (Viewport& v : this->Viewports)
    {
      v.Ours->AddObserver(vtkCommand::ErrorEvent, this->Collector);
      v.Ours->AddObserver(vtkCommand::WarningEvent, this->Collector);
    }
  }

  /// Whether the messages collected are at most the notice that a build
  /// without CUDA renders on the CPU; prints any other.
  bool NoUnexpectedMessages() const
  {
    bool ok = true;
    for (const std::string& m : this->Messages)
    {
      if (m.find("rendering on the CPU") == std::string::npos)
      {
        std::printf("ERROR: unexpected message: %s\n", m.c_str());
        ok = false;
      }
    }
    return ok;
  }

  /// The window's pixels more than 8 levels (summed over r, g, b) from the
  /// background (0.1, 0.1, 0.15), with only viewport i's volume shown (-1:
  /// none; cells without a renderer count alike every time).
  long VisibleWith(int i)
  {
    for (size_t k = 0; k < this->Viewports.size(); ++k)
    {
      this->Viewports[k].Volume->SetVisibility(static_cast<int>(k) == i);
    }
    this->Window->Render();
    vtkSmartPointer<vtkImageData> image = Grab(this->Window);
    vtkDataArray* rgb = image->GetPointData()->GetScalars();
    long n = 0;
    for (vtkIdType p = 0; p < rgb->GetNumberOfTuples(); ++p)
    {
      n += std::abs(rgb->GetComponent(p, 0) - 25) + std::abs(rgb->GetComponent(p, 1) - 25) +
          std::abs(rgb->GetComponent(p, 2) - 38) >
        8;
    }
    for (Viewport& v : this->Viewports)
    {
      v.Volume->SetVisibility(1);
    }
    return n;
  }

  /// The regression image of our rendering: the test's exit code.
  int CompareWithBaseline(int argc, char* argv[], bool ok)
  {
    const int retVal = vtkRegressionTestImage(this->Window);
    if (retVal == vtkRegressionTester::DO_INTERACTOR)
    {
      this->Interactor->Start();
    }
    return (ok && retVal) ? 0 : 1;
  }
};
}

#endif
