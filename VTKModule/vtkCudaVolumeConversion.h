// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// VTK state -> cvr structs. No rendering logic; no OpenGL.
#ifndef vtkCudaVolumeConversion_h
#define vtkCudaVolumeConversion_h

#include "cvr.h"

#include <string>
#include <vector>

class vtkDataArray;
class vtkImageData;
class vtkPlaneCollection;
class vtkRectilinearGrid;
class vtkRenderer;
class vtkVolume;
class vtkVolumeProperty;

namespace vtkCudaVolumeConversion
{

/// A volume description whose scalars may live in one of the buffers here
/// (when VTK's array cannot be passed as it is): 64-bit integers and
/// non-contiguous layouts as doubles, vector magnitudes as floats, one
/// component of several in the array's own type.
struct VolumeInput
{
  cvr_volume_desc Desc;
  std::vector<double> Storage;
  std::vector<float> Magnitudes;
  std::vector<unsigned char> Component;
  std::vector<float> Axes; // AppendYAxis: the two axes, interleaved
  double AxisRanges[2][2] = {};
};

/// Fills `out` from the image and its selected scalars (point or cell data,
/// cellFlag as vtkAbstractMapper::GetScalars sets it). Scalars of several
/// components take vectorMode (vtkCudaVolumeMapper::VectorModes: -1 all of
/// them, up to CVR_MAX_COMPONENTS, as the volume's components; 0 their
/// magnitude, 1 component vectorComponent). Where Desc reads the array
/// itself, Desc.borrow_data is set: a volume made of it must not outlive the
/// array. Returns false and sets `error` when the scalars cannot be rendered.
bool DescribeVolume(vtkImageData* image, vtkDataArray* scalars, int cellFlag, int vectorMode,
  int vectorComponent, VolumeInput& out, std::string& error);

/// Makes the one-component volume `inOut` describes the x axis of a 2D
/// transfer function and `yAxis` (VTK's Transfer2DYAxisArray, one value per
/// voxel) its y axis: a volume of two float components, interleaved in
/// `inOut.Axes`, each one's finite range in `inOut.AxisRanges` ((0, 1) for
/// none). Returns false and sets `error` when `yAxis` does not fit.
bool AppendYAxis(vtkDataArray* yAxis, VolumeInput& inOut, std::string& error);

/// The transfer function of `component` of `property` (colour and scalar
/// opacity), sampled over `range` into `size` straight-RGBA entries.
void SampleTransferFunction(vtkVolumeProperty* property, const double range[2], int size,
  std::vector<float>& rgba, int component = 0);

/// The gradient opacity of `component` of `property` as the library takes it
/// (VTK's measure: magnitudes normalized by a quarter of the data's `range`),
/// sampled into `size` entries, the table's extent in `max`; false when the
/// property has none or disables it. nativeRange: the mapper's
/// GradientOpacityRangeType is NATIVE (the function's own range spans the
/// table, as VTK's OpenGL mapper does).
bool SampleGradientOpacity(vtkVolumeProperty* property, const double range[2], bool nativeRange,
  int size, std::vector<float>& table, double& max, int component = 0);

/// The label functions of `property` for a label-map mask (VTK's
/// SetLabelColor, SetLabelScalarOpacity, SetLabelGradientOpacity), as the
/// library takes them: one row of `size` straight-RGBA entries over `range`
/// per label 1 .. the largest with a function (returned; 0: none), a label
/// without its own colour or opacity taking the volume's, as VTK's label
/// texture does. With any label gradient opacity, `gradient` gets a row of
/// `gradientSize` values per label over magnitudes [0, a quarter of
/// `range`] (ones for labels without one); otherwise it is left empty.
/// Labels above 255 (a mask holds bytes) are left out, and `ignored` says so.
int SampleLabelFunctions(vtkVolumeProperty* property, const double range[2], int size,
  int gradientSize, std::vector<float>& rgba, std::vector<float>& gradient, bool& ignored);

/// The mask input's labels for the library (cvr_volume_set_mask): one byte
/// per point of `image`, whose dimensions the mask must have. BINARY
/// (binary true): 1 where the value is positive, 0 elsewhere (VTK's mask
/// texture test); a label map: the values, which must be whole numbers in
/// 0..255. Returns false and sets `error` otherwise.
bool DescribeMask(vtkImageData* mask, vtkImageData* image, bool binary,
  std::vector<unsigned char>& labels, std::string& error);

/// The 2D transfer function of `property` (vtkVolumeProperty::GetTransferFunction2D,
/// a 2D image of RGBA tuples, x along the value and y along the gradient
/// magnitude) as the library takes it: straight RGBA floats, x fastest, in
/// [0, 1] (`clamped` says whether any value was outside, or NaN), resized as
/// VTK's mapper resizes it (vtkImageResize to CVR_TRANSFER_FUNCTION_2D_MAX_SIZE
/// entries a side, its first and last entries at the ends of the range; a
/// single row or column twice).
/// Returns false and sets `error` when there is none or it
/// is not an image of 4-component tuples.
bool SampleTransferFunction2D(
  vtkVolumeProperty* property, std::vector<float>& rgba, int size[2], bool& clamped, std::string& error);

/// The blend-mode settings VTK keeps in the volume property: the iso values
/// (ISOSURFACE) and the slice plane (SLICE, a vtkPlane in world coordinates).
/// Returns false and sets `error` when they cannot be rendered.
bool DescribeSurfaces(vtkVolumeProperty* property, cvr_render_settings& settings,
  std::string& error);

/// The sample distance vtkOpenGLGPUVolumeRayCastMapper would use, given the
/// mapper's settings and vtkVolumeMapper::SpacingAdjustedSampleDistance.
double SampleDistance(bool autoAdjust, bool lockToSpacing, double sampleDistance,
  double spacingAdjustedDistance, vtkImageData* image, vtkVolume* volume);

/// Shading of component 0 of `property` under the renderer's lights, as VTK's
/// OpenGL mapper lights it: a lone headlight of intensity 1 lights with the
/// material's ambient colour; otherwise every switched-on light adds its own
/// ambient, diffuse and specular colours (times its intensity). Lights
/// beyond CVR_MAX_LIGHTS are dropped and counted in `dropped`.
void DescribeShading(
  vtkRenderer* ren, vtkVolumeProperty* property, cvr_shading& shading, int& dropped);

/// VTK's cropping (planes in the image's data coordinates, region flags) as
/// the library takes it for one block: planes in the block's voxel index
/// positions, and the flags counted along index axes that run against the
/// data coordinates (negative spacing, a flipping direction matrix) reversed.
void DescribeCropping(vtkImageData* image, int cellFlag, const double planes[6], int flags,
  cvr_render_settings& settings);

/// Clipping planes (world coordinates, each keeping the side its normal
/// points to) into the settings; returns false and sets `error` when there
/// are more than the library takes.
bool DescribeClippingPlanes(vtkPlaneCollection* planes, cvr_render_settings& settings,
  std::string& error);

/// The range over which VTK's mapper takes dependent RGBA's colour
/// components of `scalars`: as its texture holds them, an 8- or 16-bit
/// integer over its type's positive range, a float over [0, 1]. False for
/// other types, which it scales over each component's own range.
bool RgbaColourRange(vtkDataArray* scalars, double range[2]);

/// Camera, volume matrix and viewport of `ren` (size from GetTiledSizeAndOrigin).
void DescribeView(vtkRenderer* ren, vtkVolume* vol, int width, int height, cvr_view& view);

/// The view's lattice box (cvr_view.lattice_box) for `block`, one of
/// `images` rendered together: the box around all of them and, where not
/// NULL, around `wholeExtent` (the extent, in `block`'s own index frame, of
/// the data it is a piece of: another rank holds the rest), in the library's
/// index coordinates of `block`; all zero where that is the block's own box.
/// Pieces then sample where the whole would, with no seam between them.
void DescribeLatticeBox(vtkImageData* block, int cellFlag,
  const std::vector<vtkImageData*>& images, const int* wholeExtent, cvr_view& view);

/// A vtkRectilinearGrid as the vtkImageData it is when each axis's
/// coordinates are evenly spaced (relative tolerance 1e-5): origin, spacing,
/// extent and the same point and cell arrays (shallow) into `out`. Otherwise
/// false and `error`: the strategies sample a regular lattice.
bool RectilinearAsImage(vtkRectilinearGrid* grid, vtkImageData* out, std::string& error);

/// AutoAdjustSampleDistances, as VTK's OpenGL mapper does it: the factor
/// (1, 0.5, 0.2 or 0.1) that divides the sample distance so that the next
/// frame fits `allocatedTime`, estimated from the last frame drawn at the
/// `previous` factor (interactive frames, allocatedTime < 1 s, from
/// `interactiveTime`, else from `stillTime`), and kept within 1 /
/// maximumImageSampleDistance .. 1 / minimumImageSampleDistance. The first
/// frame (lastFrameTime 0) keeps `previous`.
double ReductionFactor(double previous, double lastFrameTime, double allocatedTime,
  double interactiveTime, double stillTime, double minimumImageSampleDistance,
  double maximumImageSampleDistance);

/// Window depths of a viewport width x height sampled at the centres of an
/// image's imageWidth x imageHeight pixels spread over it (ImageSampleDistance).
void ResampleDepth(const std::vector<float>& depth, int width, int height, int imageWidth,
  int imageHeight, std::vector<float>& out);

}

#endif
