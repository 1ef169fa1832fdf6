// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Bad input through the mapper (an error is said once until it changes, see
// the end): each case renders once with one thing wrong
// (the input, its scalars or geometry, the transfer functions, the sample
// distance, the viewport, a tuning value), must say what is wrong in a VTK
// error or warning naming it (or, where the input is merely unusual, render
// without one), must not crash, and must leave the mapper usable: the same
// mapper then renders the valid scene again without a message. On the CPU
// backend here and the CUDA backend on the GPU machine. Messages are caught
// by observers, so the test's output holds none of VTK's error lines.
#include "cvrTestScene.h"
#include "vtkDoubleArray.h"
#include "vtkExecutive.h"
#include "vtkFloatArray.h"
#include "vtkLongLongArray.h"
#include "vtkMatrix3x3.h"
#include "vtkPointData.h"
#include "vtkStringArray.h"
#include "vtkTestErrorObserver.h"

#include <cmath>
#include <functional>
#include <limits>

namespace
{
// An image of dims with one float component, a ramp over 0..255.
vtkSmartPointer<vtkImageData> Ramp(int nx, int ny, int nz)
{
  auto image = vtkSmartPointer<vtkImageData>::New();
  image->SetDimensions(nx, ny, nz);
  vtkNew<vtkFloatArray> values;
  values->SetName("ramp");
  values->SetNumberOfTuples(static_cast<vtkIdType>(nx) * ny * nz);
  for (vtkIdType i = 0; i < values->GetNumberOfTuples(); ++i)
  {
    values->SetValue(i, static_cast<float>(i % 256));
  }
  image->GetPointData()->SetScalars(values);
  return image;
}

// One case's mapper, property and image, fresh, in the test's one window.
struct Scene
{
  cvrTest::VolumeScene& View;
  vtkNew<vtkCudaVolumeMapper> Mapper;
  vtkNew<vtkVolumeProperty> Property;
  vtkSmartPointer<vtkImageData> Image = Ramp(24, 24, 24);
  explicit Scene(cvrTest::VolumeScene& view)
    : View(view)
  {
    cvrTest::SetRamp(this->Property, 0, 255, 0.8);
    this->Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD);
    this->Mapper->SetInputData(this->Image);
    view.Volume->SetMapper(this->Mapper);
    view.Volume->SetProperty(this->Property);
    view.Renderer->SetViewport(0, 0, 1, 1);
    view.View(30, 20);
  }
};

struct Case
{
  const char* Name;
  std::function<void(Scene&)> Break;
  const char* Expect; // in the mapper's error or warning; nullptr: none
  bool Draws;         // with no message: rays were cast
};

// Everything a case may have broken, set right again on the same mapper.
void Restore(Scene& s)
{
  s.Image = Ramp(24, 24, 24);
  s.Mapper->SetInputData(s.Image);
  s.Mapper->SetScalarModeToDefault();
  s.Mapper->SetVectorMode(vtkCudaVolumeMapper::VECTOR_DISABLED);
  s.Mapper->SetVectorComponent(0);
  cvrTest::SetRamp(s.Property, 0, 255, 0.8);
  s.Property->IndependentComponentsOn();
  s.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD);
  s.Mapper->SetBlockSize(16, 16);
  s.Mapper->SetWarpWidth(32);
  s.Mapper->SetSlabDepth(8);
  s.Mapper->SetRotationTile(32, 0);
  s.Mapper->SetTerminationOpacity(254.0 / 255.0);
  s.Mapper->SetCpuTileSize(32, 32);
  s.Mapper->SetTuningBudget(0.01);
  s.Mapper->SetDeviceIndex(-1);
  s.Mapper->SetAutoAdjustSampleDistances(1);
  s.View.Renderer->SetViewport(0, 0, 1, 1);
}
} // namespace

