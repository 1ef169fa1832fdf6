// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "vtkCudaVolumeMapper.h"

#include "vtkCudaVolumeBlocks.h"
#include "vtkCudaVolumeCompositor.h"
#include "vtkCudaVolumeConversion.h"
#include "vtkCudaVolumeInterop.h"

#include "vtkBoundingBox.h"
#include "vtkCellData.h"
#include "vtkColorTransferFunction.h"
#include "vtkCommand.h"
#include "vtkDataArray.h"
#include "vtkDataObjectTree.h"
#include "vtkImageData.h"
#include "vtkInformation.h"
#include "vtkMath.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkOpenGLRenderWindow.h"
#include "vtkPiecewiseFunction.h"
#include "vtkPlaneCollection.h"
#include "vtkPointData.h"
#include "vtkRectilinearGrid.h"
#include "vtkRenderWindow.h"
#include "vtkRenderer.h"
#include "vtkSmartPointer.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkTimerLog.h"
#include "vtkVolume.h"
#include "vtkVolumeProperty.h"

#include <algorithm>
#include <cmath>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

vtkStandardNewMacro(vtkCudaVolumeMapper);

static std::atomic<vtkTypeUInt64> framesRendered(0);

vtkTypeUInt64 vtkCudaVolumeMapper::GetNumberOfFramesRendered()
{
  return framesRendered.load();
}

namespace
{
struct ContextDeleter
{
  void operator()(cvr_context* c) const { cvr_context_destroy(c); }
};
struct VolumeDeleter
{
  void operator()(cvr_volume* v) const { cvr_volume_destroy(v); }
};
struct TransferFunctionDeleter
{
  void operator()(cvr_transfer_function* t) const { cvr_transfer_function_destroy(t); }
};

// Blocks of a composite input render one after the other: their times and
// counts add up; the backend and launch shape are the same for all.
void AddStats(cvr_render_stats& total, const cvr_render_stats& block)
{
  total.kernel_ms += block.kernel_ms;
  total.total_ms += block.total_ms;
  total.transfer_ms += block.transfer_ms;
  total.rays += block.rays;
  total.samples += block.samples;
  total.samples_skipped_empty += block.samples_skipped_empty;
  total.samples_skipped_terminated += block.samples_skipped_terminated;
  total.rotations += block.rotations;
  total.rotation_ms += block.rotation_ms;
  total.brick_count += block.brick_count;
  total.bricks_drawn += block.bricks_drawn;
  total.bricks_loaded += block.bricks_loaded;
  total.bricks_cached += block.bricks_cached;
  total.brick_bytes_loaded += block.brick_bytes_loaded;
  total.brick_load_ms += block.brick_load_ms;
}
}

// The C handles and what they were made from, so that only what changed is
// uploaded again; the last frame's images and statistics.
class vtkCudaVolumeMapper::vtkInternals
{
public:
  std::unique_ptr<cvr_context, ContextDeleter> Context;
  int ContextBackend = -1, ContextDevice = -1, ContextThreads = -1, ContextBrickSize = -1;
  size_t ContextBudget = 0;
  // MaxMemoryInBytes and MaxMemoryFraction as constructed (VTK's guess):
  // left so, they set no budget (UpdateContext)
  vtkIdType DefaultMaxMemory = 0;
  float DefaultMaxFraction = 0.75f;
  bool FallbackReported = false;
  bool DeviceLost = false; // the CUDA device was lost: the CPU renders from then on
  bool LightsReported = false;
  std::string StrategyReported; // the last "strategy X renders Y" warning
  std::set<std::string> IgnoredReported; // warned about once: settings not supported yet, empty functions
  int GradientOpacityRangeType = -1;     // the one the transfer function was built with

  // one per image block (one for vtkImageData input)
  struct BlockVolume
  {
    // the array the volume reads in place (cvr_volume_desc.borrow_data),
    // held for as long as it does (declared first: released after Volume)
    vtkSmartPointer<vtkDataArray> Lent;
    std::unique_ptr<cvr_volume, VolumeDeleter> Volume;
    vtkDataArray* Scalars = nullptr;
    vtkImageData* Image = nullptr;
    int CellFlag = -1;
    int VectorMode = 0, VectorComponent = 0; // as uploaded
    int Components = 1;                      // as uploaded (1 with a vector mode)
    vtkDataArray* YAxis = nullptr;           // the 2D function's y axis, component 1
    double AxisRanges[2][2] = {};            // with YAxis: both axes' ranges
    vtkMTimeType Time = 0;
    cvr_scalar_type Type = CVR_UINT8; // as uploaded
    int Dims[3] = { 0, 0, 0 };
  };
  std::vector<BlockVolume> Blocks;
  // the blocks' components, and each one's range over every block; YAxis:
  // the two are a 2D transfer function's axes (Transfer2DYAxisArray)
  int Components = 1;
  bool YAxis = false;
  double ComponentRanges[CVR_MAX_COMPONENTS][2] = {};
  bool SkippedBlocksReported = false;

  std::unique_ptr<cvr_transfer_function, TransferFunctionDeleter> TransferFunction;
  vtkMTimeType TransferFunctionTime = 0;
  double TransferFunctionRange[2] = { 0, 0 };
  bool TransferFunctionLabels = false; // built with the label functions
  bool TransferFunctionYAxis = false;  // built for a volume with a y axis
  // ProjectionDepth: a grey ramp over the transfer function's range, opaque,
  // and the image it renders and the depths made of it
  std::unique_ptr<cvr_transfer_function, TransferFunctionDeleter> RampTransferFunction;
  double RampRange[2] = { 0, 0 };
  std::vector<float> RampColor, ExtremeDepth;

  // the mask input as set on the volume: which, when, how and where
  vtkImageData* MaskSource = nullptr; // compared, never dereferenced
  vtkMTimeType MaskTime = 0;
  int MaskType = -1;
  vtkTypeUInt64 MaskOnUpload = 0; // the volume upload (VolumeUploads) it was set on; 0: none

  vtkTypeUInt64 VolumeUploads = 0, TransferFunctionUploads = 0;
  vtkTypeUInt64 VolumeUpdates = 0; // of VolumeUploads, those written over the copy there was
  vtkTypeUInt64 MaskUploads = 0;
  std::vector<float> Color, Depth, OpaqueDepth;
  std::vector<float> ViewportDepth; // the viewport's, when the image is another size
  // a rectilinear input with evenly spaced coordinates, as an image
  vtkNew<vtkImageData> RectilinearImage;
  vtkRectilinearGrid* RectilinearSource = nullptr; // compared, never dereferenced
  vtkMTimeType RectilinearTime = 0;
  // AutoAdjustSampleDistances: the sample distance's divisor in interactive
  // frames (vtkVolume::GetAllocatedRenderTime() < 1), as VTK's OpenGL mapper
  double ReductionFactor = 1.0;
  std::vector<float> BlockColor, BlockDepth; // one block's image, composite input
  std::vector<unsigned char> Color8;
  int ImageSize[2] = { 0, 0 };
  cvr_render_stats Stats = {};
  // what the render path said (Say): in this frame, and in the frame before,
  // which is not said again while it stays the same; the frame's first error
  std::set<std::string> SaidThisFrame, SaidLastFrame;
  std::string FrameError;
  // the last frame's stages, wall time in ms (see GetLastUploadTimeMs())
  double UploadMs = 0, DepthReadMs = 0, RenderCallMs = 0, CompositeMs = 0;
  // the latest frame that sent anything: its UploadMs, and the frames since (-1: none)
  double LatestUploadMs = 0;
  int FramesSinceUpload = -1;
  std::string Configuration;
  vtkCudaVolumeCompositor Compositor;
  // the image on the GPU (GraphicsInterop), or why it goes through host memory
  vtkCudaVolumeInterop Interop;
  bool InteropUnavailable = false;
  std::string ImageTransfer = "none (no frame yet)";

  // STRATEGY_AUTO
  std::string CacheDirectory; // as applied to the context
  bool CacheDirectoryDefault = true;
  bool TuneNowRequested = false, ResetRequested = false;
  std::string AutoConfiguration, TuningWarning;
  int AutoTuning = 0;
};

vtkCudaVolumeMapper::vtkCudaVolumeMapper()
  : Internals(new vtkInternals)
{
  this->Internals->DefaultMaxMemory = this->MaxMemoryInBytes;
  this->Internals->DefaultMaxFraction = this->MaxMemoryFraction;
}

void vtkCudaVolumeMapper::UseDefaultMaxMemory()
{
  this->SetMaxMemoryInBytes(this->Internals->DefaultMaxMemory);
  this->SetMaxMemoryFraction(this->Internals->DefaultMaxFraction);
}

// The render path's errors and warnings, said once until they change: a
// message said in the frame before is not said again (a broken input
// renders every frame; its error appears once, and again after a frame
// without it).
#define cvrSayError(x)                                                                             \
  do                                                                                               \
  {                                                                                                \
    std::ostringstream cvr_said_;                                                                  \
    cvr_said_ << "" x;                                                                             \
    this->Say(true, cvr_said_.str());                                                              \
  } while (false)
#define cvrSayWarning(x)                                                                           \
  do                                                                                               \
  {                                                                                                \
    std::ostringstream cvr_said_;                                                                  \
    cvr_said_ << "" x;                                                                             \
    this->Say(false, cvr_said_.str());                                                             \
  } while (false)

void vtkCudaVolumeMapper::Say(bool error, const std::string& text)
{
  vtkInternals& in = *this->Internals;
  if (error && in.FrameError.empty())
  {
    in.FrameError = text;
  }
  const bool repeated = in.SaidLastFrame.count(text) != 0;
  in.SaidThisFrame.insert(text);
  if (repeated)
  {
    return;
  }
  if (error)
  {
    vtkErrorMacro(<< text);
  }
  else
  {
    vtkWarningMacro(<< text);
  }
}

// A frame begins: what the last one said is what this one need not repeat,
// and the last frame's statistics are gone (a frame that fails leaves none).
void vtkCudaVolumeMapper::BeginFrame()
{
  vtkInternals& in = *this->Internals;
  in.SaidLastFrame.swap(in.SaidThisFrame);
  in.SaidThisFrame.clear();
  in.FrameError.clear();
  in.Stats = cvr_render_stats{};
  in.Configuration = "no frame rendered";
}

// A frame ends: one that failed says why in its configuration.
void vtkCudaVolumeMapper::EndFrame()
{
  vtkInternals& in = *this->Internals;
  if (!in.FrameError.empty() && in.Stats.rays == 0)
  {
    in.Configuration = "no frame rendered: " + in.FrameError;
  }
}

vtkCudaVolumeMapper::~vtkCudaVolumeMapper()
{
  // handles go before the context that owns them
  this->Internals->TransferFunction.reset();
  this->Internals->Blocks.clear();
  this->SetTuningCacheDirectory(nullptr);
}

