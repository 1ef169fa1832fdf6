// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Masks (after VTK's TestGPURayCastCompositeBinaryMask1 and
// TestGPURayCastLabelMap*): bonsai with a mask input of its own dimensions,
// a ball around the centre (label 1) and the lowest quarter in z (label 2),
// rendered by vtkCudaVolumeMapper and by VTK's vtkOpenGLGPUVolumeRayCastMapper,
// which must agree within the peer bound (mean at most 0.5 levels, at most 1%
// of the pixels over 8; shaded 1.0 and 3%, as TestCudaVolumeClipping's) in
// every viewport:
//  - a binary mask (both labels kept), composite and maximum intensity;
//  - a label map, label 1 red and label 2 green with their own opacities,
//    blend factor 1 and 0.5, and shaded with label 2's gradient opacity.
// Removing the mask input renders the unmasked image (more pixels), and no
// warning or error is reported.
#include "cvrPeerViewports.h"
#include "vtkColorTransferFunction.h"
#include "vtkPiecewiseFunction.h"
#include "vtkPointData.h"
#include "vtkUnsignedCharArray.h"

namespace
{
vtkSmartPointer<vtkImageData> BallAndSlab(vtkImageData* image)
{
  int dims[3];
  image->GetDimensions(dims);
  auto mask = vtkSmartPointer<vtkImageData>::New();
  mask->CopyStructure(image);
  vtkNew<vtkUnsignedCharArray> labels;
  labels->SetNumberOfTuples(static_cast<vtkIdType>(dims[0]) * dims[1] * dims[2]);
  vtkIdType o = 0;
  for (int k = 0; k < dims[2]; ++k)
  {
    for (int j = 0; j < dims[1]; ++j)
    {
      for (int i = 0; i < dims[0]; ++i)
      {
        const double x = (i - 0.5 * dims[0]) / dims[0], y = (j - 0.5 * dims[1]) / dims[1],
                     z = (k - 0.5 * dims[2]) / dims[2];
        labels->SetValue(o++, x * x + y * y + z * z < 0.09 ? 1 : (k < dims[2] / 4 ? 2 : 0));
      }
    }
  }
  mask->GetPointData()->SetScalars(labels);
  return mask;
}

}

int TestCudaVolumeMasks(int argc, char* argv[])
{
  const std::string file = cvrTest::DataFile(argc, argv, "scivis/bonsai.nii.gz");
  if (file.empty())
  {
    return VTK_SKIP_RETURN_CODE;
  }
  vtkSmartPointer<vtkImageData> bonsai = cvrTest::ReadNifti(file);
  vtkSmartPointer<vtkImageData> mask = BallAndSlab(bonsai);
  double spacing[3];
  bonsai->GetSpacing(spacing);
  const double dt = 0.5 * std::min(spacing[0], std::min(spacing[1], spacing[2]));

  vtkNew<vtkVolumeProperty> plain;
  cvrTest::SetRamp(plain, 30, 180, 0.5);
  // label 1 red over the ramp's opacity, label 2 green and fainter (label 0:
  // the volume's functions)
  vtkNew<vtkVolumeProperty> labelled, shaded;
  for (vtkVolumeProperty* p : { labelled.Get(), shaded.Get() })
  {
    cvrTest::SetRamp(p, 30, 180, 0.5);
    vtkNew<vtkColorTransferFunction> red, green;
    red->AddRGBPoint(0, 1.0, 0.2, 0.1);
    red->AddRGBPoint(255, 1.0, 0.6, 0.3);
    green->AddRGBPoint(0, 0.1, 0.8, 0.2);
    green->AddRGBPoint(255, 0.4, 1.0, 0.4);
    vtkNew<vtkPiecewiseFunction> faint;
    faint->AddPoint(30, 0.0);
    faint->AddPoint(180, 0.2);
    p->SetLabelColor(1, red);
    p->SetLabelColor(2, green);
    p->SetLabelScalarOpacity(2, faint);
  }
  shaded->ShadeOn();
  vtkNew<vtkPiecewiseFunction> edges; // label 2 where its gradient is strong
  edges->AddPoint(0, 0.0);
  edges->AddPoint(20, 1.0);
  shaded->SetLabelGradientOpacity(2, edges);

  auto masked = [&](int type, float blend, int blendMode) {
    return [&mask, type, blend, blendMode](vtkVolumeMapper* m) {
      auto* g = static_cast<vtkGPUVolumeRayCastMapper*>(m);
      g->SetMaskInput(mask);
      g->SetMaskType(type);
      g->SetMaskBlendFactor(blend);
      g->SetBlendMode(blendMode);
    };
  };
  cvrTest::PeerViewports scene(600, 400, 3, 2);
  scene.Add("binary mask", bonsai, plain, dt, 30, 20, false,
    masked(vtkGPUVolumeRayCastMapper::BinaryMaskType, 1.0f, vtkVolumeMapper::COMPOSITE_BLEND));
  scene.Add("binary mask, maximum intensity, parallel", bonsai, plain, dt, -40, 10, true,
    masked(vtkGPUVolumeRayCastMapper::BinaryMaskType, 1.0f, vtkVolumeMapper::MAXIMUM_INTENSITY_BLEND));
  scene.Add("label map", bonsai, labelled, dt, 30, 20, false,
    masked(vtkGPUVolumeRayCastMapper::LabelMapMaskType, 1.0f, vtkVolumeMapper::COMPOSITE_BLEND));
  scene.Add("label map, blend 0.5, parallel", bonsai, labelled, dt, 120, -20, true,
    masked(vtkGPUVolumeRayCastMapper::LabelMapMaskType, 0.5f, vtkVolumeMapper::COMPOSITE_BLEND));
  auto& lit = scene.Add("label map, shaded, label gradient opacity", bonsai, shaded, dt, -60, 30,
    false, masked(vtkGPUVolumeRayCastMapper::LabelMapMaskType, 1.0f, vtkVolumeMapper::COMPOSITE_BLEND));
  lit.MeanBound = 1.0; // TestCudaVolumePeerMappers's shaded bound: VTK's gradients differ from
  lit.OverBound = 0.03; // ours in step and sign conventions (measured here: 0.44, 1.6%)
  scene.Add("no mask", bonsai, plain, dt, 30, 20, false, [](vtkVolumeMapper*) {});

  scene.CollectMessages();
  bool ok = scene.RenderAndCompare();

  // the binary mask (viewport 0) shows less than no mask (viewport 5, the
  // same view); without its mask input it renders that again
  const long withMask = scene.VisibleWith(0), without = scene.VisibleWith(5);
  scene.Viewports[0].Ours->SetMaskInput(nullptr);
  const long removed = scene.VisibleWith(0);
  scene.Viewports[0].Ours->SetMaskInput(mask);
  std::cout << "visible pixels: masked " << withMask << ", unmasked " << without
            << ", mask removed " << removed << "\n";
  if (!(withMask > 0 && withMask < without && removed == without))
  {
    std::cout << "ERROR: the mask does not cut the image, or removing it does not restore it\n";
    ok = false;
  }
  ok &= scene.NoUnexpectedMessages();
  scene.Window->Render();
  return scene.CompareWithBaseline(argc, argv, ok);
}
