// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/**
 * @class   vtkCudaVolumeRepresentation
 * @brief   ParaView's image volume representation, rendered by vtkCudaVolumeMapper.
 *
 * The "CUDA Volume" representation type of image data and partitioned image
 * data. Everything the stock
 * Volume representation offers (colour and opacity maps, shading, blend
 * mode, ...) is inherited; the mapper's backend, strategy and tuning knobs
 * are forwarded to it, and the last frame's statistics are reported.
 *
 * Loading the library (the CudaVolumeMapper plugin, on the client and on
 * every server rank) also turns vtkCudaVolumeMapper's factory override on
 * where a CUDA device is found, so the stock Volume representation's GPU
 * path uses it too; without one VTK's mapper stays (its OpenGL path is
 * faster than the CPU backend). CVR_OVERRIDE_GPU_VOLUME_MAPPER=1 or 0 in the
 * environment turns it on or off instead.
 */
#ifndef vtkCudaVolumeRepresentation_h
#define vtkCudaVolumeRepresentation_h

#include "vtkCudaVolumeRepresentationModule.h" // For export macro
#include "vtkImageVolumeRepresentation.h"

#include "vtkSmartPointer.h" // For the slice functions

#include <string> // For the statistics line
#include <vector> // For the iso values

class vtkCudaVolumeMapper;
class vtkImplicitFunction;

