#include "vtkCudaVolumeMapper.h"

#include "vtkCudaVolumeCompositor.h"
#include "vtkCudaVolumeConversion.h"

#include "vtkColorTransferFunction.h"
#include "vtkDataArray.h"
#include "vtkImageData.h"
#include "vtkObjectFactory.h"
#include "vtkPiecewiseFunction.h"
#include "vtkPointData.h"
#include "vtkRenderWindow.h"
#include "vtkRenderer.h"
#include "vtkVolume.h"
#include "vtkVolumeProperty.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
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
}

// The C handles and what they were made from, so that only what changed is
// uploaded again; the last frame's images and statistics.
class vtkCudaVolumeMapper::vtkInternals
{
public:
  std::unique_ptr<cvr_context, ContextDeleter> Context;
  int ContextBackend = -1, ContextDevice = -1, ContextThreads = -1;
  bool FallbackReported = false;
  bool LightsReported = false;

  std::unique_ptr<cvr_volume, VolumeDeleter> Volume;
  vtkDataArray* VolumeScalars = nullptr;
  vtkMTimeType VolumeTime = 0;
  vtkImageData* VolumeImage = nullptr;
  int VolumeCellFlag = -1;

  std::unique_ptr<cvr_transfer_function, TransferFunctionDeleter> TransferFunction;
  vtkMTimeType TransferFunctionTime = 0;
  double TransferFunctionRange[2] = { 0, 0 };

  vtkTypeUInt64 VolumeUploads = 0, TransferFunctionUploads = 0;
  std::vector<float> Color, Depth, OpaqueDepth;
  std::vector<unsigned char> Color8;
  int ImageSize[2] = { 0, 0 };
  cvr_render_stats Stats = {};
  std::string Configuration;
  vtkCudaVolumeCompositor Compositor;

  void DropVolume()
  {
    this->Volume.reset();
    this->VolumeScalars = nullptr;
    this->VolumeImage = nullptr;
    this->VolumeTime = 0;
  }
};

vtkCudaVolumeMapper::vtkCudaVolumeMapper()
  : Internals(new vtkInternals)
{
}