void vtkCudaVolumeMapper::TuneNow()
{
  this->Internals->TuneNowRequested = true;
  this->Modified();
}

void vtkCudaVolumeMapper::ResetTuning()
{
  vtkInternals& in = *this->Internals;
  if (in.Context && cvr_tuning_reset(in.Context.get()) != CVR_OK)
  {
    vtkErrorMacro("cannot reset the tuning: " << cvr_last_error(in.Context.get()));
  }
  in.ResetRequested = !in.Context; // a context made later starts from the files: delete them then
  in.AutoConfiguration.clear();
  this->Modified();
}

const char* vtkCudaVolumeMapper::GetAutoConfiguration()
{
  return this->Internals->AutoConfiguration.c_str();
}

int vtkCudaVolumeMapper::GetAutoTuning()
{
  return this->Internals->AutoTuning;
}

// cvr_tune_now's progress, as the mapper's ProgressEvent; AbortExecute stops it.
static int TuningProgress(double fraction, void* user)
{
  auto* self = static_cast<vtkCudaVolumeMapper*>(user);
  self->UpdateProgress(fraction);
  return self->GetAbortExecute() ? 1 : 0;
}

// A volume upload's progress, as the mapper's ProgressEvent (an upload is
// whole or not at all: AbortExecute does not stop it).
static int UploadProgress(double fraction, void* user)
{
  static_cast<vtkCudaVolumeMapper*>(user)->UpdateProgress(fraction);
  return 0;
}

// vtkVolumeMapper's blend mode as the library's; false for those it lacks.
static bool BlendModeOf(int vtkMode, cvr_blend_mode& out)
{
  switch (vtkMode)
  {
    case vtkVolumeMapper::COMPOSITE_BLEND:
      out = CVR_BLEND_COMPOSITE;
      return true;
    case vtkVolumeMapper::MAXIMUM_INTENSITY_BLEND:
      out = CVR_BLEND_MAXIMUM;
      return true;
    case vtkVolumeMapper::MINIMUM_INTENSITY_BLEND:
      out = CVR_BLEND_MINIMUM;
      return true;
    case vtkVolumeMapper::AVERAGE_INTENSITY_BLEND:
      out = CVR_BLEND_AVERAGE;
      return true;
    case vtkVolumeMapper::ADDITIVE_BLEND:
      out = CVR_BLEND_ADDITIVE;
      return true;
    case vtkVolumeMapper::ISOSURFACE_BLEND:
      out = CVR_BLEND_ISOSURFACE;
      return true;
    case vtkVolumeMapper::SLICE_BLEND:
      out = CVR_BLEND_SLICE;
      return true;
    default:
      return false;
  }
}

const char* vtkCudaVolumeMapper::GetBlendModeName() const
{
  cvr_blend_mode mode;
  if (BlendModeOf(this->BlendMode, mode))
  {
    return cvr_blend_mode_name(mode);
  }
  return "unknown";
}

// Warp marching and the slab strategy composite only, and the slab needs its
// rays on one lattice (no jittering): the library renders the rest with the
// standard strategy; say so once per combination.
void vtkCudaVolumeMapper::ReportStrategySwitch(
  const cvr_render_settings& settings, const cvr_render_stats& stats)
{
  vtkInternals& in = *this->Internals;
  if (stats.backend == CVR_BACKEND_CPU && settings.strategy != CVR_STRATEGY_AUTO &&
    settings.strategy != CVR_STRATEGY_STANDARD)
  {
    // the strategies are the CUDA backend's: said once per strategy
    const std::string report = std::string("the ") + cvr_strategy_name(settings.strategy) +
      " strategy applies to the CUDA backend: the CPU backend renders with its own tiles "
      "(CpuTileSize, CpuSchedule)";
    if (in.IgnoredReported.insert(report).second)
    {
      cvrSayWarning(<< report);
    }
    return;
  }
  if (settings.strategy == CVR_STRATEGY_AUTO || stats.backend != CVR_BACKEND_CUDA ||
    stats.strategy == settings.strategy)
  {
    return;
  }
  const std::string why = settings.blend_mode != CVR_BLEND_COMPOSITE
    ? std::string(" strategy composites only: ") + this->GetBlendModeName() + " blending"
    : std::string(" strategy needs its rays on one lattice: jittering");
  const std::string report = std::string("the ") + cvr_strategy_name(settings.strategy) + why +
    " renders with the " + cvr_strategy_name(stats.strategy) + " strategy";
  if (report != in.StrategyReported)
  {
    cvrSayWarning(<< report);
    in.StrategyReported = report;
  }
}

static cvr_backend ToBackend(int backend)
{
  return backend == vtkCudaVolumeMapper::BACKEND_CUDA ? CVR_BACKEND_CUDA
    : backend == vtkCudaVolumeMapper::BACKEND_CPU    ? CVR_BACKEND_CPU
                                                     : CVR_BACKEND_AUTO;
}

int vtkCudaVolumeMapper::LocalRankDevice(int deviceCount)
{
  static const char* const variables[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
    "MV2_COMM_WORLD_LOCAL_RANK", "PMI_LOCAL_RANK", "SLURM_LOCALID" };
  int rank = 0;
  for (const char* name : variables)
  {
    if (const char* value = std::getenv(name))
    {
      rank = std::atoi(value);
      break;
    }
  }
  return deviceCount > 0 && rank >= 0 ? rank % deviceCount : 0;
}

int vtkCudaVolumeMapper::LocalRankThreads()
{
  static const char* const variables[] = { "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS",
    "MV2_COMM_WORLD_LOCAL_SIZE", "PMI_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE" };
  int ranks = 0;
  for (const char* name : variables)
  {
    if (const char* value = std::getenv(name))
    {
      ranks = std::atoi(value);
      break;
    }
  }
  if (ranks <= 1)
  {
    return 0;
  }
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores / ranks);
}

int vtkCudaVolumeMapper::GetNumberOfCudaDevices()
{
  return cvr_cuda_device_count();
}

int vtkCudaVolumeMapper::IsRenderSupported(vtkRenderWindow*, vtkVolumeProperty*)
{
  const int devices = cvr_cuda_device_count();
  return this->Backend != BACKEND_CUDA || (devices > 0 && devices > this->DeviceIndex);
}

bool vtkCudaVolumeMapper::UpdateContext()
{
  vtkInternals& in = *this->Internals;
  const int backend = in.DeviceLost ? BACKEND_CPU : this->Backend;
  // the budget: VTK's memory settings where the caller set them
  const bool memorySet = this->MaxMemoryInBytes != in.DefaultMaxMemory ||
    this->MaxMemoryFraction != in.DefaultMaxFraction;
  const size_t budget = memorySet && this->MaxMemoryInBytes > 0
    ? static_cast<size_t>(static_cast<double>(this->MaxMemoryInBytes) * this->MaxMemoryFraction)
    : 0;
  if (in.Context && in.ContextBackend == backend && in.ContextDevice == this->DeviceIndex &&
    in.ContextThreads == this->CpuThreads && in.ContextBudget == budget &&
    in.ContextBrickSize == this->BrickSize)
  {
    return true;
  }
  in.TransferFunction.reset();
  in.Blocks.clear();
  in.Interop.Release(true); // the OpenGL context is current while rendering
  in.InteropUnavailable = false;
  in.Context.reset();
  cvr_context_options options;
  cvr_context_options_init(&options);
  options.backend = ToBackend(backend);
  options.device_index =
    this->DeviceIndex < 0 ? LocalRankDevice(cvr_cuda_device_count()) : this->DeviceIndex;
  options.cpu_threads = this->CpuThreads > 0 ? this->CpuThreads : LocalRankThreads();
  options.memory_budget = budget;
  options.brick_size = this->BrickSize;
  cvr_context* ctx = nullptr;
  in.ContextBackend = backend;
  in.ContextDevice = this->DeviceIndex;
  in.ContextThreads = this->CpuThreads;
  in.ContextBudget = budget;
  in.ContextBrickSize = this->BrickSize;
  if (cvr_context_create(&options, &ctx) != CVR_OK)
  {
    cvrSayError("cannot render: " << cvr_last_error(nullptr));
    return false;
  }
  in.Context.reset(ctx);
  in.CacheDirectoryDefault = true;
  in.CacheDirectory.clear();
  // (after a device loss FallBackAfterDeviceLoss has said why)
  if (this->Backend == BACKEND_AUTO && cvr_context_backend(ctx) == CVR_BACKEND_CPU &&
    !in.FallbackReported && !in.DeviceLost)
  {
    cvrSayWarning("rendering on the CPU: " << cvr_context_description(ctx));
    in.FallbackReported = true;
  }
  return true;
}

bool vtkCudaVolumeMapper::FallBackAfterDeviceLoss()
{
  vtkInternals& in = *this->Internals;
  if (in.DeviceLost || !in.Context || !cvr_context_lost(in.Context.get()))
  {
    return false;
  }
  cvrSayWarning("the CUDA device was lost: " << cvr_last_error(in.Context.get())
                                               << "; rendering on the CPU from now on");
  in.DeviceLost = true;
  return true;
}

void vtkCudaVolumeMapper::GPURender(vtkRenderer* ren, vtkVolume* vol)
{
  // the input's own type: the superclass keeps one transformed copy per port
  // of the first input's type and only shallow-copies later inputs into it
  vtkDataSet* input = this->GetInput();
  vtkImageData* image = nullptr;
  if (vtkImageData::SafeDownCast(input))
  {
    image = vtkImageData::SafeDownCast(this->GetTransformedInput(0));
    if (!image) // the copy is of an earlier rectilinear input's type
    {
      image = vtkImageData::SafeDownCast(input);
    }
  }
  else if (auto* grid = vtkRectilinearGrid::SafeDownCast(input))
  {
    // evenly spaced: the image it is, rebuilt only when the grid changes, so
    // that the device copy is kept between frames
    vtkInternals& in = *this->Internals;
    if (in.RectilinearSource != grid || in.RectilinearTime < grid->GetMTime())
    {
      std::string error;
      in.RectilinearSource = nullptr;
      if (!vtkCudaVolumeConversion::RectilinearAsImage(grid, in.RectilinearImage, error))
      {
        cvrSayError(<< error);
        return;
      }
      in.RectilinearSource = grid;
      in.RectilinearTime = grid->GetMTime();
    }
    image = in.RectilinearImage;
  }
  if (!image)
  {
    cvrSayError("the input must be vtkImageData or a vtkRectilinearGrid with evenly spaced "
                  "coordinates, not "
      << (input ? input->GetClassName() : "nothing"));
    return;
  }
  this->RenderImages(ren, vol, { image });
  if (this->FallBackAfterDeviceLoss())
  {
    this->RenderImages(ren, vol, { image });
  }
}