class VTKCUDAVOLUMEREPRESENTATION_EXPORT vtkCudaVolumeRepresentation
  : public vtkImageVolumeRepresentation
{
public:
  static vtkCudaVolumeRepresentation* New();
  vtkTypeMacro(vtkCudaVolumeRepresentation, vtkImageVolumeRepresentation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /// Maximum and minimum intensity on several ranks: the view composites by
  /// depth (IceT's Z-buffer mode, no ordered compositing requested), and the
  /// mapper writes each pixel's extreme as its depth (ProjectionDepth), so
  /// that the rank holding the extreme wins the pixel. Other blend modes
  /// composite "over", in order, as the stock Volume representation does.
  int ProcessViewRequest(vtkInformationRequestKey* request_type, vtkInformation* inInfo,
    vtkInformation* outInfo) override;

  ///@{
  /// Forwarded to vtkCudaVolumeMapper (see its documentation).
  void SetBackend(int backend);
  void SetDeviceIndex(int index);
  void SetStrategy(int strategy);
  void SetBlockSize(int width, int height);
  void SetRaySegments(int segments);
  void SetHorizontalBlockSize(int width, int height);
  void SetVerticalBlockSize(int width, int height);
  void SetWarpVariant(int variant);
  void SetWarpWidth(int lanes);
  void SetWarpRays(int x, int y);
  void SetBlockWarps(int x, int y);
  void SetSlabBlock(int x, int y);
  void SetSlabDepth(int samples);
  void SetSlabBorder(int border);
  void SetMemoryLayout(int layout);
  void SetRotationPolicy(int policy);
  void SetRotationHysteresis(double degrees);
  void SetRotationTile(int t, int k);
  void SetEarlyRayTermination(int on);
  void SetUseJittering(int on);
  void SetGraphicsInterop(int on);
  void SetTerminationOpacity(double opacity);
  void SetEmptySpaceSkipping(int on);
  void SetEmptySpaceCellSize(int voxels);
  void SetCpuThreads(int threads);
  /// The memory budget in MiB (vtkCudaVolumeMapper::SetMaxMemoryInBytes with a
  /// fraction of 1): a larger volume renders from bricks of BrickSize^3
  /// voxels. 0: the default (CUDA: the device's free memory less a margin).
  void SetMemoryBudget(double mib);
  void SetBrickSize(int size);
  void SetCpuTileSize(int width, int height);
  void SetCpuSchedule(int schedule);
  void SetSampleDistance(double distance);
  void SetImageSampleDistance(double pixels);
  /// vtkVolumeMapper's blend modes, all of them. The stock BlendMode property
  /// offers composite, isosurface and slice, and its panel shows their inputs
  /// (IsosurfaceValues, SliceFunction, forwarded to the volume property by
  /// the superclass). The mapper renders CudaBlendMode unless it is
  /// composite, else the stock BlendMode, whatever order they are set in.
  void SetCudaBlendMode(int mode);
  void SetBlendMode(int mode); ///< the stock BlendMode (hides the superclass's)

  /// Isosurface values and the slice plane. ParaView's panel hides the stock
  /// IsosurfaceValues and SliceFunction for any representation but its own
  /// Volume ones, and ParaView 5.11 never hands this representation the
  /// shared SliceFunction; CudaIsosurfaceValues and CudaSliceFunction show
  /// in the CUDA Volume group. The volume property gets the Cuda values when
  /// there are any, else the stock ones, and the Cuda plane when set, else
  /// the stock one.
  void SetCudaIsosurfaceValue(int i, double value);
  void SetCudaNumberOfIsosurfaces(int n);
  void SetCudaSliceFunction(vtkImplicitFunction* plane);
  void SetIsosurfaceValue(int i, double value); ///< stock (hides the superclass's)
  void SetNumberOfIsosurfaces(int n);           ///< stock (hides the superclass's)
  void SetSliceFunction(vtkImplicitFunction* plane); ///< stock (hides the superclass's)
  void SetAverageIPScalarRange(double lo, double hi);
  /// Volumetric scattering: the stock VolumetricScatteringBlending and
  /// GlobalIlluminationReach, which the superclass hands only to VTK's smart
  /// and multiblock mappers (hide the superclass's); VolumeAnisotropy goes to
  /// the volume property as the superclass sends it.
  void SetVolumetricScatteringBlending(float blend);
  void SetGlobalIlluminationReach(float reach);
  void SetAutoAdjustSampleDistances(int on);
  void SetTuningRepeats(int repeats);
  void SetTuningPrune(double factor);
  void SetTuningBudget(double share);
  void SetTuningCacheDirectory(const char* directory); ///< "" in the GUI: the default
  void TuneNow();
  void ResetTuning();
  const char* GetAutoConfiguration();
  int GetAutoTuning();
  ///@}

  /// One line on the last frame: backend, strategy and launch shape, time,
  /// rays and samples, and the device. Where the frame was rendered
  /// elsewhere, gathered from there: a client of pvserver gets the server's
  /// ranks, rank 0 of pvbatch under MPI every rank, a line a rank
  /// ("rank R: ...", vtkCudaVolumeStatisticsInformation).
  const char* GetLastFrameStatistics();

  /// This process's own line.
  std::string GetLocalFrameStatistics();

  /// The representation of this process with that unique identifier (the
  /// same on every process), or null.
  static vtkCudaVolumeRepresentation* FindByIdentifier(unsigned int identifier);

  /// Frames rendered so far by every vtkCudaVolumeMapper in this process
  /// (whichever representation made them).
  int GetFramesRenderedInProcess();

  vtkCudaVolumeMapper* GetCudaMapper() { return this->CudaMapper; }

protected:
  vtkCudaVolumeRepresentation();
  ~vtkCudaVolumeRepresentation() override;

  /// Partitioned image data goes to vtkCudaVolumeMapper as it is (the
  /// superclass hands it only to vtkMultiBlockVolumeMapper); the rest as the
  /// superclass does.
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

  /// The superclass's, and the colour map's vector mode and component for
  /// multi-component arrays (what the superclass gives vtkSmartVolumeMapper).
  void UpdateMapperParameters() override;

private:
  vtkCudaVolumeRepresentation(const vtkCudaVolumeRepresentation&) = delete;
  void operator=(const vtkCudaVolumeRepresentation&) = delete;

  void ForwardProgress(vtkObject* caller, unsigned long event, void* data);

  vtkCudaVolumeMapper* CudaMapper;
  int CudaBlendMode = 0;  // vtkVolumeMapper::COMPOSITE_BLEND
  int StockBlendMode = 0; // the same
  void UpdateBlendMode();
  /// Average intensity or additive on several ranks, which ParaView
  /// composites "over": said once until the blend mode changes.
  void ReportPieceBlending(int ranks);
  int PieceBlendingSaid = -1;
  std::vector<double> CudaIsoValues, StockIsoValues;
  vtkSmartPointer<vtkImplicitFunction> CudaSlice, StockSlice;
  void UpdateSurfaceInputs();
  std::string Statistics;
  /// A colour array the data lacks or that is not numeric: said once until it
  /// changes (the view hides such a volume without asking the mapper).
  void CheckColorArray();
  std::string ColorArrayProblem;
};

#endif
