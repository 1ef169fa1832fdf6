// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Opaque faces of small volumes, where a pixel's colour is its ray's first
// sample, and so the depth of that sample behind the face the ray enters:
// an opaque ramp (perspective, parallel, and a voxel a sample), VTK's
// wavelet, RGBA, luminance + alpha, and the ramp cropped to its middle
// (the crop planes' faces and edges; the planes where VTK's mapper puts
// them, vtkCudaVolumeConversion::DescribeCropping). Each
// viewport is rendered by vtkCudaVolumeMapper and by VTK's
// vtkOpenGLGPUVolumeRayCastMapper, which must agree within the peer bound
// (mean at most 0.5 levels, at most 1% of the pixels over 8): both start a
// ray's samples one sample distance behind its entry, so neither shows
// terraces, and both take one sample on rays that graze an edge. (With the
// first sample 0 to 1 sample deep, a lattice anchored at the eye, every
// viewport failed: 0.8-2.4 levels from VTK's image, up to 4.7% of the
// pixels over 8 at a voxel a sample.)
#include "cvrPeerViewports.h"
#include "vtkRTAnalyticSource.h"
#include "vtkUnsignedCharArray.h"

namespace
{
/// An n^3 image of `components` unsigned chars a voxel: a ramp along
/// x + 2y + 3z in the first, 255 - ramp in the second, half the ramp in
/// the third (0..127: VTK's mapper takes RGBA as its texture holds it, not
/// over each component's range), and 255 (opaque) in the last of 2 or 4.
vtkSmartPointer<vtkImageData> Ramp(int n, int components)
{
  auto image = vtkSmartPointer<vtkImageData>::New();
  image->SetDimensions(n, n, n);
  image->SetSpacing(1.0, 1.0, 1.0);
  vtkNew<vtkUnsignedCharArray> values;
  values->SetName("values");
  values->SetNumberOfComponents(components);
  values->SetNumberOfTuples(static_cast<vtkIdType>(n) * n * n);
  for (int z = 0; z < n; ++z)
  {
    for (int y = 0; y < n; ++y)
    {
      for (int x = 0; x < n; ++x)
      {
        const double ramp = 255.0 * (x + 2 * y + 3 * z) / (6.0 * (n - 1));
        const vtkIdType i = (static_cast<vtkIdType>(z) * n + y) * n + x;
        const double v[4] = { ramp, 255.0 - ramp, 0.5 * ramp, 255.0 };
        for (int c = 0; c < components; ++c)
        {
          values->SetTypedComponent(i, c,
            static_cast<unsigned char>(c == components - 1 && components > 1 ? 255.0 : v[c]));
        }
      }
    }
  }
  image->GetPointData()->SetScalars(values);
  return image;
}

/// Colour over [lo, hi] as cvrTest::SetRamp's, opaque everywhere.
vtkSmartPointer<vtkVolumeProperty> Opaque(double lo, double hi, bool independent = true)
{
  auto property = vtkSmartPointer<vtkVolumeProperty>::New();
  cvrTest::SetRamp(property, lo, hi, 1.0);
  vtkNew<vtkPiecewiseFunction> opacity;
  opacity->AddPoint(lo, 1.0);
  opacity->AddPoint(hi, 1.0);
  property->SetScalarOpacity(opacity);
  property->SetScalarOpacityUnitDistance(1.0);
  property->SetIndependentComponents(independent);
  return property;
}
}

int TestCudaVolumeOpaqueFaces(int argc, char* argv[])
{
  vtkSmartPointer<vtkImageData> ramp = Ramp(24, 1);
  vtkSmartPointer<vtkImageData> rgba = Ramp(24, 4);
  vtkSmartPointer<vtkImageData> luminanceAlpha = Ramp(24, 2);
  vtkNew<vtkRTAnalyticSource> waveletSource;
  waveletSource->SetWholeExtent(-10, 10, -10, 10, -10, 10);
  waveletSource->Update();
  vtkImageData* wavelet = waveletSource->GetOutput();

  vtkSmartPointer<vtkVolumeProperty> rampProperty = Opaque(0, 255);
  vtkSmartPointer<vtkVolumeProperty> waveletProperty = Opaque(37, 277);
  vtkSmartPointer<vtkVolumeProperty> dependent = Opaque(0, 255, false);
  const auto none = [](vtkVolumeMapper*) {};
  const double crop[6] = { 7.0, 16.0, 7.0, 16.0, 7.0, 16.0 };
  const auto cropped = [&](vtkVolumeMapper* m) {
    m->SetCropping(1);
    m->SetCroppingRegionPlanes(crop);
    m->SetCroppingRegionFlags(VTK_CROP_SUBVOLUME);
  };
  cvrTest::PeerViewports scene(800, 400, 4, 2);
  scene.Add("opaque ramp, perspective", ramp, rampProperty, 0.5, 35, 25, false, none);
  scene.Add("opaque ramp, parallel", ramp, rampProperty, 0.5, -50, -30, true, none);
  scene.Add("opaque wavelet", wavelet, waveletProperty, 0.5, 20, 35, false, none);
  scene.Add("opaque ramp, a voxel a sample", ramp, rampProperty, 1.0, 30, 20, false, none);
  scene.Add("RGBA", rgba, dependent, 0.5, 35, 25, false, none);
  scene.Add("luminance + alpha", luminanceAlpha, dependent, 0.5, -35, 25, true, none);
  scene.Add("opaque ramp cropped to its middle", ramp, rampProperty, 0.5, 30, 20, false, cropped);
  scene.Add("the same, parallel", ramp, rampProperty, 0.5, -40, -25, true, cropped);
  scene.CollectMessages();
  bool ok = scene.RenderAndCompare();
  ok &= scene.NoUnexpectedMessages();
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