void vtkCudaVolumeMapper::Render(vtkRenderer* ren, vtkVolume* vol)
{
  this->BeginFrame();
  auto* tree = vtkDataObjectTree::SafeDownCast(this->GetInputDataObject(0, 0));
  std::vector<vtkImageData*> images;
  if (!tree)
  {
    // The superclass validates and renders vtkImageData, but refuses more
    // than four components before a vector mode can reduce them (ParaView's
    // Volume takes the magnitude first, in vtkSmartVolumeMapper): such an
    // image is rendered here, as one block.
    auto* image = vtkImageData::SafeDownCast(this->GetInputDataObject(0, 0));
    int cellFlag = 0;
    vtkDataArray* scalars = image ? this->GetScalars(image, this->ScalarMode, this->ArrayAccessMode,
                                      this->ArrayId, this->ArrayName, cellFlag)
                                  : nullptr;
    if (!scalars || scalars->GetNumberOfComponents() <= 4 || this->VectorMode == VECTOR_DISABLED)
    {
      this->Superclass::Render(ren, vol);
      this->EndFrame();
      return;
    }
    images.push_back(image);
  }
  // Composite input (vtkPartitionedDataSet, vtkMultiBlockDataSet, ...), which
  // the superclass does not render, is rendered here.
  this->InvokeEvent(vtkCommand::VolumeMapperRenderStartEvent, nullptr);
  this->Timer->StartTimer();
  int skipped = 0;
  if (tree)
  {
    vtkCudaVolumeBlocks::CollectImages(tree, images, skipped);
  }
  if (skipped && !this->Internals->SkippedBlocksReported)
  {
    cvrSayWarning(<< skipped << " blocks of the input are not vtkImageData: not rendered");
    this->Internals->SkippedBlocksReported = true;
  }
  if (images.empty())
  {
    cvrSayError("the composite input holds no non-empty vtkImageData to render");
  }
  else
  {
    this->RenderImages(ren, vol, images);
    if (this->FallBackAfterDeviceLoss())
    {
      this->RenderImages(ren, vol, images);
    }
  }
  this->Timer->StopTimer();
  this->TimeToDraw = std::max(this->Timer->GetElapsedTime(), 0.0001);
  // what the superclass's Render keeps for AutoAdjustSampleDistances
  (vol->GetAllocatedRenderTime() < 1.0 ? this->SmallTimeToDraw : this->BigTimeToDraw) =
    this->TimeToDraw;
  this->InvokeEvent(vtkCommand::VolumeMapperRenderEndEvent, nullptr);
  this->EndFrame();
}

double* vtkCudaVolumeMapper::GetBounds()
{
  auto* tree = vtkDataObjectTree::SafeDownCast(this->GetInputDataObject(0, 0));
  if (!tree)
  {
    return this->Superclass::GetBounds();
  }
  this->Update();
  tree = vtkDataObjectTree::SafeDownCast(this->GetInputDataObject(0, 0));
  if (!tree)
  {
    return this->Superclass::GetBounds();
  }
  std::vector<vtkImageData*> images;
  int skipped = 0;
  vtkCudaVolumeBlocks::CollectImages(tree, images, skipped);
  vtkBoundingBox box;
  for (vtkImageData* image : images)
  {
    box.AddBounds(image->GetBounds());
  }
  if (box.IsValid())
  {
    box.GetBounds(this->Bounds);
  }
  else
  {
    vtkMath::UninitializeBounds(this->Bounds);
  }
  return this->Bounds;
}

vtkDataSet* vtkCudaVolumeMapper::GetInput(const int port)
{
  auto* tree = port == 0 && this->GetNumberOfInputConnections(0) > 0
    ? vtkDataObjectTree::SafeDownCast(this->GetInputDataObject(0, 0))
    : nullptr;
  if (!tree)
  {
    return this->Superclass::GetInput(port);
  }
  std::vector<vtkImageData*> images;
  int skipped = 0;
  vtkCudaVolumeBlocks::CollectImages(tree, images, skipped);
  return images.empty() ? nullptr : images[0];
}

