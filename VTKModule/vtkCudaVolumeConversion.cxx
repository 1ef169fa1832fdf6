// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "vtkCudaVolumeConversion.h"

#include "vtkCamera.h"
#include "vtkCellData.h"
#include "vtkColorTransferFunction.h"
#include "vtkContourValues.h"
#include "vtkDataArray.h"
#include "vtkImageData.h"
#include "vtkImageResize.h"
#include "vtkLight.h"
#include "vtkLightCollection.h"
#include "vtkMatrix3x3.h"
#include "vtkMatrix4x4.h"
#include "vtkNew.h"
#include "vtkPiecewiseFunction.h"
#include "vtkPlane.h"
#include "vtkPlaneCollection.h"
#include "vtkPointData.h"
#include "vtkRectilinearGrid.h"
#include "vtkRenderer.h"
#include "vtkSMPTools.h"
#include "vtkType.h"
#include "vtkVolume.h"
#include "vtkVolumeProperty.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace vtkCudaVolumeConversion
{

namespace
{
bool ScalarType(int vtkType, cvr_scalar_type& type)
{
  switch (vtkType)
  {
    case VTK_SIGNED_CHAR: type = CVR_INT8; return true;
    case VTK_UNSIGNED_CHAR: type = CVR_UINT8; return true;
    case VTK_SHORT: type = CVR_INT16; return true;
    case VTK_UNSIGNED_SHORT: type = CVR_UINT16; return true;
    case VTK_INT: type = CVR_INT32; return true;
    case VTK_UNSIGNED_INT: type = CVR_UINT32; return true;
    case VTK_FLOAT: type = CVR_FLOAT32; return true;
    case VTK_DOUBLE: type = CVR_FLOAT64; return true;
    default: return false;
  }
}

/// The magnitude of each of `count` tuples of `components` values.
template <typename T>
void Magnitudes(const T* src, int components, vtkIdType count, float* dst)
{
  vtkSMPTools::For(0, count, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType i = begin; i < end; ++i)
    {
      const T* tuple = src + static_cast<size_t>(i) * components;
      double sum = 0.0;
      for (int c = 0; c < components; ++c)
      {
        const double v = static_cast<double>(tuple[c]);
        sum += v * v;
      }
      dst[i] = static_cast<float>(std::sqrt(sum));
    }
  });
}
}

namespace
{
// The values of one component, as float, into every second float of dst.
template <typename T>
void ToAxis(const T* src, vtkIdType count, float* dst)
{
  vtkSMPTools::For(0, count, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType i = begin; i < end; ++i)
    {
      dst[2 * i] = static_cast<float>(src[i]);
    }
  });
}