vtkCudaVolumeMapper::~vtkCudaVolumeMapper()
{
  // handles go before the context that owns them
  this->Internals->TransferFunction.reset();
  this->Internals->Volume.reset();
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

int vtkCudaVolumeMapper::GetNumberOfCudaDevices()
{
  return cvr_cuda_device_count();
}

int vtkCudaVolumeMapper::IsRenderSupported(vtkRenderWindow*, vtkVolumeProperty*)
{
  const int devices = cvr_cuda_device_count();
  return this->Backend != BACKEND_CUDA || (devices > 0 && devices > this->DeviceIndex);
}

void vtkCudaVolumeMapper::GPURender(vtkRenderer* ren, vtkVolume* vol)
{
  vtkInternals& in = *this->Internals;

  // ---- context: created on first use, again when backend settings change
  if (!in.Context || in.ContextBackend != this->Backend || in.ContextDevice != this->DeviceIndex ||
    in.ContextThreads != this->CpuThreads)
  {
    in.TransferFunction.reset();
    in.DropVolume();
    in.Context.reset();
    cvr_context_options options;
    cvr_context_options_init(&options);
    options.backend = ToBackend(this->Backend);
    options.device_index =
      this->DeviceIndex < 0 ? LocalRankDevice(cvr_cuda_device_count()) : this->DeviceIndex;
    options.cpu_threads = this->CpuThreads;
    cvr_context* ctx = nullptr;
    in.ContextBackend = this->Backend;
    in.ContextDevice = this->DeviceIndex;
    in.ContextThreads = this->CpuThreads;
    if (cvr_context_create(&options, &ctx) != CVR_OK)
    {
      vtkErrorMacro("cannot render: " << cvr_last_error(nullptr));
      return;
    }
    in.Context.reset(ctx);
    if (this->Backend == BACKEND_AUTO && cvr_context_backend(ctx) == CVR_BACKEND_CPU &&
      !in.FallbackReported)
    {
      vtkWarningMacro("rendering on the CPU: " << cvr_context_description(ctx));
      in.FallbackReported = true;
    }
  }
  cvr_context* ctx = in.Context.get();

  // ---- volume: uploaded when the image, the selected array or its data change
  auto* image = vtkImageData::SafeDownCast(this->GetTransformedInput(0));
  if (!image)
  {
    vtkErrorMacro("the input must be vtkImageData");
    return;
  }
  int cellFlag = 0;
  vtkDataArray* scalars = this->GetScalars(image, this->ScalarMode, this->ArrayAccessMode,
    this->ArrayId, this->ArrayName, cellFlag);
  if (!scalars)
  {
    vtkErrorMacro("no scalars to render");
    return;
  }
  const vtkMTimeType dataTime = std::max(scalars->GetMTime(), image->GetMTime());
  if (!in.Volume || in.VolumeScalars != scalars || in.VolumeImage != image ||
    in.VolumeCellFlag != cellFlag || in.VolumeTime < dataTime)
  {
    in.TransferFunction.reset(); // its range follows the data
    in.DropVolume();
    vtkCudaVolumeConversion::VolumeInput input;
    std::string error;
    if (!vtkCudaVolumeConversion::DescribeVolume(image, scalars, cellFlag, input, error))
    {
      vtkErrorMacro("cannot render " << scalars->GetName() << ": " << error);
      return;
    }
    cvr_volume* volume = nullptr;
    if (cvr_volume_create(ctx, &input.Desc, &volume) != CVR_OK)
    {
      vtkErrorMacro("cannot upload the volume: " << cvr_last_error(ctx));
      return;
    }
    in.Volume.reset(volume);
    ++in.VolumeUploads;
    in.VolumeScalars = scalars;
    in.VolumeImage = image;
    in.VolumeCellFlag = cellFlag;
    in.VolumeTime = dataTime;
  }

  // ---- transfer function: sampled again when the property or range change
  vtkVolumeProperty* property = vol->GetProperty();
  double range[2];
  scalars->GetRange(range, 0);
  if (!(range[1] > range[0]))
  {
    range[1] = range[0] + 1.0;
  }
  vtkMTimeType tfTime = property->GetMTime();
  tfTime = std::max(tfTime, property->GetScalarOpacity(0)->GetMTime());
  tfTime = std::max(tfTime,
    property->GetColorChannels(0) == 3 ? property->GetRGBTransferFunction(0)->GetMTime()
                                       : property->GetGrayTransferFunction(0)->GetMTime());
  if (!in.TransferFunction || in.TransferFunctionTime < tfTime ||
    in.TransferFunctionRange[0] != range[0] || in.TransferFunctionRange[1] != range[1])
  {
    std::vector<float> table;
    vtkCudaVolumeConversion::SampleTransferFunction(
      property, range, CVR_TRANSFER_FUNCTION_TABLE_SIZE, table);
    const cvr_transfer_function_desc desc = { table.data(), CVR_TRANSFER_FUNCTION_TABLE_SIZE,
      { range[0], range[1] }, property->GetScalarOpacityUnitDistance(0) };
    cvr_status st = in.TransferFunction
      ? cvr_transfer_function_update(in.TransferFunction.get(), &desc)
      : CVR_OK;
    if (!in.TransferFunction)
    {
      cvr_transfer_function* tf = nullptr;
      st = cvr_transfer_function_create(ctx, &desc, &tf);
      in.TransferFunction.reset(tf);
    }
    if (st != CVR_OK)
    {
      vtkErrorMacro("invalid transfer function: " << cvr_last_error(ctx));
      return;
    }
    ++in.TransferFunctionUploads;
    in.TransferFunctionTime = tfTime;
    in.TransferFunctionRange[0] = range[0];
    in.TransferFunctionRange[1] = range[1];
  }

  if (this->BlendMode != vtkVolumeMapper::COMPOSITE_BLEND)
  {
    vtkErrorMacro("blend mode " << this->BlendMode << " is not supported yet; use composite");
    return;
  }

  // ---- view and settings
  int width = 0, height = 0, x0 = 0, y0 = 0;
  ren->GetTiledSizeAndOrigin(&width, &height, &x0, &y0);
  if (width < 1 || height < 1)
  {
    return;
  }
  cvr_view view;
  vtkCudaVolumeConversion::DescribeView(ren, vol, width, height, view);
  vtkCudaVolumeCompositor::ReadDepth(ren, x0, y0, width, height, in.OpaqueDepth);
  view.opaque_depth = in.OpaqueDepth.data();

  cvr_render_settings settings;
  cvr_render_settings_init(&settings);
  double spacing[3];
  int extent[6];
  image->GetSpacing(spacing);
  image->GetExtent(extent);
  settings.sample_distance = vtkCudaVolumeConversion::SampleDistance(
    this->AutoAdjustSampleDistances != 0, this->LockSampleDistanceToInputSpacing != 0,
    this->SampleDistance, this->SpacingAdjustedSampleDistance(spacing, extent), image, vol);
  settings.early_termination = this->EarlyRayTermination != 0;
  settings.termination_opacity = this->TerminationOpacity;
  settings.interpolation = property->GetInterpolationType() == VTK_NEAREST_INTERPOLATION
    ? CVR_INTERPOLATION_NEAREST
    : CVR_INTERPOLATION_LINEAR;
  settings.strategy = static_cast<cvr_strategy>(this->Strategy);
  settings.block_width = this->BlockSize[0];
  settings.block_height = this->BlockSize[1];
  settings.cpu_tile_width = this->CpuTileSize[0];
  settings.cpu_tile_height = this->CpuTileSize[1];
  settings.cpu_schedule =
    this->CpuSchedule == CPU_SCHEDULE_STATIC ? CVR_CPU_SCHEDULE_STATIC : CVR_CPU_SCHEDULE_DYNAMIC;
  int droppedLights = 0;
  vtkCudaVolumeConversion::DescribeShading(ren, property, settings.shading, droppedLights);
  if (droppedLights && !in.LightsReported)
  {
    vtkWarningMacro("shading uses the first " << CVR_MAX_LIGHTS << " lights; " << droppedLights
                                              << " more are ignored");
    in.LightsReported = true;
  }

  // ---- render, then composite or keep the image
  const size_t pixels = static_cast<size_t>(width) * height;
  in.Color.resize(4 * pixels);
  in.Depth.resize(pixels);
  const bool toImage = this->RenderToImage != 0;
  in.Color8.resize(toImage ? 4 * pixels : 0);
  const cvr_image out = { toImage ? in.Color8.data() : nullptr, in.Color.data(),
    toImage ? in.Depth.data() : nullptr };
  if (cvr_render(ctx, in.Volume.get(), in.TransferFunction.get(), &view, &settings, &out,
        &in.Stats) != CVR_OK)
  {
    vtkErrorMacro("rendering failed: " << cvr_last_error(ctx));
    return;
  }
  ++framesRendered;
  in.ImageSize[0] = width;
  in.ImageSize[1] = height;
  char configuration[128];
  std::snprintf(configuration, sizeof configuration, "%s %s %dx%d",
    cvr_backend_name(in.Stats.backend), cvr_strategy_name(in.Stats.strategy),
    in.Stats.block_width, in.Stats.block_height);
  in.Configuration = configuration;
  if (!toImage)
  {
    in.Compositor.Composite(ren, x0, y0, width, height, in.Color.data());
  }
}

void vtkCudaVolumeMapper::ReleaseGraphicsResources(vtkWindow* window)
{
  this->Internals->Compositor.ReleaseGraphicsResources(window);
  this->Internals->TransferFunction.reset();
  this->Internals->DropVolume();
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

void vtkCudaVolumeMapper::GetReductionRatio(double ratio[3])
{
  ratio[0] = ratio[1] = ratio[2] = 1.0;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetVolumeUploadCount()
{
  return this->Internals->VolumeUploads;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetTransferFunctionUploadCount()
{
  return this->Internals->TransferFunctionUploads;
}

double vtkCudaVolumeMapper::GetLastRenderTimeMs()
{
  return this->Internals->Stats.kernel_ms;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetLastRayCount()
{
  return this->Internals->Stats.rays;
}

vtkTypeUInt64 vtkCudaVolumeMapper::GetLastSampleCount()
{
  return this->Internals->Stats.samples;
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
  os << indent << "BlockSize: " << this->BlockSize[0] << " x " << this->BlockSize[1] << "\n";
  os << indent << "EarlyRayTermination: " << this->EarlyRayTermination << "\n";
  os << indent << "TerminationOpacity: " << this->TerminationOpacity << "\n";
  os << indent << "CpuThreads: " << this->CpuThreads << "\n";
  os << indent << "CpuTileSize: " << this->CpuTileSize[0] << " x " << this->CpuTileSize[1]
     << "\n";
  os << indent << "CpuSchedule: " << this->CpuSchedule << "\n";
  os << indent << "LastConfiguration: " << this->GetLastConfiguration() << "\n";
  os << indent << "LastRenderTimeMs: " << this->GetLastRenderTimeMs() << "\n";
}