int vtkCudaVolumeMapper::FillInputPortInformation(int port, vtkInformation* info)
{
  this->Superclass::FillInputPortInformation(port, info);
  if (port == 0)
  {
    info->Append(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkDataObjectTree");
  }
  return 1;
}

bool vtkCudaVolumeMapper::UpdateBlock(size_t b, vtkImageData* image, vtkDataArray* scalars,
  int cellFlag, vtkDataArray* yAxis, const std::string& which)
{
  vtkInternals& in = *this->Internals;
  vtkInternals::BlockVolume& block = in.Blocks[b];
  vtkMTimeType dataTime = std::max(scalars->GetMTime(), image->GetMTime());
  dataTime = yAxis ? std::max(dataTime, yAxis->GetMTime()) : dataTime;
  // what the vector settings select: nothing of one component, so that
  // changing them then uploads nothing
  const bool vectors = scalars->GetNumberOfComponents() > 1;
  const int vectorMode = vectors ? this->VectorMode : VECTOR_DISABLED;
  const int vectorComponent = vectors && vectorMode == VECTOR_COMPONENT ? this->VectorComponent : 0;
  if (block.Volume && block.Scalars == scalars && block.Image == image &&
    block.CellFlag == cellFlag && block.Time >= dataTime && block.VectorMode == vectorMode &&
    block.VectorComponent == vectorComponent && block.YAxis == yAxis)
  {
    return true;
  }
  in.TransferFunction.reset(); // its range follows the data
  vtkCudaVolumeConversion::VolumeInput input;
  std::string error;
  if (!vtkCudaVolumeConversion::DescribeVolume(
        image, scalars, cellFlag, this->VectorMode, this->VectorComponent, input, error))
  {
    // (a null name would end the stream's output there)
    const char* name = scalars->GetName() ? scalars->GetName() : "the unnamed scalars";
    cvrSayError("cannot render " << name << which << ": " << error);
    return false;
  }
  if (yAxis && !vtkCudaVolumeConversion::AppendYAxis(yAxis, input, error))
  {
    cvrSayError("cannot render with the 2D transfer function's y axis" << which << ": "
                                                                           << error);
    return false;
  }
  input.Desc.progress = UploadProgress;
  input.Desc.progress_user = this;
  // new values of the same shape go over the copy there is (its device
  // memory and layout kept); anything else makes a new volume
  const bool inPlace = block.Volume && block.CellFlag == cellFlag &&
    block.VectorMode == vectorMode && block.VectorComponent == vectorComponent &&
    (block.YAxis != nullptr) == (yAxis != nullptr) && block.Type == input.Desc.type &&
    block.Components == input.Desc.components &&
    std::equal(block.Dims, block.Dims + 3, input.Desc.dims) &&
    cvr_volume_update(block.Volume.get(), &input.Desc) == CVR_OK;
  if (!inPlace)
  {
    block.Volume.reset(); // (before the array it may read goes)
    block = vtkInternals::BlockVolume();
    cvr_volume* volume = nullptr;
    if (cvr_volume_create(in.Context.get(), &input.Desc, &volume) != CVR_OK)
    {
      if (!cvr_context_lost(in.Context.get())) // FallBackAfterDeviceLoss says it
      {
        cvrSayError(
          "cannot upload the volume" << which << ": " << cvr_last_error(in.Context.get()));
      }
      return false;
    }
    block.Volume.reset(volume);
  }
  ++in.VolumeUploads;
  in.VolumeUpdates += inPlace ? 1 : 0;
  block.Type = input.Desc.type;
  std::copy(input.Desc.dims, input.Desc.dims + 3, block.Dims);
  block.Lent = input.Desc.borrow_data ? scalars : nullptr;
  block.Scalars = scalars;
  block.Image = image;
  block.CellFlag = cellFlag;
  block.VectorMode = vectorMode;
  block.VectorComponent = vectorComponent;
  block.Components = input.Desc.components;
  block.YAxis = yAxis;
  std::memcpy(block.AxisRanges, input.AxisRanges, sizeof block.AxisRanges);
  block.Time = dataTime;
  return true;
}

void vtkCudaVolumeMapper::AddBlockRanges(size_t b, size_t blocks, double range[2])
{
  vtkInternals& in = *this->Internals;
  const vtkInternals::BlockVolume& block = in.Blocks[b];
  for (int c = 0; c < block.Components && block.Components > 1; ++c)
  {
    // each component's functions span its own range, as VTK's mapper; the
    // library found it while uploading (a scan per component otherwise),
    // and only ±Inf values send it to VTK's finite range
    double found[2];
    cvr_volume_get_component_range(block.Volume.get(), c, found);
    const double* r = block.YAxis                                            ? block.AxisRanges[c]
      : std::isfinite(found[0]) && std::isfinite(found[1]) ? found
                                                           : block.Scalars->GetFiniteRange(c);
    double* cr = in.ComponentRanges[c];
    cr[0] = b == 0 ? r[0] : std::min(cr[0], r[0]);
    cr[1] = b == 0 ? r[1] : std::max(cr[1], r[1]);
    if (b + 1 == blocks && !(cr[1] > cr[0]))
    {
      cr[1] = cr[0] + 1.0;
    }
  }
  // the library found the range while uploading; vtkDataArray::GetRange
  // would scan the array again (about 30 ns a value in VTK 9.2: minutes at 2048^3)
  double r[2];
  cvr_volume_get_range(block.Volume.get(), r);
  if (!std::isfinite(r[0]) || !std::isfinite(r[1]))
  {
    // ±Inf values: the functions span the finite values, as VTK's mapper
    // (an infinite value takes the end entry); only such data pays the scan
    const double* finite = block.Scalars->GetFiniteRange(-1);
    r[0] = finite[0];
    r[1] = finite[1];
  }
  if (block.YAxis) // the function's x axis: component 0 alone
  {
    r[0] = block.AxisRanges[0][0];
    r[1] = block.AxisRanges[0][1];
  }
  range[0] = b == 0 ? r[0] : std::min(range[0], r[0]);
  range[1] = b == 0 ? r[1] : std::max(range[1], r[1]);
}

bool vtkCudaVolumeMapper::UpdateVolumes(
  const std::vector<vtkImageData*>& images, const char* yAxisName, double range[2])
{
  vtkInternals& in = *this->Internals;
  if (in.Blocks.size() != images.size())
  {
    in.TransferFunction.reset();
    in.Blocks.clear();
    in.Blocks.resize(images.size());
  }
  range[0] = 1.0; // empty (UninitializeBounds would write six values)
  range[1] = -1.0;
  for (size_t b = 0; b < images.size(); ++b)
  {
    vtkImageData* image = images[b];
    vtkInternals::BlockVolume& block = in.Blocks[b];
    const std::string which =
      images.size() > 1 ? " of block " + std::to_string(b) : std::string();
    int cellFlag = 0;
    vtkDataArray* scalars = this->GetScalars(
      image, this->ScalarMode, this->ArrayAccessMode, this->ArrayId, this->ArrayName, cellFlag);
    if (!scalars)
    {
      cvrSayError("no scalars to render" << which);
      return false;
    }
    // the 2D function's y axis, beside the scalars (as VTK's mapper finds it)
    vtkDataArray* yAxis = nullptr;
    if (yAxisName)
    {
      vtkDataSetAttributes* arrays = cellFlag == 1
        ? static_cast<vtkDataSetAttributes*>(image->GetCellData())
        : static_cast<vtkDataSetAttributes*>(image->GetPointData());
      yAxis = arrays->GetArray(yAxisName);
      const std::string missing = std::string("the 2D transfer function's y axis array ") +
        yAxisName + " is not among the " + (cellFlag == 1 ? "cell" : "point") +
        " arrays of the input" + which + ": the gradient magnitude is the y axis";
      if (!yAxis && in.IgnoredReported.insert(missing).second)
      {
        cvrSayWarning(<< missing);
      }
    }
    if (!this->UpdateBlock(b, image, scalars, cellFlag, yAxis, which))
    {
      return false;
    }
    if (b > 0 && (block.YAxis != nullptr) != in.YAxis)
    {
      cvrSayError("block " << b << (block.YAxis ? " has" : " lacks")
                             << " the 2D transfer function's y axis array: blocks must agree");
      return false;
    }
    in.YAxis = block.YAxis != nullptr;
    if (b > 0 && block.Components != in.Components)
    {
      cvrSayError("block " << b << " has " << block.Components << " components, block 0 "
                             << in.Components << ": blocks must agree");
      return false;
    }
    in.Components = block.Components;
    this->AddBlockRanges(b, images.size(), range);
  }
  if (!(range[1] > range[0]))
  {
    range[1] = range[0] + 1.0;
  }
  return true;
}

struct vtkCudaVolumeMapper::TransferFunctionTables
{
  std::vector<float> Table, Gradient, Table2D, Labels, LabelGradient;
  std::vector<float> Components[CVR_MAX_COMPONENTS], ComponentGradients[CVR_MAX_COMPONENTS];
  cvr_transfer_function_desc ComponentDescs[CVR_MAX_COMPONENTS - 1] = {};
  cvr_transfer_function_desc YAxisFallback = {};
};

vtkMTimeType vtkCudaVolumeMapper::TransferFunctionMTime(
  vtkVolumeProperty* property, int components, bool labels, bool mode2D)
{
  vtkMTimeType time = property->GetMTime();
  for (int c = 0; c < components; ++c)
  {
    time = std::max(time, property->GetScalarOpacity(c)->GetMTime());
    time = std::max(time,
      property->GetColorChannels(c) == 3 ? property->GetRGBTransferFunction(c)->GetMTime()
                                         : property->GetGrayTransferFunction(c)->GetMTime());
    if (property->HasGradientOpacity(c))
    {
      time = std::max(time, property->GetStoredGradientOpacity(c)->GetMTime());
    }
  }
  if (labels)
  {
    time = std::max({ time, property->GetLabelColorMTime().GetMTime(),
      property->GetLabelScalarOpacityMTime().GetMTime(),
      property->GetLabelGradientOpacityMTime().GetMTime() });
    for (int label : property->GetLabelMapLabels())
    {
      for (vtkObject* f : { static_cast<vtkObject*>(property->GetLabelColor(label)),
             static_cast<vtkObject*>(property->GetLabelScalarOpacity(label)),
             static_cast<vtkObject*>(property->GetLabelGradientOpacity(label)) })
      {
        time = f ? std::max(time, f->GetMTime()) : time;
      }
    }
  }
  if (mode2D && property->GetTransferFunction2D())
  {
    vtkImageData* tf2D = property->GetTransferFunction2D();
    time = std::max(time, tf2D->GetMTime());
    if (vtkDataArray* tuples = tf2D->GetPointData()->GetScalars())
    {
      time = std::max(time, tuples->GetMTime());
    }
  }
  return time;
}

void vtkCudaVolumeMapper::SampleFunctions(vtkVolumeProperty* property, const double range[2],
  bool mode2D, bool labels, TransferFunctionTables& t, cvr_transfer_function_desc& desc)
{
  vtkInternals& in = *this->Internals;
  vtkCudaVolumeConversion::SampleTransferFunction(
    property, range, CVR_TRANSFER_FUNCTION_TABLE_SIZE, t.Table);
  double gradientMax = 0.0;
  const bool gradientOpacity = vtkCudaVolumeConversion::SampleGradientOpacity(property, range,
    this->GradientOpacityRangeType == vtkGPUVolumeRayCastMapper::NATIVE,
    CVR_GRADIENT_OPACITY_TABLE_SIZE, t.Gradient, gradientMax);
  std::string error2D;
  bool clamped2D = false;
  if (mode2D &&
    vtkCudaVolumeConversion::SampleTransferFunction2D(
      property, t.Table2D, desc.size_2d, clamped2D, error2D))
  {
    // as VTK's: x spans the data's range, y gradient magnitudes up to a
    // quarter of it (the gradient-opacity measure)
    desc.rgba_2d = t.Table2D.data();
    desc.gradient_max_2d = 0.25 * (range[1] - range[0] > 0.0 ? range[1] - range[0] : 1.0);
    if (clamped2D && in.IgnoredReported.insert("2D clamped").second)
    {
      cvrSayWarning("the 2D transfer function has values outside [0, 1] (or NaN): clamped");
    }
  }
  else if (mode2D && in.IgnoredReported.insert(error2D).second)
  {
    cvrSayWarning(<< error2D << ": rendered with the 1D functions");
  }
  desc.rgba = t.Table.data();
  desc.size = CVR_TRANSFER_FUNCTION_TABLE_SIZE;
  desc.range[0] = range[0];
  desc.range[1] = range[1];
  desc.unit_distance = property->GetScalarOpacityUnitDistance(0);
  desc.gradient_opacity = gradientOpacity ? t.Gradient.data() : nullptr;
  desc.gradient_opacity_size = CVR_GRADIENT_OPACITY_TABLE_SIZE;
  desc.gradient_opacity_max = gradientMax;
  if (labels)
  {
    bool ignored = false;
    desc.label_count = vtkCudaVolumeConversion::SampleLabelFunctions(property, range,
      CVR_TRANSFER_FUNCTION_TABLE_SIZE, CVR_GRADIENT_OPACITY_TABLE_SIZE, t.Labels,
      t.LabelGradient, ignored);
    desc.label_rgba = t.Labels.data();
    desc.label_gradient_opacity = t.LabelGradient.empty() ? nullptr : t.LabelGradient.data();
    desc.gradient_opacity_max = 0.25 * (range[1] - range[0] > 0.0 ? range[1] - range[0] : 1.0);
    if (ignored && in.IgnoredReported.insert("labels above 255").second)
    {
      cvrSayWarning("label functions of labels above " << CVR_MAX_LABEL
                                                         << " are ignored (a mask holds bytes)");
    }
  }
  // the y axis array as component 1: the 2D function's y axis over its
  // range, as VTK's mapper; without a usable 2D function, component 0 alone
  // by the 1D functions
  if (in.YAxis)
  {
    desc.component_count = 2;
    desc.range_2d_y[0] = in.ComponentRanges[1][0];
    desc.range_2d_y[1] = in.ComponentRanges[1][1];
    desc.component_mode = desc.rgba_2d ? CVR_COMPONENTS_TRANSFER_2D : CVR_COMPONENTS_INDEPENDENT;
    t.YAxisFallback = desc;
    t.YAxisFallback.component_count = 0;
    desc.component_functions = &t.YAxisFallback;
    desc.component_weights[0] = 1.0;
    desc.component_weights[1] = 0.0;
  }
}

// several components: each with its own function over its own range
// (independent), or component 0's functions over the ranges of the
// components that take them (dependent: colour from component 0, opacity
// from the last), as VTK's mapper builds its tables
bool vtkCudaVolumeMapper::SampleComponents(vtkVolumeProperty* property, int components,
  TransferFunctionTables& t, cvr_transfer_function_desc& desc)
{
  vtkInternals& in = *this->Internals;
  const bool independent = property->GetIndependentComponents() != 0;
  if (!independent && components != 2 && components != 4)
  {
    cvrSayError("dependent components are 2 (luminance and alpha) or 4 (RGBA), these scalars "
                  "have "
      << components << ": turn the property's IndependentComponents on, or choose a vector mode");
    return false;
  }
  desc.component_count = components;
  desc.component_mode = independent ? CVR_COMPONENTS_INDEPENDENT : CVR_COMPONENTS_DEPENDENT;
  desc.component_functions = t.ComponentDescs;
  double rgbaRange[2];
  const bool rgbaByType = !in.Blocks.empty() &&
    vtkCudaVolumeConversion::RgbaColourRange(in.Blocks[0].Scalars, rgbaRange);
  for (int c = 0; c < components; ++c)
  {
    const int f = independent ? c : 0;
    const bool rgba = !independent && components == 4 && c < 3 && rgbaByType;
    const double* r = rgba ? rgbaRange : in.ComponentRanges[c];
    cvr_transfer_function_desc& d = c ? t.ComponentDescs[c - 1] : desc;
    vtkCudaVolumeConversion::SampleTransferFunction(
      property, r, CVR_TRANSFER_FUNCTION_TABLE_SIZE, t.Components[c], f);
    double max = 0.0;
    const bool gradient = (independent || c == 0) &&
      vtkCudaVolumeConversion::SampleGradientOpacity(property, r,
        this->GradientOpacityRangeType == vtkGPUVolumeRayCastMapper::NATIVE,
        CVR_GRADIENT_OPACITY_TABLE_SIZE, t.ComponentGradients[c], max, f);
    d.rgba = t.Components[c].data();
    d.size = CVR_TRANSFER_FUNCTION_TABLE_SIZE;
    d.range[0] = r[0];
    d.range[1] = r[1];
    d.unit_distance = property->GetScalarOpacityUnitDistance(f);
    d.gradient_opacity = gradient ? t.ComponentGradients[c].data() : nullptr;
    d.gradient_opacity_size = CVR_GRADIENT_OPACITY_TABLE_SIZE;
    d.gradient_opacity_max = gradient ? max : 1.0;
    desc.component_weights[c] = independent ? property->GetComponentWeight(c) : 1.0;
  }
  bool sameShading = true;
  for (int c = 1; c < components; ++c)
  {
    sameShading = sameShading && property->GetAmbient(c) == property->GetAmbient(0) &&
      property->GetDiffuse(c) == property->GetDiffuse(0) &&
      property->GetSpecular(c) == property->GetSpecular(0) &&
      property->GetSpecularPower(c) == property->GetSpecularPower(0) &&
      property->GetShade(c) == property->GetShade(0);
  }
  if (independent && !sameShading && in.IgnoredReported.insert("component shading").second)
  {
    cvrSayWarning("shading parameters per component are not supported: component 0's "
                    "(Shade, Ambient, Diffuse, Specular, SpecularPower) light every component");
  }
  return true;
}

bool vtkCudaVolumeMapper::UpdateTransferFunction(vtkVolumeProperty* property, const double range[2])
{
  vtkInternals& in = *this->Internals;
  // two components as a 2D function's axes take component 0's functions
  const int components = in.YAxis ? 1 : in.Components;
  const bool wants2D = property->GetTransferFunctionMode() == vtkVolumeProperty::TF_2D;
  const bool mode2D = wants2D && components == 1;
  if (wants2D && !mode2D && in.IgnoredReported.insert("2D with components").second)
  {
    cvrSayWarning("a 2D transfer function with " << components
                                                   << " components is not supported: rendered "
                                                      "with the 1D functions");
  }
  // a label map's label functions (the library takes them with a 1D function
  // and one component)
  const bool anyLabels = this->MaskInput && this->MaskType == LabelMapMaskType &&
    property->GetNumberOfLabels() > 0;
  const bool labels = anyLabels && components == 1;
  if (anyLabels && !labels && in.IgnoredReported.insert("labels with components").second)
  {
    cvrSayWarning("a label map's label functions with " << components
                                                          << " components are not supported: "
                                                             "rendered without them");
  }
  if (labels && mode2D && in.IgnoredReported.insert("labels with 2D").second)
  {
    cvrSayWarning("a label map's label functions with a 2D transfer function are not supported: "
                    "rendered with the 2D function alone");
  }
  const bool useLabels = labels && !mode2D;
  const vtkMTimeType tfTime = this->TransferFunctionMTime(property, components, useLabels, mode2D);
  if (in.TransferFunction && in.TransferFunctionTime >= tfTime &&
    in.TransferFunctionRange[0] == range[0] && in.TransferFunctionRange[1] == range[1] &&
    in.TransferFunctionYAxis == in.YAxis &&
    in.GradientOpacityRangeType == this->GradientOpacityRangeType &&
    in.TransferFunctionLabels == useLabels)
  {
    return true;
  }
  // empty functions are legal and draw nothing (opacity) or black (colour),
  // as VTK's: said once, since it is rarely what was meant
  const bool noOpacity = !mode2D && property->GetScalarOpacity(0)->GetSize() == 0;
  const bool noColour = !mode2D &&
    (property->GetColorChannels(0) == 3 ? property->GetRGBTransferFunction(0)->GetSize() == 0
                                        : property->GetGrayTransferFunction(0)->GetSize() == 0);
  if (noOpacity && in.IgnoredReported.insert("empty opacity").second)
  {
    cvrSayWarning("the scalar opacity function has no points: the volume is transparent");
  }
  if (noColour && in.IgnoredReported.insert("empty colour").second)
  {
    cvrSayWarning("the colour transfer function has no points: the volume is black");
  }
  TransferFunctionTables tables;
  cvr_transfer_function_desc desc = {};
  this->SampleFunctions(property, range, mode2D, useLabels, tables, desc);
  if (components > 1 && !this->SampleComponents(property, components, tables, desc))
  {
    return false;
  }
  cvr_status st = CVR_OK;
  if (in.TransferFunction)
  {
    st = cvr_transfer_function_update(in.TransferFunction.get(), &desc);
  }
  else
  {
    cvr_transfer_function* tf = nullptr;
    st = cvr_transfer_function_create(in.Context.get(), &desc, &tf);
    in.TransferFunction.reset(tf);
  }
  if (st != CVR_OK)
  {
    cvrSayError("invalid transfer function: " << cvr_last_error(in.Context.get()));
    return false;
  }
  ++in.TransferFunctionUploads;
  in.TransferFunctionTime = tfTime;
  in.TransferFunctionRange[0] = range[0];
  in.TransferFunctionRange[1] = range[1];
  in.GradientOpacityRangeType = this->GradientOpacityRangeType;
  in.TransferFunctionLabels = useLabels;
  in.TransferFunctionYAxis = in.YAxis;
  return true;
}

bool vtkCudaVolumeMapper::UpdateMask(const std::vector<vtkImageData*>& images)
{
  vtkInternals& in = *this->Internals;
  vtkImageData* mask = this->MaskInput;
  cvr_volume* volume = in.Blocks.empty() ? nullptr : in.Blocks[0].Volume.get();
  if (!mask || images.size() != 1 || !volume)
  {
    if (mask && images.size() > 1 && in.IgnoredReported.insert("mask of blocks").second)
    {
      cvrSayWarning("a mask with partitioned input is not supported (as VTK's mapper, masks "
                      "apply to one image): rendered without");
    }
    if (in.MaskOnUpload && in.MaskOnUpload == in.VolumeUploads)
    {
      cvr_volume_set_mask(volume, nullptr);
    }
    in.MaskOnUpload = 0;
    in.MaskSource = nullptr;
    return false;
  }
  vtkMTimeType time = mask->GetMTime();
  if (vtkDataArray* values = mask->GetPointData()->GetScalars())
  {
    time = std::max(time, values->GetMTime());
  }
  if (in.MaskOnUpload == in.VolumeUploads && in.MaskSource == mask && in.MaskTime >= time &&
    in.MaskType == this->MaskType)
  {
    return true;
  }
  in.MaskOnUpload = 0;
  std::vector<unsigned char> labels;
  std::string error;
  if (!vtkCudaVolumeConversion::DescribeMask(
        mask, images[0], this->MaskType != LabelMapMaskType, labels, error))
  {
    cvrSayError("cannot use the mask: " << error << "; rendered without");
    cvr_volume_set_mask(volume, nullptr);
    return false;
  }
  if (cvr_volume_set_mask(volume, labels.data()) != CVR_OK)
  {
    cvrSayError("cannot use the mask: " << cvr_last_error(in.Context.get())
                                          << "; rendered without");
    return false;
  }
  in.MaskOnUpload = in.VolumeUploads;
  ++in.MaskUploads;
  in.MaskSource = mask;
  in.MaskTime = time;
  in.MaskType = this->MaskType;
  return true;
}

bool vtkCudaVolumeMapper::PrepareTuning(const cvr_view& view, const cvr_render_settings& settings,
  const cvr_image& image)
{
  vtkInternals& in = *this->Internals;
  cvr_context* ctx = in.Context.get();
  const bool useDefault = this->TuningCacheDirectory == nullptr;
  const std::string dir = useDefault ? std::string() : this->TuningCacheDirectory;
  if (useDefault != in.CacheDirectoryDefault || dir != in.CacheDirectory)
  {
    if (cvr_tuning_set_cache_dir(ctx, useDefault ? nullptr : dir.c_str()) != CVR_OK)
    {
      cvrSayError("tuning cache directory: " << cvr_last_error(ctx));
      return false;
    }
    in.CacheDirectoryDefault = useDefault;
    in.CacheDirectory = dir;
  }
  if (in.ResetRequested)
  {
    cvr_tuning_reset(ctx);
    in.ResetRequested = false;
  }
  if (in.TuneNowRequested && settings.strategy == CVR_STRATEGY_AUTO && !in.Blocks.empty())
  {
    in.TuneNowRequested = false;
    cvr_tuning_info info;
    this->InvokeEvent(vtkCommand::StartEvent);
    this->UpdateProgress(0.0);
    const cvr_status st = cvr_tune_now(ctx, in.Blocks[0].Volume.get(), in.TransferFunction.get(),
      &view, &settings, &image, TuningProgress, this, &info);
    this->SetAbortExecute(0);
    this->UpdateProgress(1.0);
    this->InvokeEvent(vtkCommand::EndEvent);
    if (st != CVR_OK)
    {
      cvrSayError("tune now failed: " << cvr_last_error(ctx));
      return false;
    }
  }
  return true;
}

void vtkCudaVolumeMapper::DescribeTuning(const cvr_view& view, const cvr_render_settings& settings)
{
  vtkInternals& in = *this->Internals;
  in.AutoConfiguration.clear();
  in.AutoTuning = 0;
  if (settings.strategy != CVR_STRATEGY_AUTO || in.Blocks.empty())
  {
    return;
  }
  cvr_tuning_info info;
  if (cvr_tuning_info_for(in.Context.get(), in.Blocks[0].Volume.get(), &view, &settings, &info) !=
    CVR_OK)
  {
    cvrSayError("auto-tuning: " << cvr_last_error(in.Context.get()));
    return;
  }
  char line[400];
  if (info.tuning)
  {
    std::snprintf(line, sizeof line, "%s (tuning: %d of %d candidates measured; %s)",
      info.configuration, info.measured, info.candidates, info.view_class_name);
  }
  else
  {
    std::snprintf(line, sizeof line, "%s (tuned; %s)", info.configuration, info.view_class_name);
  }
  in.AutoConfiguration = line;
  in.AutoTuning = info.tuning;
  in.Configuration += info.tuning ? ", auto (tuning)" : ", auto";
  if (info.warning[0] && in.TuningWarning != info.warning)
  {
    in.TuningWarning = info.warning;
    cvrSayWarning(<< info.warning);
  }
}

// The 2D transfer function's y axis array to upload beside the scalars, or
// null: VTK's mapper takes it in TF_2D mode, with a 2D function.
static const char* Transfer2DYAxis(vtkGPUVolumeRayCastMapper* mapper, vtkVolume* vol)
{
  vtkVolumeProperty* property = vol->GetProperty();
  const char* name = mapper->GetTransfer2DYAxisArray();
  return property->GetTransferFunctionMode() == vtkVolumeProperty::TF_2D &&
      property->GetTransferFunction2D() && name && name[0]
    ? name
    : nullptr;
}

bool vtkCudaVolumeMapper::AdjustsSampleDistances(vtkRenderer* ren) const
{
  if (!this->InteractiveAdjustSampleDistances)
  {
    return this->AutoAdjustSampleDistances != 0;
  }
  vtkRenderWindow* window = ren ? ren->GetRenderWindow() : nullptr;
  return window && window->GetDesiredUpdateRate() >= this->InteractiveUpdateRate;
}

//------------------------------------------------------------------------------
bool vtkCudaVolumeMapper::DescribeSettings(vtkRenderer* ren, vtkVolume* vol,
  const std::vector<vtkImageData*>& images, const int* wholeExtent, int blend, bool masked,
  cvr_render_settings& settings)
{
  vtkInternals& in = *this->Internals;
  vtkVolumeProperty* property = vol->GetProperty();
  cvr_render_settings_init(&settings);
  settings.sample_distance = this->SharedSampleDistance(ren, vol, images, wholeExtent);
  settings.early_termination = this->EarlyRayTermination != 0;
  settings.jittering = this->UseJittering != 0;
  settings.termination_opacity = this->TerminationOpacity;
  settings.empty_space_skipping = this->EmptySpaceSkipping != 0;
  settings.empty_space_cell = this->EmptySpaceCellSize;
  settings.interpolation = property->GetInterpolationType() == VTK_NEAREST_INTERPOLATION
    ? CVR_INTERPOLATION_NEAREST
    : CVR_INTERPOLATION_LINEAR;
  settings.blend_mode = static_cast<cvr_blend_mode>(blend);
  // (a volume with no mask ignores these)
  settings.mask_type = masked && this->MaskType == LabelMapMaskType ? CVR_MASK_LABEL_MAP : CVR_MASK_BINARY;
  settings.mask_blend = std::min(std::max(static_cast<double>(this->MaskBlendFactor), 0.0), 1.0);
  settings.average_range[0] = this->AverageIPScalarRange[0];
  settings.average_range[1] = this->AverageIPScalarRange[1];
  this->DescribeStrategy(settings);
  std::string settingsError;
  if (!vtkCudaVolumeConversion::DescribeClippingPlanes(
        this->ClippingPlanes, settings, settingsError) ||
    !vtkCudaVolumeConversion::DescribeSurfaces(property, settings, settingsError))
  {
    cvrSayError(<< settingsError);
    return false;
  }
  if (blend == CVR_BLEND_ISOSURFACE && settings.iso_value_count == 0)
  {
    // VTK's OpenGL mapper draws nothing then, and says nothing
    if (in.IgnoredReported.insert("no iso values").second)
    {
      cvrSayWarning("isosurface blending without iso values (vtkVolumeProperty::"
                      "GetIsoSurfaceValues): nothing to render");
    }
    return false;
  }
  int droppedLights = 0;
  vtkCudaVolumeConversion::DescribeShading(ren, property, settings.shading, droppedLights);
  // volumetric scattering: vtkGPUVolumeRayCastMapper's two settings (set on
  // this mapper, or forwarded by vtkSmartVolumeMapper) and the property's
  // anisotropy; the library applies them where VTK does (shaded, lit)
  settings.shading.scattering_blend = this->VolumetricScatteringBlending;
  settings.shading.scattering_reach = this->GlobalIlluminationReach;
  settings.shading.scattering_anisotropy = property->GetScatteringAnisotropy();
  if (droppedLights && !in.LightsReported)
  {
    cvrSayWarning("shading uses the first " << CVR_MAX_LIGHTS << " lights; " << droppedLights
                                              << " more are ignored");
    in.LightsReported = true;
  }
  return true;
}

// One sample distance for all blocks, so that they share the ray's lattice.
double vtkCudaVolumeMapper::SharedSampleDistance(vtkRenderer* ren, vtkVolume* vol,
  const std::vector<vtkImageData*>& images, const int* wholeExtent)
{
  double distance = 0.0;
  for (vtkImageData* image : images)
  {
    double spacing[3];
    int extent[6];
    image->GetSpacing(spacing);
    image->GetExtent(extent);
    if (wholeExtent) // (a piece: the whole's distance, the same on every rank)
    {
      std::copy(wholeExtent, wholeExtent + 6, extent);
    }
    const double d = vtkCudaVolumeConversion::SampleDistance(this->AdjustsSampleDistances(ren),
      this->LockSampleDistanceToInputSpacing != 0, this->SampleDistance,
      this->SpacingAdjustedSampleDistance(spacing, extent), image, vol) /
      this->Internals->ReductionFactor;
    distance = distance > 0.0 ? std::min(distance, d) : d;
  }
  return distance;
}

// The strategy, its thread layouts, the memory layout and rotation, AUTO's
// tuning and the CPU backend's tiles, as set on this mapper.
void vtkCudaVolumeMapper::DescribeStrategy(cvr_render_settings& settings)
{
  settings.strategy = static_cast<cvr_strategy>(this->Strategy);
  settings.block_width = this->BlockSize[0];
  settings.block_height = this->BlockSize[1];
  settings.ray_segments = this->RaySegments;
  for (int i = 0; i < 2; ++i)
  {
    settings.horizontal_block[i] = this->HorizontalBlockSize[i];
    settings.vertical_block[i] = this->VerticalBlockSize[i];
    settings.warp_rays[i] = this->WarpRays[i];
    settings.block_warps[i] = this->BlockWarps[i];
  }
  settings.warp_variant = static_cast<cvr_warp_variant>(this->WarpVariant);
  settings.warp_width = this->WarpWidth;
  settings.slab_block[0] = this->SlabBlock[0];
  settings.slab_block[1] = this->SlabBlock[1];
  settings.slab_depth = this->SlabDepth;
  settings.slab_border = static_cast<cvr_slab_border>(this->SlabBorder);
  settings.memory_layout = static_cast<cvr_memory_layout>(this->MemoryLayout);
  settings.rotation_policy = static_cast<cvr_rotation_policy>(this->RotationPolicy);
  settings.rotation_hysteresis = this->RotationHysteresis;
  settings.rotation_tile[0] = this->RotationTile[0];
  settings.rotation_tile[1] = this->RotationTile[1];
  settings.cpu_tile_width = this->CpuTileSize[0];
  settings.cpu_tile_height = this->CpuTileSize[1];
  settings.tuning_repeats = this->TuningRepeats;
  settings.tuning_prune = this->TuningPrune;
  settings.tuning_budget = this->TuningBudget;
  settings.cpu_schedule =
    this->CpuSchedule == CPU_SCHEDULE_STATIC ? CVR_CPU_SCHEDULE_STATIC : CVR_CPU_SCHEDULE_DYNAMIC;
}

// "cuda standard 16x16" and what else names the last frame's configuration
void vtkCudaVolumeMapper::DescribeConfiguration(const cvr_render_settings& settings, size_t blocks)
{
  vtkInternals& in = *this->Internals;
  char configuration[160];
  std::snprintf(configuration, sizeof configuration, "%s %s %dx%d",
    cvr_backend_name(in.Stats.backend), cvr_strategy_name(in.Stats.strategy),
    in.Stats.block_width, in.Stats.block_height);
  if (in.Stats.ray_segments > 1)
  {
    const size_t used = std::strlen(configuration);
    std::snprintf(configuration + used, sizeof configuration - used, ", %d threads a ray",
      in.Stats.ray_segments);
  }
  in.Configuration = configuration;
  if (in.Stats.strategy == CVR_STRATEGY_WARP_MARCHING)
  {
    std::snprintf(configuration, sizeof configuration, " %s, warp %dx%dx%d",
      cvr_warp_variant_name(in.Stats.warp_variant), in.Stats.warp_rays[0], in.Stats.warp_rays[1],
      in.Stats.warp_width);
    in.Configuration += configuration;
  }
  if (in.Stats.strategy == CVR_STRATEGY_SLAB)
  {
    std::snprintf(configuration, sizeof configuration, ", slab depth %d, %s border",
      in.Stats.slab_depth, cvr_slab_border_name(in.Stats.slab_border));
    in.Configuration += configuration;
  }
  if (in.Stats.backend == CVR_BACKEND_CUDA && in.Stats.memory_layout != CVR_LAYOUT_TEXTURE)
  {
    in.Configuration += std::string(", ") + cvr_memory_layout_name(in.Stats.memory_layout);
  }
  if (in.Stats.backend == CVR_BACKEND_CUDA && settings.rotation_policy != CVR_ROTATION_NEVER)
  {
    std::snprintf(configuration, sizeof configuration, ", rotation %s, axes %+d%+d%+d",
      cvr_rotation_policy_name(settings.rotation_policy), in.Stats.volume_axes[0],
      in.Stats.volume_axes[1], in.Stats.volume_axes[2]);
    in.Configuration += configuration;
  }
  if (blocks > 1)
  {
    in.Configuration += ", " + std::to_string(blocks) + " blocks";
  }
}

//------------------------------------------------------------------------------
bool vtkCudaVolumeMapper::UpdateInputs(
  vtkVolume* vol, const std::vector<vtkImageData*>& images, bool& masked)
{
  double range[2];
  if (!this->UpdateContext() || !this->UpdateVolumes(images, Transfer2DYAxis(this, vol), range) ||
    !this->UpdateTransferFunction(vol->GetProperty(), range))
  {
    return false;
  }
  masked = this->UpdateMask(images);
  return true;
}

//------------------------------------------------------------------------------
vtkTypeUInt64 vtkCudaVolumeMapper::UploadsSent() const
{
  const vtkInternals& in = *this->Internals;
  return in.VolumeUploads + in.VolumeUpdates + in.TransferFunctionUploads + in.MaskUploads;
}

//------------------------------------------------------------------------------
void vtkCudaVolumeMapper::CountUploads(vtkTypeUInt64 sentBefore, double uploadMs)
{
  vtkInternals& in = *this->Internals;
  if (this->UploadsSent() == sentBefore) // (a frame that sent nothing has no upload time)
  {
    in.UploadMs = 0.0;
    in.FramesSinceUpload += in.FramesSinceUpload >= 0;
  }
  else
  {
    in.LatestUploadMs = uploadMs;
    in.FramesSinceUpload = 0;
  }
}

//------------------------------------------------------------------------------
const int* vtkCudaVolumeMapper::WholeExtentOf(const std::vector<vtkImageData*>& images, int whole[6])
{
  // an image that is a piece of a larger one (ParaView under MPI: other
  // ranks hold the rest) samples on the whole one's lattice
  vtkInformation* inputInfo = this->GetInputInformation(0, 0);
  if (images.size() == 1 && inputInfo && images[0] == this->GetInputDataObject(0, 0) &&
    inputInfo->Has(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT()))
  {
    inputInfo->Get(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), whole);
    if (whole[0] <= whole[1] && whole[2] <= whole[3] && whole[4] <= whole[5])
    {
      return whole;
    }
  }
  return nullptr;
}