// The finite range of every second float of src ((0, 1) when none is finite).
void AxisRange(const float* src, vtkIdType count, double range[2])
{
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (vtkIdType i = 0; i < count; ++i)
  {
    const float v = src[2 * i];
    if (std::isfinite(v))
    {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  range[0] = lo <= hi ? lo : 0.0;
  range[1] = lo <= hi ? hi : 1.0;
}
}

bool AppendYAxis(vtkDataArray* yAxis, VolumeInput& inOut, std::string& error)
{
  cvr_volume_desc& d = inOut.Desc;
  const vtkIdType count = static_cast<vtkIdType>(d.dims[0]) * d.dims[1] * d.dims[2];
  const char* name = yAxis->GetName() ? yAxis->GetName() : "(unnamed)";
  if (d.components > 1)
  {
    error = "a y axis array with scalars of " + std::to_string(d.components) +
      " components: the 2D transfer function's x axis is one component (choose a vector mode)";
    return false;
  }
  if (yAxis->GetNumberOfComponents() != 1 || yAxis->GetNumberOfTuples() != count)
  {
    error = std::string("the y axis array ") + name + " has " +
      std::to_string(yAxis->GetNumberOfTuples()) + " tuples of " +
      std::to_string(yAxis->GetNumberOfComponents()) + " components; one value per voxel (" +
      std::to_string(count) + ") is needed";
    return false;
  }
  inOut.Axes.resize(2 * static_cast<size_t>(count));
  float* x = inOut.Axes.data();
  switch (d.type)
  {
    case CVR_INT8: ToAxis(static_cast<const signed char*>(d.data), count, x); break;
    case CVR_UINT8: ToAxis(static_cast<const unsigned char*>(d.data), count, x); break;
    case CVR_INT16: ToAxis(static_cast<const short*>(d.data), count, x); break;
    case CVR_UINT16: ToAxis(static_cast<const unsigned short*>(d.data), count, x); break;
    case CVR_INT32: ToAxis(static_cast<const int*>(d.data), count, x); break;
    case CVR_UINT32: ToAxis(static_cast<const unsigned int*>(d.data), count, x); break;
    case CVR_FLOAT32: ToAxis(static_cast<const float*>(d.data), count, x); break;
    case CVR_FLOAT64: ToAxis(static_cast<const double*>(d.data), count, x); break;
  }
  float* y = x + 1;
  if (yAxis->HasStandardMemoryLayout() && yAxis->GetDataType() != VTK_BIT &&
    yAxis->GetDataType() != VTK_STRING)
  {
    switch (yAxis->GetDataType())
    {
      vtkTemplateMacro(ToAxis(static_cast<const VTK_TT*>(yAxis->GetVoidPointer(0)), count, y));
    }
  }
  else
  {
    for (vtkIdType i = 0; i < count; ++i)
    {
      y[2 * i] = static_cast<float>(yAxis->GetComponent(i, 0));
    }
  }
  AxisRange(x, count, inOut.AxisRanges[0]);
  AxisRange(y, count, inOut.AxisRanges[1]);
  d.type = CVR_FLOAT32;
  d.components = 2;
  d.data = inOut.Axes.data();
  d.borrow_data = 0; // (a buffer of this input, not the array)
  return true;
}

namespace
{
// Which of the scalars' components the volume renders: their magnitude, one
// of them, or all (the vector mode and the components' count).
struct ComponentChoice
{
  int Components;
  bool Magnitude, All;
  int Component;
};

bool ChooseComponents(
  int components, int vectorMode, int vectorComponent, ComponentChoice& c, std::string& error)
{
  c.Components = components;
  c.Magnitude = components > 1 && vectorMode == 0;
  c.Component = components > 1 && vectorMode == 1 ? vectorComponent : 0;
  // without a vector mode, the components themselves (the property's
  // IndependentComponents says how they are classified)
  c.All = components > 1 && vectorMode != 0 && vectorMode != 1;
  if (c.All && components > CVR_MAX_COMPONENTS)
  {
    error = "scalars with " + std::to_string(components) + " components: up to " +
      std::to_string(CVR_MAX_COMPONENTS) +
      " are rendered as components; more need a vector mode (VectorMode MAGNITUDE, or "
      "COMPONENT with VectorComponent)";
    return false;
  }
  if (c.Component >= components)
  {
    error = "vector component " + std::to_string(c.Component) + " is beyond the " +
      std::to_string(components) + " components of the scalars";
    return false;
  }
  return true;
}

// The voxels the volume reads (d.data, d.type): the array itself where its
// type and layout allow, else a copy in out (magnitudes as float, one
// component in the array's type, or doubles).
void VolumeScalars(vtkDataArray* scalars, vtkIdType count, const ComponentChoice& c, bool plain,
  VolumeInput& out)
{
  cvr_volume_desc& d = out.Desc;
  const int vtkType = scalars->GetDataType();
  const int components = c.Components;
  if (c.Magnitude)
  {
    out.Magnitudes.resize(static_cast<size_t>(count));
    float* dst = out.Magnitudes.data();
    if (scalars->HasStandardMemoryLayout())
    {
      switch (vtkType)
      {
        vtkTemplateMacro(Magnitudes(
          static_cast<const VTK_TT*>(scalars->GetVoidPointer(0)), components, count, dst));
      }
    }
    else
    {
      vtkSMPTools::For(0, count, [&](vtkIdType begin, vtkIdType end) {
        for (vtkIdType i = begin; i < end; ++i)
        {
          double sum = 0.0;
          for (int k = 0; k < components; ++k)
          {
            const double v = scalars->GetComponent(i, k);
            sum += v * v;
          }
          dst[i] = static_cast<float>(std::sqrt(sum));
        }
      });
    }
    d.type = CVR_FLOAT32;
    d.data = dst;
  }
  else if (plain && (components == 1 || c.All))
  {
    // the array itself: the library may read it in place (the caller keeps
    // the array while the volume lives)
    d.data = scalars->GetVoidPointer(0);
    d.borrow_data = 1;
  }
  else if (plain)
  {
    // one component of several, in the array's own type
    const size_t size = static_cast<size_t>(scalars->GetDataTypeSize());
    const auto* src = static_cast<const unsigned char*>(scalars->GetVoidPointer(0));
    out.Component.resize(static_cast<size_t>(count) * size);
    unsigned char* dst = out.Component.data();
    const int component = c.Component;
    vtkSMPTools::For(0, count, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType i = begin; i < end; ++i)
      {
        std::memcpy(dst + static_cast<size_t>(i) * size,
          src + (static_cast<size_t>(i) * components + component) * size, size);
      }
    });
    d.data = dst;
  }
  else
  {
    // 64-bit integers and arrays without a plain layout: one double copy
    // (of every component, interleaved, when all are rendered)
    const int n = d.components;
    out.Storage.resize(static_cast<size_t>(count) * n);
    for (vtkIdType i = 0; i < count; ++i)
    {
      for (int k = 0; k < n; ++k)
      {
        out.Storage[static_cast<size_t>(i) * n + k] =
          scalars->GetComponent(i, c.All ? k : c.Component);
      }
    }
    d.type = CVR_FLOAT64;
    d.data = out.Storage.data();
  }
}

