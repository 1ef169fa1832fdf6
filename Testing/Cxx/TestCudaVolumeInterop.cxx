// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// The image hand-over through OpenGL interop (the image and the scene's
// depth stay on the GPU) against the one through host memory, in a window
// of four viewports, three of them away from the window's origin, with
// opaque geometry through the volume in two (its depth read on the GPU):
// every viewport's image and sample count must be the same both ways; and
// both ways in the window multisampled, within TestCudaVolumeMultiSamples's
// bounds of the single-sampled image. On a
// machine without NVIDIA's OpenGL both ways are host memory and the test
// only checks that the switch costs nothing; on the GPU machine (EGL
// windows, tools/device/run-vtk.sh) it checks the interop path itself.
#include "cvrPeerViewports.h"
#include "vtkPNGWriter.h"

int TestCudaVolumeInterop(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> bonsai = cvrTest::ReadNifti(file);
  const int width = 400, height = 300;
  vtkNew<vtkRenderWindow> window;
  window->SetSize(width, height);
  window->SetMultiSamples(0);
  vtkNew<vtkVolumeProperty> property;
  cvrTest::SetRamp(property, 30, 180, 0.3);
  struct Part
  {
    vtkNew<vtkRenderer> Renderer;
    vtkNew<vtkCudaVolumeMapper> Mapper;
    vtkNew<vtkVolume> Volume;
    double Bounds[4];
    vtkTypeUInt64 Samples[4] = { 0, 0, 0, 0 };
    std::string Transfer[4];
  };
  Part parts[4];
  for (int i = 0; i < 4; ++i)
  {
    Part& p = parts[i];
    const double col = i % 2, row = i / 2;
    const double bounds[4] = { col / 2, row / 2, (col + 1) / 2, (row + 1) / 2 };
    std::copy(bounds, bounds + 4, p.Bounds);
    p.Renderer->SetViewport(p.Bounds);
    p.Renderer->SetBackground(0.1, 0.1, 0.15);
    p.Mapper->SetInputData(bonsai);
    p.Mapper->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD);
    p.Mapper->EarlyRayTerminationOff();
    p.Volume->SetMapper(p.Mapper);
    p.Volume->SetProperty(property);
    p.Renderer->AddVolume(p.Volume);
    if (i % 3 != 0) // viewports 1 and 2: a sphere through the volume
    {
      cvrTest::AddOpaqueSphere(p.Renderer);
    }
    p.Renderer->ResetCamera();
    p.Renderer->GetActiveCamera()->Azimuth(30 + 40 * i);
    p.Renderer->GetActiveCamera()->Elevation(15);
    p.Renderer->ResetCamera();
    window->AddRenderer(p.Renderer);
  }

  // interop (where there is one), then host memory; then both again in the
  // window multisampled (its depth resolved before it is read)
  vtkSmartPointer<vtkImageData> images[4];
  for (int way = 0; way < 4; ++way)
  {
    for (Part& p : parts)
    {
      p.Mapper->SetGraphicsInterop(way % 2 == 0);
    }
    window->SetMultiSamples(way < 2 ? 0 : 8);
    window->Render();
    images[way] = cvrTest::Grab(window);
    for (Part& p : parts)
    {
      p.Samples[way] = p.Mapper->GetLastSampleCount();
      p.Transfer[way] = p.Mapper->GetLastImageTransfer();
    }
  }
  std::printf("image transfer: %s, then %s\n", parts[0].Transfer[0].c_str(),
    parts[0].Transfer[1].c_str());
  bool ok = true;
  for (int i = 0; i < 4; ++i)
  {
    const cvrTest::ImageDifference d =
      cvrTest::CompareViewport(images[0], images[1], parts[i].Bounds, width, height, 2);
    const bool same = d.MeanLevels < 0.01 && d.FractionOver == 0 &&
      parts[i].Samples[0] == parts[i].Samples[1] && parts[i].Samples[0] > 0 &&
      parts[i].Transfer[0] == parts[0].Transfer[0] &&
      parts[i].Transfer[1].rfind("host memory", 0) == 0;
    std::printf("viewport %d (origin %d, %d%s; %s): %.3f levels mean, %.3f%% over 2; samples "
                "%llu and %llu%s\n",
      i, static_cast<int>(parts[i].Bounds[0] * width), static_cast<int>(parts[i].Bounds[1] * height),
      i % 3 != 0 ? ", a sphere" : "", parts[i].Transfer[0].c_str(), d.MeanLevels, 100.0 * d.FractionOver,
      static_cast<unsigned long long>(parts[i].Samples[0]),
      static_cast<unsigned long long>(parts[i].Samples[1]), same ? "" : ": NOT THE SAME");
    ok = ok && same;
    // multisampled: the sphere's silhouette is antialiased, and its resolved
    // depth there a blend (TestCudaVolumeMultiSamples's bounds)
    for (int way = 2; way < 4; ++way)
    {
      const cvrTest::ImageDifference m =
        cvrTest::CompareViewport(images[1], images[way], parts[i].Bounds, width, height, 8);
      const double ratio = static_cast<double>(parts[i].Samples[way]) /
        static_cast<double>(std::max<vtkTypeUInt64>(parts[i].Samples[1], 1));
      const bool near = m.MeanLevels < 1.0 && m.FractionOver < 0.03 && ratio > 0.99 && ratio < 1.01;
      std::printf("  multisampled, %s: %.3f levels mean, %.3f%% over 8; samples %.4f of the "
                  "single-sampled%s\n",
        parts[i].Transfer[way].c_str(), m.MeanLevels, 100.0 * m.FractionOver, ratio,
        near ? "" : ": NOT THE SAME");
      ok = ok && near;
    }
  }
  if (!ok)
  {
    std::cerr << "ERROR: the interop hand-over does not give the host memory's images\n";
    vtkNew<vtkTesting> testing; // both images beside the test's output
    testing->AddArguments(argc, argv);
    const char* names[4] = { "interop", "host", "interop-multisampled", "host-multisampled" };
    for (int way = 0; way < 4; ++way)
    {
      vtkNew<vtkPNGWriter> writer;
      writer->SetInputData(images[way]);
      writer->SetFileName((std::string(testing->GetTempDirectory()) + "/TestCudaVolumeInterop-" +
        names[way] + ".png")
                             .c_str());
      writer->Write();
    }
  }
  return ok ? 0 : 1;
}