//------------------------------------------------------------------------------
bool vtkCudaVolumeMapper::RenderBlocks(vtkRenderer* ren, vtkVolume* vol,
  const std::vector<vtkImageData*>& images, const int* wholeExtent, cvr_view& view,
  cvr_render_settings& settings, const cvr_image& out, size_t pixels)
{
  vtkInternals& in = *this->Internals;
  const bool single = images.size() == 1, toImage = this->RenderToImage != 0;
  bool first = true;
  for (size_t b : vtkCudaVolumeBlocks::FrontToBackOrder(ren, vol, images))
  {
    cvr_render_stats stats;
    if (this->Cropping)
    {
      vtkCudaVolumeConversion::DescribeCropping(in.Blocks[b].Image, in.Blocks[b].CellFlag,
        this->CroppingRegionPlanes, this->CroppingRegionFlags, settings);
    }
    vtkCudaVolumeConversion::DescribeLatticeBox(
      in.Blocks[b].Image, in.Blocks[b].CellFlag, images, wholeExtent, view);
    if (cvr_render(in.Context.get(), in.Blocks[b].Volume.get(), in.TransferFunction.get(), &view,
          &settings, &out, &stats) != CVR_OK)
    {
      if (!cvr_context_lost(in.Context.get())) // FallBackAfterDeviceLoss says it
      {
        cvrSayError("rendering failed: " << cvr_last_error(in.Context.get()));
      }
      return false;
    }
    if (first)
    {
      in.Stats = stats;
      first = false;
    }
    else
    {
      AddStats(in.Stats, stats);
    }
    if (!single)
    {
      vtkCudaVolumeBlocks::CompositeUnder(
        in.BlockColor.data(), toImage ? in.BlockDepth.data() : nullptr, pixels, in.Color.data(),
        in.Depth.data());
    }
  }
  if (!single && toImage)
  {
    vtkCudaVolumeBlocks::ToBytes(in.Color.data(), pixels, in.Color8.data());
  }
  return true;
}