// Where the voxels are: the image's spacing, origin and direction, its
// first point or cell (extent) at index 0.
void PlaceVolume(vtkImageData* image, int cellFlag, cvr_volume_desc& d)
{
  int extent[6];
  double spacing[3], origin[3];
  image->GetExtent(extent);
  image->GetSpacing(spacing);
  image->GetOrigin(origin);
  const double* direction = image->GetDirectionMatrix()->GetData();
  // index (i, j, k) of the first point or cell, in physical space
  double first[3];
  for (int a = 0; a < 3; ++a)
  {
    first[a] = (extent[2 * a] + (cellFlag == 1 ? 0.5 : 0.0)) * spacing[a];
    d.spacing[a] = std::fabs(spacing[a]);
  }
  for (int r = 0; r < 3; ++r)
  {
    d.origin[r] = origin[r];
    for (int c = 0; c < 3; ++c)
    {
      d.origin[r] += direction[3 * r + c] * first[c];
      // a negative spacing flips its axis: fold the sign into the direction
      d.direction[3 * r + c] = direction[3 * r + c] * (spacing[c] < 0 ? -1.0 : 1.0);
    }
  }
  d.cell_data = cellFlag == 1;
}
}

bool DescribeVolume(vtkImageData* image, vtkDataArray* scalars, int cellFlag, int vectorMode,
  int vectorComponent, VolumeInput& out, std::string& error)
{
  cvr_volume_desc& d = out.Desc;
  cvr_volume_desc_init(&d);
  out.Storage.clear();
  out.Magnitudes.clear();
  out.Component.clear();
  ComponentChoice choice;
  if (!ChooseComponents(scalars->GetNumberOfComponents(), vectorMode, vectorComponent, choice, error))
  {
    return false;
  }
  d.components = choice.All ? choice.Components : 1;
  int dims[3];
  image->GetDimensions(dims);
  for (int a = 0; a < 3; ++a)
  {
    d.dims[a] = cellFlag == 1 ? std::max(dims[a] - 1, 1) : dims[a];
  }
  const vtkIdType count = static_cast<vtkIdType>(d.dims[0]) * d.dims[1] * d.dims[2];
  if (scalars->GetNumberOfTuples() != count)
  {
    error = "the scalar array has " + std::to_string(scalars->GetNumberOfTuples()) +
      " values where the image has " + std::to_string(count);
    return false;
  }
  const int vtkType = scalars->GetDataType();
  const bool plain = ScalarType(vtkType, d.type) && scalars->HasStandardMemoryLayout();
  if (vtkType == VTK_CHAR || vtkType == VTK_BIT || vtkType == VTK_STRING)
  {
    error = std::string("scalars of type ") + scalars->GetDataTypeAsString() +
      " are not supported (use signed or unsigned char for 8-bit data)";
    return false;
  }
  VolumeScalars(scalars, count, choice, plain, out);
  PlaceVolume(image, cellFlag, d);
  return true;
}

void SampleTransferFunction(vtkVolumeProperty* property, const double range[2], int size,
  std::vector<float>& rgba, int component)
{
  const int c0 = component;
  std::vector<double> color(3 * static_cast<size_t>(size)), opacity(static_cast<size_t>(size));
  if (property->GetColorChannels(c0) == 3)
  {
    property->GetRGBTransferFunction(c0)->GetTable(range[0], range[1], size, color.data());
  }
  else
  {
    std::vector<double> gray(static_cast<size_t>(size));
    property->GetGrayTransferFunction(c0)->GetTable(range[0], range[1], size, gray.data());
    for (int i = 0; i < size; ++i)
    {
      color[3 * i] = color[3 * i + 1] = color[3 * i + 2] = gray[i];
    }
  }
  property->GetScalarOpacity(c0)->GetTable(range[0], range[1], size, opacity.data());
  rgba.resize(4 * static_cast<size_t>(size));
  for (int i = 0; i < size; ++i)
  {
    for (int c = 0; c < 3; ++c)
    {
      rgba[4 * i + c] = static_cast<float>(std::min(std::max(color[3 * i + c], 0.0), 1.0));
    }
    rgba[4 * i + 3] = static_cast<float>(std::min(std::max(opacity[i], 0.0), 1.0));
  }
}