int TestCudaVolumeBadInput(int, char*[])
{
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Case cases[] = {
    { "no input", // VTK's pipeline says it
      [](Scene& s) { s.Mapper->SetInputData(static_cast<vtkImageData*>(nullptr)); },
      "has 0 connections but is not optional",
      false },
    { "empty image",
      [](Scene& s) { s.Mapper->SetInputData(vtkNew<vtkImageData>().Get()); },
      "No scalars",
      false },
    { "1x1x1 image",
      [](Scene& s) { s.Mapper->SetInputData(Ramp(1, 1, 1)); },
      "dimensions 1 x 1 x 1: each must be at least 2",
      false },
    { "1xNx1 image",
      [](Scene& s) { s.Mapper->SetInputData(Ramp(1, 16, 1)); },
      "dimensions 1 x 16 x 1: each must be at least 2",
      false },
    { "2D image",
      [](Scene& s) { s.Mapper->SetInputData(Ramp(16, 16, 1)); },
      "dimensions 16 x 16 x 1: each must be at least 2",
      false },
    { "no scalars",
      [](Scene& s) { s.Image->GetPointData()->SetScalars(nullptr); },
      "No scalars",
      false },
    { "non-numeric scalars",
      [](Scene& s)
      {
        vtkNew<vtkStringArray> names;
        names->SetName("names");
        names->SetNumberOfValues(s.Image->GetNumberOfPoints());
        s.Image->GetPointData()->AddArray(names);
        s.Mapper->SetScalarModeToUsePointFieldData();
        s.Mapper->SelectScalarArray("names");
      },
      "No scalars named \"names\"",
      false },
    { "5 components",
      [](Scene& s)
      {
        vtkNew<vtkFloatArray> five;
        five->SetNumberOfComponents(5);
        five->SetNumberOfTuples(s.Image->GetNumberOfPoints());
        five->Fill(1.0);
        s.Image->GetPointData()->SetScalars(five);
      },
      "Only 1 - 4 component scalars",
      false },
    { "3 dependent components",
      [](Scene& s)
      {
        vtkNew<vtkFloatArray> three;
        three->SetNumberOfComponents(3);
        three->SetNumberOfTuples(s.Image->GetNumberOfPoints());
        three->Fill(1.0);
        s.Image->GetPointData()->SetScalars(three);
        s.Property->IndependentComponentsOff();
      },
      "must have either 2 or 4 component scalars", // VTK's own check, before ours
      false },
    { "vector component 3 of 2",
      [](Scene& s)
      {
        vtkNew<vtkFloatArray> two;
        two->SetNumberOfComponents(2);
        two->SetNumberOfTuples(s.Image->GetNumberOfPoints());
        two->Fill(1.0);
        s.Image->GetPointData()->SetScalars(two);
        s.Mapper->SetVectorMode(vtkCudaVolumeMapper::VECTOR_COMPONENT);
        s.Mapper->SetVectorComponent(3);
      },
      "vector component 3 is beyond the 2 components",
      false },
    { "64-bit integer scalars",
      [](Scene& s)
      {
        vtkNew<vtkLongLongArray> big;
        big->SetNumberOfTuples(s.Image->GetNumberOfPoints());
        for (vtkIdType i = 0; i < big->GetNumberOfTuples(); ++i)
        {
          big->SetValue(i, (i % 256) * 1000000000000LL);
        }
        s.Image->GetPointData()->SetScalars(big);
      },
      nullptr,
      true },
    { "NaN values",
      [nan](Scene& s)
      { vtkFloatArray::SafeDownCast(s.Image->GetPointData()->GetScalars())->SetValue(7, nan); },
      nullptr,
      true },
    { "infinite values",
      [inf](Scene& s)
      {
        auto* v = vtkFloatArray::SafeDownCast(s.Image->GetPointData()->GetScalars());
        v->SetValue(7, inf);
        v->SetValue(8, -inf);
      },
      nullptr,
      true },
    { "one infinite double value", // (VTK's mapper draws it: the functions span the finite values)
      [inf](Scene& s)
      {
        vtkNew<vtkDoubleArray> v;
        v->DeepCopy(s.Image->GetPointData()->GetScalars());
        v->SetValue(7, inf);
        s.Image->GetPointData()->SetScalars(v);
      },
      nullptr,
      true },
    { "zero spacing",
      [](Scene& s) { s.Image->SetSpacing(1.0, 0.0, 1.0); },
      "spacing (1, 0, 1) must be positive and finite",
      false },
    { "negative spacing", [](Scene& s) { s.Image->SetSpacing(1.0, -1.0, 1.0); }, nullptr, true },
    { "degenerate direction matrix",
      [](Scene& s)
      {
        vtkNew<vtkMatrix3x3> zero;
        zero->Zero();
        s.Image->SetDirectionMatrix(zero);
      },
      "direction matrix is singular",
      false },
    { "beyond 3D texture limits",
      [](Scene& s) { s.Mapper->SetInputData(Ramp(40000, 2, 2)); },
      "dimension 40000 on axis 0 exceeds the supported maximum",
      false },
    { "empty opacity function",
      [](Scene& s) { s.Property->GetScalarOpacity()->RemoveAllPoints(); },
      "the scalar opacity function has no points",
      false },
    { "empty colour function",
      [](Scene& s) { s.Property->GetRGBTransferFunction()->RemoveAllPoints(); },
      "the colour transfer function has no points",
      false },
    { "zero sample distance",
      [](Scene& s)
      {
        s.Mapper->SetAutoAdjustSampleDistances(0);
        s.Mapper->SetSampleDistance(0.0f);
      },
      "sample distance 0 must be positive",
      false },
    { "negative sample distance",
      [](Scene& s)
      {
        s.Mapper->SetAutoAdjustSampleDistances(0);
        s.Mapper->SetSampleDistance(-1.0f);
      },
      "sample distance -1 must be positive",
      false },
    { "zero-size viewport",
      [](Scene& s) { s.View.Renderer->SetViewport(0.5, 0.5, 0.5, 0.5); },
      nullptr,
      false },
    { "thread block of 0",
      [](Scene& s) { s.Mapper->SetBlockSize(0, 16); },
      "thread block 0 x 16 must have 1..1024 threads",
      false },
    { "thread block over 1024",
      [](Scene& s) { s.Mapper->SetBlockSize(64, 32); },
      "thread block 64 x 32 must have 1..1024 threads",
      false },
    { "tuning budget 0",
      [](Scene& s)
      {
        s.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_AUTO);
        s.Mapper->SetTuningBudget(0.0);
      },
      "tuning budget 0 must be above 0 and at most 1",
      false },
    { "warp width 3",
      [](Scene& s)
      {
        s.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING);
        s.Mapper->SetWarpWidth(3);
      },
      "warp width 3 must be a power of two",
      false },
    { "slab depth 7",
      [](Scene& s)
      {
        s.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_SLAB);
        s.Mapper->SetSlabDepth(7);
      },
      "slab depth 7 must be 4, 8, 16 or 32",
      false },
    { "rotation tile 0",
      [](Scene& s) { s.Mapper->SetRotationTile(0, 4); },
      "rotation tile 0 x 4",
      false },
    { "termination opacity 0",
      [](Scene& s) { s.Mapper->SetTerminationOpacity(0.0); },
      "termination opacity 0 must be in (0, 1]",
      false },
    { "CPU tile of 0",
      [](Scene& s) { s.Mapper->SetCpuTileSize(0, 0); },
      "CPU tile 0 x 0 must be 1..4096",
      false },
    { "device index 999",
      [](Scene& s) { s.Mapper->SetDeviceIndex(999); },
      "CUDA device 999 requested",
      false },
  };
  cvrTest::VolumeScene view(96, 96);
  bool ok = true;
  for (const Case& c : cases)
  {
    Scene s(view);
    vtkNew<vtkTest::ErrorObserver> observer;
    s.Mapper->AddObserver(vtkCommand::ErrorEvent, observer);
    s.Mapper->AddObserver(vtkCommand::WarningEvent, observer);
    s.Mapper->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, observer); // the pipeline's
    view.Window->Render(); // valid (a CPU backend says so once)
    const bool cuda = std::string(s.Mapper->GetBackendDescription()).compare(0, 4, "CUDA") == 0;
    observer->Clear();
    c.Break(s);
    view.Window->Render();
    const std::string said = observer->GetError()     ? observer->GetErrorMessage()
                             : observer->GetWarning() ? observer->GetWarningMessage()
                                                      : std::string();
    // without a GPU the mapper renders on the CPU from the start: no device to
    // miss
    const char* expect = (!cuda && std::string(c.Name) == "device index 999") ? nullptr : c.Expect;
    bool pass = expect ? said.find(expect) != std::string::npos
                       : said.empty() && (!c.Draws || s.Mapper->GetLastRayCount() > 0);
    // then the same mapper renders the valid scene again, saying nothing
    observer->Clear();
    Restore(s);
    view.Window->Render();
    const bool usable =
      !observer->GetError() && !observer->GetWarning() && s.Mapper->GetLastRayCount() > 0;
    std::printf("%-28s %s: %s%s\n",
      c.Name,
      pass ? "ok" : "WRONG",
      said.empty() ? "(no message)" : said.substr(said.find("): ") + 3).c_str(),
      usable ? "" : " | NOT USABLE AFTERWARDS");
    ok &= pass && usable;
  }
  std::printf("%zu cases\n", sizeof cases / sizeof cases[0]);

  // An error is said once until it changes: ten frames with a negative
  // sample distance say it once, and the statistics of each failed frame
  // are none (not the last good frame's); after a good frame it is said
  // again.
  {
    Scene s(view);
    cvrTest::MessageLog log(s.Mapper);
    view.Window->Render();
    const size_t before = log.Messages.size(); // (a CPU backend says so once)
    s.Mapper->SetAutoAdjustSampleDistances(0);
    s.Mapper->SetSampleDistance(-1.0f);
    for (int frame = 0; frame < 10; ++frame)
    {
      view.Window->Render();
    }
    const size_t tenFrames = log.Messages.size() - before;
    const bool noStats = s.Mapper->GetLastRayCount() == 0 &&
      std::string(s.Mapper->GetLastConfiguration()).find("no frame rendered: ") == 0 &&
      std::string(s.Mapper->GetLastConfiguration()).find("sample distance -1") != std::string::npos;
    s.Mapper->SetSampleDistance(1.0f);
    view.Window->Render();
    const bool good = s.Mapper->GetLastRayCount() > 0 && log.Messages.size() - before == tenFrames;
    s.Mapper->SetSampleDistance(-1.0f);
    view.Window->Render();
    const size_t again = log.Messages.size() - before - tenFrames;
    const bool once = tenFrames == 1 && noStats && good && again == 1;
    std::printf("a negative sample distance over 10 frames: said %zu times; a failed frame's "
                "configuration \"%s\"; said %zu more after a good frame: %s\n",
      tenFrames, s.Mapper->GetLastConfiguration(), again, once ? "ok" : "WRONG");
    ok &= once;
  }

  // On the CPU backend a CUDA strategy is said once to apply to CUDA only
  // (the frame renders with the CPU's tiles)
  {
    Scene s(view);
    s.Mapper->SetBackend(vtkCudaVolumeMapper::BACKEND_CPU);
    s.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING);
    cvrTest::MessageLog log(s.Mapper);
    for (int frame = 0; frame < 3; ++frame)
    {
      view.Window->Render();
    }
    size_t said = 0;
    for (const std::string& m : log.Messages)
    {
      said += m.find("warp-marching strategy applies to the CUDA backend") != std::string::npos;
    }
    const bool told = said == 1 && s.Mapper->GetLastRayCount() > 0;
    std::printf("warp marching on the CPU backend over 3 frames: said %zu times, %llu rays: %s\n",
      said, static_cast<unsigned long long>(s.Mapper->GetLastRayCount()), told ? "ok" : "WRONG");
    ok &= told;
  }
  return ok ? 0 : 1;
}