//------------------------------------------------------------------------------
void vtkCudaVolumeMapper::RenderImages(
  vtkRenderer* ren, vtkVolume* vol, const std::vector<vtkImageData*>& images)
{
  vtkInternals& in = *this->Internals;
  in.UploadMs = in.DepthReadMs = in.RenderCallMs = in.CompositeMs = 0.0;
  double stageStart = vtkTimerLog::GetUniversalTime();
  auto stageMs = [&stageStart]() {
    const double now = vtkTimerLog::GetUniversalTime();
    const double ms = 1e3 * (now - stageStart);
    stageStart = now;
    return ms;
  };
  const vtkTypeUInt64 sentBefore = this->UploadsSent();
  bool masked = false;
  if (!this->UpdateInputs(vol, images, masked))
  {
    return;
  }
  in.UploadMs = stageMs();
  this->CountUploads(sentBefore, in.UploadMs);
  vtkVolumeProperty* property = vol->GetProperty();
  cvr_blend_mode blend = CVR_BLEND_COMPOSITE;
  if (!BlendModeOf(this->BlendMode, blend))
  {
    cvrSayError("blend mode " << this->GetBlendModeName() << " is not supported yet");
    return;
  }

  // ---- view and settings
  in.ReductionFactor = this->AdjustsSampleDistances(ren)
    ? vtkCudaVolumeConversion::ReductionFactor(in.ReductionFactor, this->TimeToDraw,
        vol->GetAllocatedRenderTime(), this->SmallTimeToDraw, this->BigTimeToDraw,
        this->MinimumImageSampleDistance, this->MaximumImageSampleDistance)
    : 1.0;
  FrameTarget target;
  ren->GetTiledSizeAndOrigin(&target.Width, &target.Height, &target.X0, &target.Y0);
  if (target.Width < 1 || target.Height < 1)
  {
    return;
  }
  // ImageSampleDistance: a ray every that many pixels (VTK's range, 0.1 to
  // 100), the image stretched over the viewport
  target.ImageWidth = std::max(1, static_cast<int>(target.Width / this->ImageSampleDistance));
  target.ImageHeight = std::max(1, static_cast<int>(target.Height / this->ImageSampleDistance));
  target.FullSize = target.ImageWidth == target.Width && target.ImageHeight == target.Height;
  target.ToImage = this->RenderToImage != 0;
  target.Single = images.size() == 1;
  // one block of the viewport's size drawn into the framebuffer: its pixels
  // can stay on the GPU
  target.Interop = target.Single && !target.ToImage && target.FullSize &&
    this->UseInterop(target.Width, target.Height);
  cvr_view view;
  vtkCudaVolumeConversion::DescribeView(ren, vol, target.ImageWidth, target.ImageHeight, view);
  int whole[6];
  const int* wholeExtent = this->WholeExtentOf(images, whole);
  stageMs();
  this->ReadOpaqueDepth(ren, target, view);
  in.DepthReadMs = stageMs();

  cvr_render_settings settings;
  if (!this->DescribeSettings(ren, vol, images, wholeExtent, blend, masked, settings))
  {
    return;
  }

  // ---- render the blocks front to back, then composite or keep the image
  const size_t pixels = static_cast<size_t>(target.ImageWidth) * target.ImageHeight;
  const cvr_image out = this->FrameOutputs(target);
  if (!this->PrepareTuning(view, settings, out))
  {
    return;
  }
  stageMs();
  if (!this->RenderBlocks(ren, vol, images, wholeExtent, view, settings, out, pixels))
  {
    return;
  }
  in.RenderCallMs = stageMs();
  ++framesRendered;
  this->ReportStrategySwitch(settings, in.Stats);
  in.ImageSize[0] = target.ImageWidth;
  in.ImageSize[1] = target.ImageHeight;
  this->DescribeConfiguration(settings, images.size());
  this->DescribeTuning(view, settings);
  // the extremes as depth, for a depth compositor (ProjectionDepth)
  const bool extremeDepth = this->ProjectionDepth && target.Single && !target.ToImage &&
    in.Components == 1 && (blend == CVR_BLEND_MAXIMUM || blend == CVR_BLEND_MINIMUM);
  if (extremeDepth && !this->RenderExtremeDepth(property, view, settings, blend, pixels))
  {
    return;
  }
  if (!target.ToImage)
  {
    stageMs();
    this->CompositeFrame(ren, target, extremeDepth);
    in.CompositeMs = stageMs();
  }
}