bool SampleGradientOpacity(vtkVolumeProperty* property, const double range[2], bool nativeRange,
  int size, std::vector<float>& table, double& max, int component)
{
  if (!property->HasGradientOpacity(component) || property->GetDisableGradientOpacity(component))
  {
    return false;
  }
  vtkPiecewiseFunction* go = property->GetGradientOpacity(component);
  double extent[2] = { range[0], range[1] };
  if (nativeRange && go->GetSize() > 0)
  {
    go->GetRange(extent);
  }
  std::vector<double> values(static_cast<size_t>(size));
  go->GetTable(0.0, 0.25 * (extent[1] - extent[0]), size, values.data());
  table.resize(static_cast<size_t>(size));
  for (int i = 0; i < size; ++i)
  {
    table[i] = static_cast<float>(std::min(std::max(values[i], 0.0), 1.0));
  }
  max = 0.25 * (range[1] - range[0] > 0.0 ? range[1] - range[0] : 1.0);
  return true;
}

int SampleLabelFunctions(vtkVolumeProperty* property, const double range[2], int size,
  int gradientSize, std::vector<float>& rgba, std::vector<float>& gradient, bool& ignored)
{
  ignored = false;
  int count = 0;
  for (int label : property->GetLabelMapLabels())
  {
    if (label > CVR_MAX_LABEL)
    {
      ignored = true;
    }
    else if (label > count)
    {
      count = label;
    }
  }
  rgba.assign(4 * static_cast<size_t>(size) * count, 0.0f);
  gradient.clear();
  const bool gradients = property->HasLabelGradientOpacity();
  if (gradients)
  {
    gradient.assign(static_cast<size_t>(gradientSize) * count, 1.0f);
  }
  std::vector<double> color(3 * static_cast<size_t>(size)), values(static_cast<size_t>(size));
  std::vector<float> volume;
  SampleTransferFunction(property, range, size, volume);
  for (int label = 1; label <= count; ++label)
  {
    float* row = rgba.data() + 4 * static_cast<size_t>(size) * (label - 1);
    std::copy(volume.begin(), volume.end(), row);
    if (vtkColorTransferFunction* c = property->GetLabelColor(label))
    {
      c->GetTable(range[0], range[1], size, color.data());
      for (int i = 0; i < size; ++i)
      {
        for (int k = 0; k < 3; ++k)
        {
          row[4 * i + k] = static_cast<float>(std::min(std::max(color[3 * i + k], 0.0), 1.0));
        }
      }
    }
    if (vtkPiecewiseFunction* o = property->GetLabelScalarOpacity(label))
    {
      o->GetTable(range[0], range[1], size, values.data());
      for (int i = 0; i < size; ++i)
      {
        row[4 * i + 3] = static_cast<float>(std::min(std::max(values[i], 0.0), 1.0));
      }
    }
    vtkPiecewiseFunction* g = gradients ? property->GetLabelGradientOpacity(label) : nullptr;
    if (g)
    {
      std::vector<double> magnitudes(static_cast<size_t>(gradientSize));
      g->GetTable(0.0, 0.25 * (range[1] - range[0]), gradientSize, magnitudes.data());
      for (int i = 0; i < gradientSize; ++i)
      {
        gradient[static_cast<size_t>(gradientSize) * (label - 1) + i] =
          static_cast<float>(std::min(std::max(magnitudes[i], 0.0), 1.0));
      }
    }
  }
  return count;
}

bool DescribeMask(vtkImageData* mask, vtkImageData* image, bool binary,
  std::vector<unsigned char>& labels, std::string& error)
{
  vtkDataArray* values = mask->GetPointData()->GetScalars();
  if (!values)
  {
    error = "the mask has no point scalars";
    return false;
  }
  int maskDims[3], dims[3];
  mask->GetDimensions(maskDims);
  image->GetDimensions(dims);
  if (maskDims[0] != dims[0] || maskDims[1] != dims[1] || maskDims[2] != dims[2])
  {
    error = "the mask has " + std::to_string(maskDims[0]) + " x " + std::to_string(maskDims[1]) +
      " x " + std::to_string(maskDims[2]) + " points, the volume " + std::to_string(dims[0]) +
      " x " + std::to_string(dims[1]) + " x " + std::to_string(dims[2]) + ": they must be the same";
    return false;
  }
  if (values->GetNumberOfComponents() != 1)
  {
    error = "the mask has " + std::to_string(values->GetNumberOfComponents()) +
      " components; it needs 1";
    return false;
  }
  const vtkIdType n = values->GetNumberOfTuples();
  labels.resize(static_cast<size_t>(n));
  for (vtkIdType i = 0; i < n; ++i)
  {
    const double v = values->GetComponent(i, 0);
    if (binary)
    {
      labels[i] = v > 0.0 ? 1 : 0;
    }
    else if (v >= 0.0 && v <= CVR_MAX_LABEL && v == std::floor(v))
    {
      labels[i] = static_cast<unsigned char>(v);
    }
    else
    {
      error = "the label map has the value " + std::to_string(v) + " at point " +
        std::to_string(i) + "; labels are whole numbers in 0.." + std::to_string(CVR_MAX_LABEL);
      return false;
    }
  }
  return true;
}

bool SampleTransferFunction2D(
  vtkVolumeProperty* property, std::vector<float>& rgba, int size[2], bool& clamped, std::string& error)
{
  vtkImageData* image = property->GetTransferFunction2D();
  vtkDataArray* tuples = image ? image->GetPointData()->GetScalars() : nullptr;
  if (!tuples || tuples->GetNumberOfTuples() == 0)
  {
    error = "the volume property is in 2D transfer-function mode but has no 2D transfer function "
            "(SetTransferFunction2D)";
    return false;
  }
  if (tuples->GetNumberOfComponents() != 4)
  {
    error = "the 2D transfer function has " + std::to_string(tuples->GetNumberOfComponents()) +
      " components per entry; it needs 4 (RGBA)";
    return false;
  }
  // VTK's mapper gives the function a texture of at least 1024 entries a
  // side (vtkOpenGLVolumeLookupTable), resized by vtkImageResize with its
  // defaults (a sinc filter; the first and last entries stay at the ends,
  // so the function spans the range from end to end): the same here, so
  // that a function renders as there
  int dims[3];
  image->GetDimensions(dims);
  const int limit = CVR_TRANSFER_FUNCTION_2D_MAX_SIZE;
  const int width = dims[0] > 1 ? limit : 1, height = dims[1] > 1 ? limit : 1;
  clamped = false; // said of the function as given: the sinc filter's overshoot is not its own
  for (vtkIdType i = 0; i < tuples->GetNumberOfTuples() && !clamped; ++i)
  {
    for (int c = 0; c < 4; ++c)
    {
      const double v = tuples->GetComponent(i, c);
      clamped = clamped || !(v >= 0.0 && v <= 1.0);
    }
  }
  vtkNew<vtkImageResize> resize; // holds the resized tuples until the copy below
  if (width != dims[0] || height != dims[1] || dims[2] != 1)
  {
    resize->SetInputData(image);
    resize->SetResizeMethodToOutputDimensions();
    resize->SetOutputDimensions(width, height, 1);
    resize->Update();
    tuples = resize->GetOutput()->GetPointData()->GetScalars();
  }
  // one column or row (nothing varies along that axis): twice, the least
  // the library takes
  size[0] = std::max(width, 2);
  size[1] = std::max(height, 2);
  rgba.resize(static_cast<size_t>(4) * size[0] * size[1]);
  for (int y = 0; y < size[1]; ++y)
  {
    for (int x = 0; x < size[0]; ++x)
    {
      const vtkIdType from = static_cast<vtkIdType>(std::min(y, height - 1)) * width + std::min(x, width - 1);
      for (int c = 0; c < 4; ++c)
      {
        const double v = tuples->GetComponent(from, c);
        const double kept = v >= 0.0 ? std::min(v, 1.0) : 0.0; // NaN: 0
        rgba[4 * (static_cast<size_t>(y) * size[0] + x) + c] = static_cast<float>(kept);
      }
    }
  }
  return true;
}

bool DescribeSurfaces(vtkVolumeProperty* property, cvr_render_settings& settings,
  std::string& error)
{
  if (settings.blend_mode == CVR_BLEND_ISOSURFACE)
  {
    vtkContourValues* values = property->GetIsoSurfaceValues();
    const int n = values->GetNumberOfContours();
    if (n > CVR_MAX_ISO_VALUES)
    {
      error = std::to_string(n) + " iso values; at most " + std::to_string(CVR_MAX_ISO_VALUES) +
        " are supported";
      return false;
    }
    settings.iso_value_count = n;
    for (int i = 0; i < n; ++i)
    {
      settings.iso_values[i] = values->GetValue(i);
    }
  }
  if (settings.blend_mode == CVR_BLEND_SLICE)
  {
    vtkPlane* plane = vtkPlane::SafeDownCast(property->GetSliceFunction());
    if (!plane)
    {
      error = property->GetSliceFunction()
        ? std::string("slice blending takes a vtkPlane as the slice function, not a ") +
          property->GetSliceFunction()->GetClassName()
        : std::string("slice blending needs a slice function (vtkVolumeProperty::SetSliceFunction "
                      "with a vtkPlane)");
      return false;
    }
    // The plane the function describes, not only its Origin and Normal: a
    // subclass may move it (ParaView's plane widget, vtkPVPlane, by an
    // Offset along the normal) and any vtkImplicitFunction may transform it.
    // An affine function f has f(x) = g . (x - p) for its gradient g and any
    // point p of the plane: p = o - f(o) g / |g|^2. A plain vtkPlane gives
    // its own origin and normal, which is all VTK's mapper reads.
    double o[3], g[3];
    plane->GetOrigin(o);
    plane->FunctionGradient(o, g);
    const double f = plane->FunctionValue(o);
    const double gg = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    if (!(gg > 0.0) || !std::isfinite(f))
    {
      error = "the slice plane has no normal (its gradient is zero)";
      return false;
    }
    for (int a = 0; a < 3; ++a)
    {
      settings.slice_origin[a] = o[a] - f * g[a] / gg;
      settings.slice_normal[a] = g[a];
    }
  }
  return true;
}