void vtkCudaVolumeMapper::ReadOpaqueDepth(
  vtkRenderer* ren, const FrameTarget& target, cvr_view& view)
{
  vtkInternals& in = *this->Internals;
  const int x0 = target.X0, y0 = target.Y0, width = target.Width, height = target.Height;
  if (target.Interop)
  {
    in.Compositor.ReadDepth(ren, x0, y0, width, height, in.Interop.DepthBuffer());
    view.gl_opaque_depth = in.Interop.RegisteredDepth();
  }
  else if (target.FullSize)
  {
    in.Compositor.ReadDepth(ren, x0, y0, width, height, in.OpaqueDepth);
    view.opaque_depth = in.OpaqueDepth.data();
  }
  else
  {
    in.Compositor.ReadDepth(ren, x0, y0, width, height, in.ViewportDepth);
    vtkCudaVolumeConversion::ResampleDepth(in.ViewportDepth, width, height, target.ImageWidth,
      target.ImageHeight, in.OpaqueDepth);
    view.opaque_depth = in.OpaqueDepth.data();
  }
}

cvr_image vtkCudaVolumeMapper::FrameOutputs(const FrameTarget& target)
{
  vtkInternals& in = *this->Internals;
  const size_t pixels = static_cast<size_t>(target.ImageWidth) * target.ImageHeight;
  in.Color.resize(target.Interop ? 0 : 4 * pixels);
  in.Depth.resize(pixels);
  in.Color8.resize(target.ToImage ? 4 * pixels : 0);
  if (!target.Single) // the blocks' images, composited into Color and Depth
  {
    in.BlockColor.resize(4 * pixels);
    in.BlockDepth.resize(pixels);
    std::fill(in.Color.begin(), in.Color.end(), 0.0f);
    std::fill(in.Depth.begin(), in.Depth.end(), 1.0f);
  }
  if (target.Interop)
  {
    return cvr_image{ nullptr, nullptr, nullptr, in.Interop.RegisteredColor() };
  }
  if (target.Single)
  {
    return cvr_image{ target.ToImage ? in.Color8.data() : nullptr, in.Color.data(),
      target.ToImage ? in.Depth.data() : nullptr, nullptr };
  }
  return cvr_image{ nullptr, in.BlockColor.data(),
    target.ToImage ? in.BlockDepth.data() : nullptr, nullptr };
}

void vtkCudaVolumeMapper::CompositeFrame(
  vtkRenderer* ren, const FrameTarget& target, bool extremeDepth)
{
  vtkInternals& in = *this->Internals;
  const int x0 = target.X0, y0 = target.Y0, width = target.Width, height = target.Height;
  if (extremeDepth)
  {
    in.Compositor.CompositeWithDepth(ren, x0, y0, width, height, target.ImageWidth,
      target.ImageHeight, target.Interop ? nullptr : in.Color.data(),
      target.Interop ? in.Interop.ColorBuffer() : 0, in.ExtremeDepth.data());
  }
  else if (target.Interop)
  {
    in.Compositor.Composite(ren, x0, y0, width, height, in.Interop.ColorBuffer());
  }
  else
  {
    in.Compositor.Composite(
      ren, x0, y0, width, height, target.ImageWidth, target.ImageHeight, in.Color.data());
  }
}

bool vtkCudaVolumeMapper::RenderExtremeDepth(vtkVolumeProperty* property, const cvr_view& view,
  const cvr_render_settings& settings, int blend, size_t pixels)
{
  vtkInternals& in = *this->Internals;
  // the value as grey, opaque: a projection's colour is then its extreme,
  // mapped linearly to [0, 1] over the colour and opacity functions' range,
  // the same on every rank (not this rank's data range, which the tables
  // span); values beyond clamp, as those functions do
  double range[2] = { in.TransferFunctionRange[0], in.TransferFunctionRange[1] };
  double colour[2], opacity[2];
  if (property->GetColorChannels(0) == 1)
  {
    property->GetGrayTransferFunction(0)->GetRange(colour);
  }
  else
  {
    property->GetRGBTransferFunction(0)->GetRange(colour);
  }
  property->GetScalarOpacity(0)->GetRange(opacity);
  if (std::max(colour[1], opacity[1]) > std::min(colour[0], opacity[0]))
  {
    range[0] = std::min(colour[0], opacity[0]);
    range[1] = std::max(colour[1], opacity[1]);
  }
  if (!in.RampTransferFunction || in.RampRange[0] != range[0] || in.RampRange[1] != range[1])
  {
    constexpr int size = 1024;
    std::vector<float> rgba(4 * size);
    for (int i = 0; i < size; ++i)
    {
      const float v = static_cast<float>(i) / (size - 1);
      rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = v;
      rgba[4 * i + 3] = 1.0f;
    }
    cvr_transfer_function_desc desc = {};
    desc.rgba = rgba.data();
    desc.size = size;
    desc.range[0] = range[0];
    desc.range[1] = range[1];
    desc.unit_distance = 1.0;
    cvr_transfer_function* tf = nullptr;
    const cvr_status st = in.RampTransferFunction
      ? cvr_transfer_function_update(in.RampTransferFunction.get(), &desc)
      : cvr_transfer_function_create(in.Context.get(), &desc, &tf);
    if (tf)
    {
      in.RampTransferFunction.reset(tf);
    }
    if (st != CVR_OK)
    {
      cvrSayError("projection depth: " << cvr_last_error(in.Context.get()));
      return false;
    }
    in.RampRange[0] = range[0];
    in.RampRange[1] = range[1];
  }
  in.RampColor.resize(4 * pixels);
  in.ExtremeDepth.resize(pixels);
  cvr_render_settings s = settings;
  if (s.strategy == CVR_STRATEGY_AUTO)
  {
    s.strategy = CVR_STRATEGY_STANDARD; // (AUTO's tables time the frames it renders)
  }
  const cvr_image out = { nullptr, in.RampColor.data(), nullptr, nullptr };
  if (cvr_render(in.Context.get(), in.Blocks[0].Volume.get(), in.RampTransferFunction.get(), &view,
        &s, &out, nullptr) != CVR_OK)
  {
    cvrSayError("projection depth: " << cvr_last_error(in.Context.get()));
    return false;
  }
  // the greater value (MIP; the smaller, MinIP) the nearer; 1, no depth,
  // where no ray met the volume
  const bool maximum = blend == CVR_BLEND_MAXIMUM;
  for (size_t p = 0; p < pixels; ++p)
  {
    const float a = in.RampColor[4 * p + 3];
    const float v = a > 0.0f ? std::min(1.0f, std::max(0.0f, in.RampColor[4 * p] / a)) : 0.0f;
    in.ExtremeDepth[p] = a > 0.0f ? (maximum ? 1.0f - v : v) * (1.0f - 1e-6f) : 1.0f;
  }
  return true;
}