double SampleDistance(bool autoAdjust, bool lockToSpacing, double sampleDistance,
  double spacingAdjustedDistance, vtkImageData* image, vtkVolume* volume)
{
  if (!autoAdjust)
  {
    if (lockToSpacing)
    {
      const double ratio = sampleDistance / spacingAdjustedDistance;
      return (ratio < 0.999 || ratio > 1.001) ? spacingAdjustedDistance : sampleDistance;
    }
    return sampleDistance;
  }
  double spacing[3];
  image->GetSpacing(spacing);
  // the smallest voxel edge in world space
  vtkMatrix4x4* m = volume->GetMatrix();
  double smallest = std::numeric_limits<double>::max();
  for (int a = 0; a < 3; ++a)
  {
    double len2 = 0.0;
    for (int r = 0; r < 3; ++r)
    {
      len2 += m->GetElement(r, a) * m->GetElement(r, a);
    }
    smallest = std::min(smallest, std::fabs(spacing[a] * std::sqrt(len2)));
  }
  return smallest;
}

void DescribeShading(
  vtkRenderer* ren, vtkVolumeProperty* property, cvr_shading& shading, int& dropped)
{
  shading.enabled = property->GetShade(0) != 0;
  shading.ambient = property->GetAmbient(0);
  shading.diffuse = property->GetDiffuse(0);
  shading.specular = property->GetSpecular(0);
  shading.specular_power = property->GetSpecularPower(0);
  shading.two_sided = ren->GetTwoSidedLighting();
  shading.light_count = 0;
  dropped = 0;
  std::vector<vtkLight*> on;
  vtkLightCollection* lights = ren->GetLights();
  vtkCollectionSimpleIterator it;
  lights->InitTraversal(it);
  while (vtkLight* light = lights->GetNextLight(it))
  {
    if (light->GetSwitch() && light->GetIntensity() > 0.0)
    {
      on.push_back(light);
    }
  }
  const bool loneHeadlight =
    on.size() == 1 && on[0]->LightTypeIsHeadlight() && on[0]->GetIntensity() == 1.0;
  for (vtkLight* light : on)
  {
    if (shading.light_count == CVR_MAX_LIGHTS)
    {
      ++dropped;
      continue;
    }
    cvr_light& l = shading.lights[shading.light_count++];
    const double intensity = light->GetIntensity();
    double position[3], focal[3];
    light->GetTransformedPosition(position);
    light->GetTransformedFocalPoint(focal);
    for (int c = 0; c < 3; ++c)
    {
      l.ambient[c] = loneHeadlight ? 1.0 : light->GetAmbientColor()[c] * intensity;
      l.diffuse[c] = light->GetDiffuseColor()[c] * intensity;
      l.specular[c] = light->GetSpecularColor()[c] * intensity;
      l.position[c] = position[c];
      l.focal_point[c] = focal[c];
      l.attenuation[c] = light->GetAttenuationValues()[c];
    }
    // vtkLight leaves the cone unclamped; 90 degrees or more is a point light
    l.cone_angle = std::min(std::max(light->GetConeAngle(), 0.0), 180.0);
    l.exponent = light->GetExponent();
    l.type = loneHeadlight   ? CVR_LIGHT_HEADLIGHT
      : light->GetPositional() ? CVR_LIGHT_POSITIONAL
                               : CVR_LIGHT_DIRECTIONAL;
  }
}

void DescribeCropping(vtkImageData* image, int cellFlag, const double planes[6], int flags,
  cvr_render_settings& settings)
{
  int extent[6];
  image->GetExtent(extent);
  unsigned regions = static_cast<unsigned>(flags) & 0x7ffffffu;
  for (int a = 0; a < 3; ++a)
  {
    // each plane alone, as VTK's OpenGL mapper converts them; the library
    // counts index positions from the block's first point (or cell centre)
    double index[2], unit[2];
    for (int i = 0; i < 2; ++i)
    {
      double point[3] = { 0.0, 0.0, 0.0 }, ijk[3];
      point[a] = planes[2 * a + i];
      image->TransformPhysicalPointToContinuousIndex(point, ijk);
      index[i] = ijk[a] - extent[2 * a] - (cellFlag == 1 ? 0.5 : 0.0);
      const int n = extent[2 * a + 1] - extent[2 * a] + 1;
      if (cellFlag != 1 && n > 1)
      {
        // where VTK's mapper puts it for point data: it takes the plane to
        // texture coordinates over the points' bounds (index / (n - 1)),
        // which its samples reach through the texel centres ((index + 0.5) /
        // n): up to half a voxel outward of the plane in mid-axis
        index[i] = index[i] * n / (n - 1) - 0.5;
      }
      point[a] = i; // where the data axis points in index space
      image->TransformPhysicalPointToContinuousIndex(point, ijk);
      unit[i] = ijk[a];
    }
    if (unit[1] < unit[0])
    {
      // the index axis runs against the data axis: its regions in reverse
      std::swap(index[0], index[1]);
      unsigned flipped = 0;
      const int stride = a == 0 ? 1 : (a == 1 ? 3 : 9);
      for (int r = 0; r < 27; ++r)
      {
        const int c = (r / stride) % 3;
        if ((regions >> r) & 1u)
        {
          flipped |= 1u << (r + (2 - 2 * c) * stride);
        }
      }
      regions = flipped;
    }
    settings.cropping_planes[2 * a] = index[0];
    settings.cropping_planes[2 * a + 1] = index[1];
  }
  settings.cropping = 1;
  settings.cropping_flags = regions;
}

bool DescribeClippingPlanes(
  vtkPlaneCollection* planes, cvr_render_settings& settings, std::string& error)
{
  settings.clip_plane_count = 0;
  const int count = planes ? planes->GetNumberOfItems() : 0;
  if (count > CVR_MAX_CLIP_PLANES)
  {
    error = std::to_string(count) + " clipping planes; at most " +
      std::to_string(CVR_MAX_CLIP_PLANES) + " are supported";
    return false;
  }
  for (int i = 0; i < count; ++i)
  {
    vtkPlane* plane = planes->GetItem(i);
    double* normal = plane->GetNormal();
    double* origin = plane->GetOrigin();
    double* c = settings.clip_planes[i];
    c[3] = 0.0;
    for (int a = 0; a < 3; ++a)
    {
      c[a] = normal[a];
      c[3] -= normal[a] * origin[a];
    }
  }
  settings.clip_plane_count = count;
  return true;
}

bool RgbaColourRange(vtkDataArray* scalars, double range[2])
{
  const int type = scalars ? scalars->GetDataType() : VTK_VOID;
  range[0] = 0.0;
  range[1] = 1.0;
  if (type == VTK_UNSIGNED_CHAR || type == VTK_SIGNED_CHAR || type == VTK_UNSIGNED_SHORT ||
    type == VTK_SHORT)
  {
    range[1] = scalars->GetDataTypeMax();
    return true;
  }
  return type == VTK_FLOAT || type == VTK_DOUBLE;
}

void DescribeLatticeBox(vtkImageData* block, int cellFlag,
  const std::vector<vtkImageData*>& images, const int* wholeExtent, cvr_view& view)
{
  int extent[6];
  block->GetExtent(extent);
  double lo[3], hi[3];
  for (int a = 0; a < 3; ++a)
  {
    lo[a] = extent[2 * a];
    hi[a] = extent[2 * a + 1];
  }
  // the corners of an extent, as continuous point indices of `block`
  const auto take = [&](vtkImageData* from, const int* e)
  {
    for (int c = 0; c < 8; ++c)
    {
      double ijk[3] = { static_cast<double>(e[c & 1]), static_cast<double>(e[2 + ((c >> 1) & 1)]),
        static_cast<double>(e[4 + ((c >> 2) & 1)]) };
      if (from != block)
      {
        double xyz[3];
        from->TransformContinuousIndexToPhysicalPoint(ijk, xyz);
        block->TransformPhysicalPointToContinuousIndex(xyz, ijk);
      }
      for (int a = 0; a < 3; ++a)
      {
        lo[a] = std::min(lo[a], ijk[a]);
        hi[a] = std::max(hi[a], ijk[a]);
      }
    }
  };
  if (wholeExtent)
  {
    take(block, wholeExtent);
  }
  for (vtkImageData* other : images)
  {
    if (other != block)
    {
      int e[6];
      other->GetExtent(e);
      take(other, e);
    }
  }
  bool own = true;
  for (int a = 0; a < 3; ++a)
  {
    own = own && lo[a] > extent[2 * a] - 1e-6 && hi[a] < extent[2 * a + 1] + 1e-6;
  }
  // the library counts from the block's first point, or its first cell's centre
  const double shift = cellFlag == 1 ? 0.5 : 0.0;
  for (int a = 0; a < 3; ++a)
  {
    view.lattice_box[2 * a] = own ? 0.0 : lo[a] - extent[2 * a] - shift;
    view.lattice_box[2 * a + 1] = own ? 0.0 : hi[a] - extent[2 * a] - shift;
  }
}