bool vtkCudaVolumeMapper::UseInterop(int width, int height)
{
  vtkInternals& in = *this->Internals;
  if (cvr_context_backend(in.Context.get()) != CVR_BACKEND_CUDA)
  {
    in.ImageTransfer = "host memory (CPU backend)";
    return false;
  }
  if (!this->GraphicsInterop)
  {
    in.ImageTransfer = "host memory (GraphicsInterop off)";
    return false;
  }
  if (in.InteropUnavailable) // tried with this context; ImageTransfer says why
  {
    return false;
  }
  std::string why;
  if (!in.Interop.Prepare(in.Context.get(), width, height, why))
  {
    in.InteropUnavailable = true;
    in.ImageTransfer = "host memory (" + why + ")";
    return false;
  }
  in.ImageTransfer = "OpenGL interop";
  return true;
}

const char* vtkCudaVolumeMapper::GetLastImageTransfer()
{
  return this->Internals->ImageTransfer.c_str();
}

void vtkCudaVolumeMapper::ReleaseGraphicsResources(vtkWindow* window)
{
  this->Internals->Interop.Release(window != nullptr);
  this->Internals->InteropUnavailable = false;
  this->Internals->Compositor.ReleaseGraphicsResources(window);
  this->Internals->TransferFunction.reset();
  this->Internals->Blocks.clear();
  this->Internals->Context.reset();
  this->Internals->ContextBackend = -1;
}

void vtkCudaVolumeMapper::GetColorImage(vtkImageData* output)
{
  const vtkInternals& in = *this->Internals;
  output->SetDimensions(in.ImageSize[0], in.ImageSize[1], 1);
  output->AllocateScalars(VTK_UNSIGNED_CHAR, 4);
  if (!in.Color8.empty())
  {
    std::copy(in.Color8.begin(), in.Color8.end(),
      static_cast<unsigned char*>(output->GetScalarPointer()));
  }
}

void vtkCudaVolumeMapper::GetDepthImage(vtkImageData* output)
{
  const vtkInternals& in = *this->Internals;
  output->SetDimensions(in.ImageSize[0], in.ImageSize[1], 1);
  const int type = this->DepthImageScalarType;
  output->AllocateScalars(type, 1);
  vtkDataArray* dst = output->GetPointData()->GetScalars();
  // float keeps window depth as it is; integer types scale [0, 1] to their range
  const double scale = type == VTK_UNSIGNED_CHAR ? 255.0 : type == VTK_UNSIGNED_SHORT ? 65535.0 : 1.0;
  const bool fill = in.Depth.size() == static_cast<size_t>(in.ImageSize[0]) * in.ImageSize[1];
  for (vtkIdType i = 0; i < dst->GetNumberOfTuples(); ++i)
  {
    dst->SetComponent(i, 0, (fill ? in.Depth[static_cast<size_t>(i)] : 1.0) * scale);
  }
}

void vtkCudaVolumeMapper::SetImageSampleDistance(float distance)
{
  if (!(distance >= 0.1f && distance <= 100.0f))
  {
    vtkErrorMacro("ImageSampleDistance " << distance << " is outside 0.1 to 100 pixels between "
                                         << "rays: kept at " << this->ImageSampleDistance);
    return;
  }
  this->Superclass::SetImageSampleDistance(distance);
}

void vtkCudaVolumeMapper::GetReductionRatio(double ratio[3])
{
  ratio[0] = ratio[1] = ratio[2] = 1.0;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetVolumeUploadCount()
{
  return this->Internals->VolumeUploads;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetVolumeUpdateCount()
{
  return this->Internals->VolumeUpdates;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetTransferFunctionUploadCount()
{
  return this->Internals->TransferFunctionUploads;
}

double vtkCudaVolumeMapper::GetLastRenderTimeMs()
{
  return this->Internals->Stats.kernel_ms;
}

double vtkCudaVolumeMapper::GetLastUploadTimeMs()
{
  return this->Internals->UploadMs;
}

double vtkCudaVolumeMapper::GetLatestUploadTimeMs()
{
  return this->Internals->LatestUploadMs;
}

int vtkCudaVolumeMapper::GetFramesSinceLatestUpload()
{
  return this->Internals->FramesSinceUpload;
}

double vtkCudaVolumeMapper::GetLastDepthReadTimeMs()
{
  return this->Internals->DepthReadMs;
}

double vtkCudaVolumeMapper::GetLastRenderCallTimeMs()
{
  return this->Internals->RenderCallMs;
}

double vtkCudaVolumeMapper::GetLastTransferTimeMs()
{
  return this->Internals->Stats.transfer_ms;
}

double vtkCudaVolumeMapper::GetLastCompositeTimeMs()
{
  return this->Internals->CompositeMs;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetLastRayCount()
{
  return this->Internals->Stats.rays;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetLastSampleCount()
{
  return this->Internals->Stats.samples;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetLastSamplesSkippedEmpty()
{
  return this->Internals->Stats.samples_skipped_empty;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetLastSamplesSkippedTerminated()
{
  return this->Internals->Stats.samples_skipped_terminated;
}

int vtkCudaVolumeMapper::GetLastBrickCount()
{
  return this->Internals->Stats.brick_count;
}

int vtkCudaVolumeMapper::GetLastBricksDrawn()
{
  return this->Internals->Stats.bricks_drawn;
}

int vtkCudaVolumeMapper::GetLastBricksLoaded()
{
  return this->Internals->Stats.bricks_loaded;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetLastBrickBytesLoaded()
{
  return this->Internals->Stats.brick_bytes_loaded;
}

double vtkCudaVolumeMapper::GetLastBrickLoadTimeMs()
{
  return this->Internals->Stats.brick_load_ms;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetHostCopyBytes()
{
  vtkTypeUInt64 bytes = 0;
  for (const auto& block : this->Internals->Blocks)
  {
    bytes += cvr_volume_host_bytes(block.Volume.get());
  }
  return bytes;
}

const char* vtkCudaVolumeMapper::GetLastConfiguration()
{
  return this->Internals->Configuration.c_str();
}

const char* vtkCudaVolumeMapper::GetBackendDescription()
{
  return this->Internals->Context ? cvr_context_description(this->Internals->Context.get())
                                  : "not initialized (no render yet)";
}

void vtkCudaVolumeMapper::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Backend: " << this->Backend << " (" << this->GetBackendDescription() << ")\n";
  os << indent << "DeviceIndex: " << this->DeviceIndex << "\n";
  os << indent << "Strategy: " << this->Strategy << "\n";
  os << indent << "TuningRepeats: " << this->TuningRepeats << "\n";
  os << indent << "TuningPrune: " << this->TuningPrune << "\n";
  os << indent << "TuningBudget: " << this->TuningBudget << "\n";
  os << indent << "TuningCacheDirectory: "
     << (this->TuningCacheDirectory ? this->TuningCacheDirectory : "(default)") << "\n";
  os << indent << "AutoConfiguration: " << this->GetAutoConfiguration() << "\n";
  os << indent << "BlockSize: " << this->BlockSize[0] << " x " << this->BlockSize[1] << "\n";
  os << indent << "RaySegments: " << this->RaySegments << "\n";
  os << indent << "HorizontalBlockSize: " << this->HorizontalBlockSize[0] << " x "
     << this->HorizontalBlockSize[1] << "\n";
  os << indent << "VerticalBlockSize: " << this->VerticalBlockSize[0] << " x "
     << this->VerticalBlockSize[1] << "\n";
  os << indent << "WarpVariant: " << this->WarpVariant << "\n";
  os << indent << "WarpWidth: " << this->WarpWidth << "\n";
  os << indent << "MemoryLayout: " << this->MemoryLayout << "\n";
  os << indent << "RotationPolicy: " << this->RotationPolicy << "\n";
  os << indent << "RotationHysteresis: " << this->RotationHysteresis << "\n";
  os << indent << "RotationTile: " << this->RotationTile[0] << " x " << this->RotationTile[1] << "\n";
  os << indent << "WarpRays: " << this->WarpRays[0] << " x " << this->WarpRays[1] << "\n";
  os << indent << "BlockWarps: " << this->BlockWarps[0] << " x " << this->BlockWarps[1] << "\n";
  os << indent << "SlabBlock: " << this->SlabBlock[0] << " x " << this->SlabBlock[1] << "\n";
  os << indent << "SlabDepth: " << this->SlabDepth << "\n";
  os << indent << "SlabBorder: " << this->SlabBorder << "\n";
  os << indent << "InteractiveAdjustSampleDistances: " << this->InteractiveAdjustSampleDistances
     << " (rate " << this->InteractiveUpdateRate << ")\n";
  os << indent << "EarlyRayTermination: " << this->EarlyRayTermination << "\n";
  os << indent << "TerminationOpacity: " << this->TerminationOpacity << "\n";
  os << indent << "EmptySpaceSkipping: " << this->EmptySpaceSkipping << "\n";
  os << indent << "VectorMode: " << this->VectorMode << "\n";
  os << indent << "VectorComponent: " << this->VectorComponent << "\n";
  os << indent << "EmptySpaceCellSize: " << this->EmptySpaceCellSize << "\n";
  os << indent << "CpuThreads: " << this->CpuThreads << "\n";
  os << indent << "CpuTileSize: " << this->CpuTileSize[0] << " x " << this->CpuTileSize[1]
     << "\n";
  os << indent << "CpuSchedule: " << this->CpuSchedule << "\n";
  os << indent << "BrickSize: " << this->BrickSize << "\n";
  os << indent << "LastConfiguration: " << this->GetLastConfiguration() << "\n";
  os << indent << "LastRenderTimeMs: " << this->GetLastRenderTimeMs() << "\n";
}