void DescribeView(vtkRenderer* ren, vtkVolume* vol, int width, int height, cvr_view& view)
{
  cvr_view_init(&view);
  vtkCamera* camera = ren->GetActiveCamera();
  vtkMatrix4x4* clip =
    camera->GetCompositeProjectionTransformMatrix(ren->GetTiledAspectRatio(), -1, 1);
  std::copy(clip->GetData(), clip->GetData() + 16, view.world_to_clip);
  vtkMatrix4x4* model = vol->GetMatrix();
  std::copy(model->GetData(), model->GetData() + 16, view.volume_to_world);
  view.width = width;
  view.height = height;
  view.projection =
    camera->GetParallelProjection() ? CVR_PROJECTION_PARALLEL : CVR_PROJECTION_PERSPECTIVE;
}

double ReductionFactor(double previous, double lastFrameTime, double allocatedTime,
  double interactiveTime, double stillTime, double minimumImageSampleDistance,
  double maximumImageSampleDistance)
{
  if (!(lastFrameTime > 0.0) || !(previous > 0.0))
  {
    return previous > 0.0 ? previous : 1.0;
  }
  // the time a frame of this kind takes at the previous factor; 10 s before
  // any was measured (VTK's stand-in), so that a first interaction is coarse
  double frameTime = allocatedTime < 1.0
    ? (interactiveTime > 0.0 ? interactiveTime : stillTime / 3.0)
    : stillTime;
  if (!(frameTime > 0.0))
  {
    frameTime = 10.0;
  }
  // the work scales with 1 / factor: the factor that fits, averaged with the
  // previous one so that it settles, then one of a few steps (no flicker)
  const double fits = allocatedTime / (frameTime / previous);
  const double mean = std::min(1.0, 0.5 * (fits + previous));
  double factor = mean < 0.2 ? 0.1 : mean < 0.5 ? 0.2 : mean < 1.0 ? 0.5 : 1.0;
  factor = std::max(factor, 1.0 / maximumImageSampleDistance);
  factor = std::min(factor, 1.0 / minimumImageSampleDistance);
  return factor;
}

void ResampleDepth(const std::vector<float>& depth, int width, int height, int imageWidth,
  int imageHeight, std::vector<float>& out)
{
  out.resize(static_cast<size_t>(imageWidth) * imageHeight);
  for (int j = 0; j < imageHeight; ++j)
  {
    const int y = std::min(height - 1, static_cast<int>((j + 0.5) * height / imageHeight));
    for (int i = 0; i < imageWidth; ++i)
    {
      const int x = std::min(width - 1, static_cast<int>((i + 0.5) * width / imageWidth));
      out[static_cast<size_t>(j) * imageWidth + i] = depth[static_cast<size_t>(y) * width + x];
    }
  }
}

bool RectilinearAsImage(vtkRectilinearGrid* grid, vtkImageData* out, std::string& error)
{
  int extent[6];
  grid->GetExtent(extent);
  vtkDataArray* coordinates[3] = { grid->GetXCoordinates(), grid->GetYCoordinates(),
    grid->GetZCoordinates() };
  double origin[3], spacing[3];
  for (int a = 0; a < 3; ++a)
  {
    const vtkIdType n = coordinates[a] ? coordinates[a]->GetNumberOfTuples() : 0;
    if (n != extent[2 * a + 1] - extent[2 * a] + 1 || n < 1)
    {
      error = std::string("the rectilinear grid's ") + "xyz"[a] +
        " coordinates do not match its extent";
      return false;
    }
    const double first = coordinates[a]->GetComponent(0, 0);
    const double step = n > 1 ? (coordinates[a]->GetComponent(n - 1, 0) - first) / (n - 1) : 1.0;
    for (vtkIdType i = 1; i < n; ++i)
    {
      const double expected = first + step * i;
      const double actual = coordinates[a]->GetComponent(i, 0);
      if (!(std::abs(actual - expected) <= 1e-5 * std::abs(step)) || !(step > 0.0))
      {
        error = std::string("vtkRectilinearGrid with unevenly spaced or decreasing ") + "xyz"[a] +
          " coordinates (" + std::to_string(coordinates[a]->GetComponent(i - 1, 0)) + ", " +
          std::to_string(actual) + " after a step of " + std::to_string(step) +
          ") cannot be rendered: every strategy samples a regular lattice; resample it to "
          "vtkImageData (vtkResampleToImage)";
        return false;
      }
    }
    // the image's origin is the position of index 0, the extent's may start elsewhere
    origin[a] = first - step * extent[2 * a];
    spacing[a] = step;
  }
  out->Initialize();
  out->SetExtent(extent);
  out->SetOrigin(origin);
  out->SetSpacing(spacing);
  out->GetPointData()->ShallowCopy(grid->GetPointData());
  out->GetCellData()->ShallowCopy(grid->GetCellData());
  return true;
}

}
