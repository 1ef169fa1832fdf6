// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "vtkCudaVolumeRepresentation.h"

#include "vtkCommand.h"
#include "vtkContourValues.h"
#include "vtkImplicitFunction.h"
#include "vtkVolumeProperty.h"

#include "vtkCellData.h"
#include "vtkAbstractArray.h"
#include "vtkDataArray.h"
#include "vtkPointData.h"
#include "vtkColorTransferFunction.h"
#include "vtkCudaVolumeMapper.h"
#include "vtkCudaVolumeStatisticsInformation.h"
#include "vtkImageData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkLogger.h"
#include "vtkMath.h"
#include "vtkObjectFactory.h"
#include "vtkOutlineSource.h"
#include "vtkNew.h"
#include "vtkPVLODVolume.h"
#include "vtkPVSession.h"
#include "vtkMultiProcessController.h"
#include "vtkPVRenderView.h"
#include "vtkPVView.h"
#include "vtkProcessModule.h"
#include "vtkSMSession.h"
#include "vtkPartitionedDataSet.h"
#include "vtkStructuredData.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkCudaVolumeRepresentation);

namespace
{
// This process's representations, for vtkCudaVolumeStatisticsInformation
std::set<vtkCudaVolumeRepresentation*>& LiveRepresentations()
{
  static std::set<vtkCudaVolumeRepresentation*> live;
  return live;
}

// The plugin turns the factory override on where it is loaded and finds a
// CUDA device, so that the stock Volume representation renders on it too.
// Without one, VTK's own mapper stays: its OpenGL path is faster than the
// CPU backend even on Mesa (shaded 81^3 Wavelet, 400^2: 0.19 s a frame
// against 0.53 on two cores), and on a GPU of another vendor by far; "CUDA
// Volume" renders on the CPU either way. CVR_OVERRIDE_GPU_VOLUME_MAPPER=1 or
// 0 in the environment decides instead.
struct OverrideOnLoad
{
  OverrideOnLoad()
  {
    const char* v = std::getenv("CVR_OVERRIDE_GPU_VOLUME_MAPPER");
    if (v && *v)
    {
      vtkCudaVolumeMapper::SetFactoryOverride(std::strcmp(v, "0") != 0);
      return;
    }
    const bool device = vtkCudaVolumeMapper::GetNumberOfCudaDevices() > 0;
    vtkCudaVolumeMapper::SetFactoryOverride(device);
    if (!device)
    {
      vtkLog(INFO, "no CUDA device: the stock Volume representation keeps VTK's mapper "
                   "(CVR_OVERRIDE_GPU_VOLUME_MAPPER=1 renders it with vtkCudaVolumeMapper's CPU "
                   "backend); CUDA Volume renders on the CPU");
    }
  }
} overrideOnLoad;

// The point extent of the image's cells that are not ghosts (ghost layers of
// neighbouring partitions would be ray cast twice).
void NonGhostExtent(vtkImageData* image, int extent[6])
{
  image->GetExtent(extent);
  auto* ghosts = vtkUnsignedCharArray::SafeDownCast(
    image->GetCellData()->GetArray(vtkDataSetAttributes::GhostArrayName()));
  if (!ghosts)
  {
    return;
  }
  int cells[6];
  vtkStructuredData::GetCellExtentFromPointExtent(extent, cells);
  int lo[3] = { VTK_INT_MAX, VTK_INT_MAX, VTK_INT_MAX }, hi[3] = { VTK_INT_MIN, VTK_INT_MIN,
    VTK_INT_MIN };
  for (vtkIdType c = 0; c < ghosts->GetNumberOfTuples(); ++c)
  {
    if (ghosts->GetValue(c) == 0)
    {
      int ijk[3];
      vtkStructuredData::ComputeCellStructuredCoordsForExtent(c, extent, ijk);
      for (int a = 0; a < 3; ++a)
      {
        lo[a] = std::min(lo[a], ijk[a]);
        hi[a] = std::max(hi[a], ijk[a]);
      }
    }
  }
  for (int a = 0; a < 3 && lo[a] <= hi[a]; ++a)
  {
    extent[2 * a] = lo[a];
    extent[2 * a + 1] = std::min(hi[a] + 1, extent[2 * a + 1]);
  }
}
}

vtkCudaVolumeRepresentation::vtkCudaVolumeRepresentation()
{
  LiveRepresentations().insert(this);
  this->CudaMapper = vtkCudaVolumeMapper::New();
  // a tuning sweep's progress, as this algorithm's (ParaView's progress bar)
  this->CudaMapper->AddObserver(vtkCommand::ProgressEvent, this,
    &vtkCudaVolumeRepresentation::ForwardProgress);
  this->VolumeMapper = this->CudaMapper; // the smart pointer holds a reference too
}

vtkCudaVolumeRepresentation::~vtkCudaVolumeRepresentation()
{
  LiveRepresentations().erase(this);
  this->CudaMapper->Delete();
}

void vtkCudaVolumeRepresentation::SetBackend(int v)
{
  this->CudaMapper->SetBackend(v);
}
void vtkCudaVolumeRepresentation::SetDeviceIndex(int v)
{
  this->CudaMapper->SetDeviceIndex(v);
}
void vtkCudaVolumeRepresentation::SetStrategy(int v)
{
  this->CudaMapper->SetStrategy(v);
}
void vtkCudaVolumeRepresentation::SetBlockSize(int w, int h)
{
  this->CudaMapper->SetBlockSize(w, h);
}
void vtkCudaVolumeRepresentation::SetRaySegments(int v)
{
  this->CudaMapper->SetRaySegments(v);
}
void vtkCudaVolumeRepresentation::SetHorizontalBlockSize(int w, int h)
{
  this->CudaMapper->SetHorizontalBlockSize(w, h);
}
void vtkCudaVolumeRepresentation::SetVerticalBlockSize(int w, int h)
{
  this->CudaMapper->SetVerticalBlockSize(w, h);
}
void vtkCudaVolumeRepresentation::SetWarpVariant(int v)
{
  this->CudaMapper->SetWarpVariant(v);
}
void vtkCudaVolumeRepresentation::SetWarpWidth(int v)
{
  this->CudaMapper->SetWarpWidth(v);
}
void vtkCudaVolumeRepresentation::SetWarpRays(int x, int y)
{
  this->CudaMapper->SetWarpRays(x, y);
}
void vtkCudaVolumeRepresentation::SetBlockWarps(int x, int y)
{
  this->CudaMapper->SetBlockWarps(x, y);
}
void vtkCudaVolumeRepresentation::SetSlabBlock(int x, int y)
{
  this->CudaMapper->SetSlabBlock(x, y);
}
void vtkCudaVolumeRepresentation::SetSlabDepth(int v)
{
  this->CudaMapper->SetSlabDepth(v);
}
void vtkCudaVolumeRepresentation::SetSlabBorder(int v)
{
  this->CudaMapper->SetSlabBorder(v);
}
void vtkCudaVolumeRepresentation::SetMemoryLayout(int v)
{
  this->CudaMapper->SetMemoryLayout(v);
}
void vtkCudaVolumeRepresentation::SetRotationPolicy(int v)
{
  this->CudaMapper->SetRotationPolicy(v);
}
void vtkCudaVolumeRepresentation::SetRotationHysteresis(double v)
{
  this->CudaMapper->SetRotationHysteresis(v);
}
void vtkCudaVolumeRepresentation::SetRotationTile(int t, int k)
{
  this->CudaMapper->SetRotationTile(t, k);
}
void vtkCudaVolumeRepresentation::SetEarlyRayTermination(int v)
{
  this->CudaMapper->SetEarlyRayTermination(v);
}
void vtkCudaVolumeRepresentation::SetUseJittering(int v)
{
  this->CudaMapper->SetUseJittering(v);
}
void vtkCudaVolumeRepresentation::SetGraphicsInterop(int v)
{
  this->CudaMapper->SetGraphicsInterop(v);
}
void vtkCudaVolumeRepresentation::SetTerminationOpacity(double v)
{
  this->CudaMapper->SetTerminationOpacity(v);
}
void vtkCudaVolumeRepresentation::SetEmptySpaceSkipping(int v)
{
  this->CudaMapper->SetEmptySpaceSkipping(v);
}
void vtkCudaVolumeRepresentation::SetEmptySpaceCellSize(int v)
{
  this->CudaMapper->SetEmptySpaceCellSize(v);
}
void vtkCudaVolumeRepresentation::SetCpuThreads(int v)
{
  this->CudaMapper->SetCpuThreads(v);
}
void vtkCudaVolumeRepresentation::SetMemoryBudget(double mib)
{
  if (mib > 0.0) // (the mapper's MaxMemoryInBytes, all of it)
  {
    this->CudaMapper->SetMaxMemoryInBytes(static_cast<vtkIdType>(mib * 1048576.0));
    this->CudaMapper->SetMaxMemoryFraction(1.0f);
  }
  else
  {
    this->CudaMapper->UseDefaultMaxMemory();
  }
}
void vtkCudaVolumeRepresentation::SetBrickSize(int v)
{
  this->CudaMapper->SetBrickSize(v);
}
void vtkCudaVolumeRepresentation::SetCpuTileSize(int w, int h)
{
  this->CudaMapper->SetCpuTileSize(w, h);
}
void vtkCudaVolumeRepresentation::SetCpuSchedule(int v)
{
  this->CudaMapper->SetCpuSchedule(v);
}
void vtkCudaVolumeRepresentation::SetSampleDistance(double v)
{
  this->CudaMapper->SetSampleDistance(v);
}
void vtkCudaVolumeRepresentation::SetImageSampleDistance(double v)
{
  this->CudaMapper->SetImageSampleDistance(static_cast<float>(v));
}
void vtkCudaVolumeRepresentation::SetCudaBlendMode(int mode)
{
  this->CudaBlendMode = mode;
  this->UpdateBlendMode();
}
void vtkCudaVolumeRepresentation::SetBlendMode(int mode)
{
  this->StockBlendMode = mode;
  this->UpdateBlendMode();
}
void vtkCudaVolumeRepresentation::SetVolumetricScatteringBlending(float blend)
{
  this->CudaMapper->SetVolumetricScatteringBlending(blend);
}
void vtkCudaVolumeRepresentation::SetGlobalIlluminationReach(float reach)
{
  this->CudaMapper->SetGlobalIlluminationReach(reach);
}
void vtkCudaVolumeRepresentation::SetCudaIsosurfaceValue(int i, double value)
{
  if (i >= 0 && i < static_cast<int>(this->CudaIsoValues.size()))
  {
    this->CudaIsoValues[i] = value;
    this->UpdateSurfaceInputs();
  }
}
void vtkCudaVolumeRepresentation::SetCudaNumberOfIsosurfaces(int n)
{
  this->CudaIsoValues.resize(static_cast<size_t>(std::max(n, 0)), 0.0);
  this->UpdateSurfaceInputs();
}
void vtkCudaVolumeRepresentation::SetIsosurfaceValue(int i, double value)
{
  if (i >= 0 && i < static_cast<int>(this->StockIsoValues.size()))
  {
    this->StockIsoValues[i] = value;
    this->UpdateSurfaceInputs();
  }
}
void vtkCudaVolumeRepresentation::SetNumberOfIsosurfaces(int n)
{
  this->StockIsoValues.resize(static_cast<size_t>(std::max(n, 0)), 0.0);
  this->UpdateSurfaceInputs();
}
void vtkCudaVolumeRepresentation::SetCudaSliceFunction(vtkImplicitFunction* plane)
{
  this->CudaSlice = plane;
  this->UpdateSurfaceInputs();
}
void vtkCudaVolumeRepresentation::SetSliceFunction(vtkImplicitFunction* plane)
{
  this->StockSlice = plane;
  this->UpdateSurfaceInputs();
}
void vtkCudaVolumeRepresentation::UpdateSurfaceInputs()
{
  const std::vector<double>& iso =
    this->CudaIsoValues.empty() ? this->StockIsoValues : this->CudaIsoValues;
  vtkContourValues* values = this->Property->GetIsoSurfaceValues();
  values->SetNumberOfContours(static_cast<int>(iso.size()));
  for (size_t i = 0; i < iso.size(); ++i)
  {
    values->SetValue(static_cast<int>(i), iso[i]);
  }
  this->Property->SetSliceFunction(this->CudaSlice ? this->CudaSlice : this->StockSlice);
  this->Modified();
}
namespace
{
bool IsProjection(int blend)
{
  return blend == vtkVolumeMapper::MAXIMUM_INTENSITY_BLEND ||
    blend == vtkVolumeMapper::MINIMUM_INTENSITY_BLEND;
}
}

void vtkCudaVolumeRepresentation::UpdateBlendMode()
{
  // Both properties are pushed when a state is loaded, in no order we choose:
  // the mode comes from their values, not from which came last.
  const bool projection = IsProjection(this->CudaMapper->GetBlendMode());
  this->CudaMapper->SetBlendMode(this->CudaBlendMode != vtkVolumeMapper::COMPOSITE_BLEND
      ? this->CudaBlendMode
      : this->StockBlendMode);
  if (IsProjection(this->CudaMapper->GetBlendMode()) != projection)
  {
    this->MarkModified(); // the view asks again how to composite (ProcessViewRequest)
  }
}

int vtkCudaVolumeRepresentation::ProcessViewRequest(
  vtkInformationRequestKey* request_type, vtkInformation* inInfo, vtkInformation* outInfo)
{
  if (!this->Superclass::ProcessViewRequest(request_type, inInfo, outInfo))
  {
    return 0;
  }
  if (request_type == vtkPVView::REQUEST_UPDATE())
  {
    // (the same answer on every rank: blend mode and rank count only)
    auto* controller = vtkMultiProcessController::GetGlobalController();
    const bool ranks = controller && controller->GetNumberOfProcesses() > 1;
    const bool byDepth = ranks && IsProjection(this->CudaMapper->GetBlendMode());
    if (byDepth)
    {
      outInfo->Remove(vtkPVRenderView::NEED_ORDERED_COMPOSITING());
    }
    this->CudaMapper->SetProjectionDepth(byDepth);
    this->ReportPieceBlending(ranks ? controller->GetNumberOfProcesses() : 1);
  }
  return 1;
}

// A sum or a mean along the whole ray needs every rank's samples of that
// ray, which neither of IceT's compositing modes (ordered "over", or by
// depth) can combine: each piece's image goes over the pieces behind it.
// (The stock Volume offers neither mode.)
void vtkCudaVolumeRepresentation::ReportPieceBlending(int ranks)
{
  const int blend = this->CudaMapper->GetBlendMode();
  const bool summed =
    blend == vtkVolumeMapper::AVERAGE_INTENSITY_BLEND || blend == vtkVolumeMapper::ADDITIVE_BLEND;
  if (ranks < 2 || !summed)
  {
    this->PieceBlendingSaid = -1;
    return;
  }
  auto* controller = vtkMultiProcessController::GetGlobalController();
  if (blend != this->PieceBlendingSaid && controller->GetLocalProcessId() == 0)
  {
    vtkWarningMacro(<< (blend == vtkVolumeMapper::ADDITIVE_BLEND ? "additive" : "average intensity")
                    << " blending on " << ranks
                    << " ranks: ParaView composites each rank's piece over the pieces behind it, "
                       "so the image is not the whole volume's "
                    << (blend == vtkVolumeMapper::ADDITIVE_BLEND ? "sum" : "mean")
                    << " along each ray (on one rank it is)");
  }
  this->PieceBlendingSaid = blend;
}
void vtkCudaVolumeRepresentation::SetAverageIPScalarRange(double lo, double hi)
{
  this->CudaMapper->SetAverageIPScalarRange(lo, hi);
}
void vtkCudaVolumeRepresentation::SetAutoAdjustSampleDistances(int v)
{
  // on: the stock Volume's sampling (its vtkSmartVolumeMapper's): locked to
  // the input spacing in still renders, VTK's adjustment in interactive ones
  this->CudaMapper->SetInteractiveAdjustSampleDistances(v);
  this->CudaMapper->SetLockSampleDistanceToInputSpacing(v);
  this->CudaMapper->SetAutoAdjustSampleDistances(v);
}

void vtkCudaVolumeRepresentation::UpdateMapperParameters()
{
  this->Superclass::UpdateMapperParameters();
  // "velocity Magnitude" or "velocity X" in the colouring menu: the colour
  // map's vector mode. Without independent components (Map Scalars off, or
  // a separate opacity array) the components go to the mapper as they are,
  // dependent: luminance + alpha or RGBA.
  vtkColorTransferFunction* ctf = this->Property->GetRGBTransferFunction(0);
  int mode = vtkCudaVolumeMapper::VECTOR_DISABLED;
  if (ctf && this->Property->GetIndependentComponents())
  {
    mode = ctf->GetVectorMode() == vtkScalarsToColors::MAGNITUDE ? vtkCudaVolumeMapper::VECTOR_MAGNITUDE
      : ctf->GetVectorMode() == vtkScalarsToColors::COMPONENT    ? vtkCudaVolumeMapper::VECTOR_COMPONENT
                                                                 : vtkCudaVolumeMapper::VECTOR_DISABLED;
    this->CudaMapper->SetVectorComponent(ctf->GetVectorComponent());
  }
  this->CudaMapper->SetVectorMode(mode);
  // the superclass hands a 2D function's second array (Use Gradient off) only
  // to the multiblock mapper: ours takes it as VTK's mappers do
  this->CudaMapper->SetTransfer2DYAxisArray(
    this->UseTransfer2D && !this->UseGradientForTransfer2D && !this->ColorArray2Name.empty()
      ? this->ColorArray2Name.c_str()
      : nullptr);
  this->CheckColorArray();
}

void vtkCudaVolumeRepresentation::CheckColorArray()
{
  const char* name = this->CudaMapper->GetArrayName();
  std::vector<vtkImageData*> images;
  if (auto* image = vtkImageData::SafeDownCast(this->Cache))
  {
    images.push_back(image);
  }
  else if (auto* partitions = vtkPartitionedDataSet::SafeDownCast(this->Cache))
  {
    for (unsigned int p = 0; p < partitions->GetNumberOfPartitions(); ++p)
    {
      if (auto* image = vtkImageData::SafeDownCast(partitions->GetPartition(p)))
      {
        images.push_back(image);
      }
    }
  }
  std::string problem;
  const bool cells = this->CudaMapper->GetScalarMode() == VTK_SCALAR_MODE_USE_CELL_FIELD_DATA;
  for (vtkImageData* image : images) // (none on a process without the data)
  {
    if (!name || !*name || !problem.empty())
    {
      break;
    }
    vtkDataSetAttributes* arrays = cells ? static_cast<vtkDataSetAttributes*>(image->GetCellData())
                                         : static_cast<vtkDataSetAttributes*>(image->GetPointData());
    vtkAbstractArray* array = arrays->GetAbstractArray(name);
    if (!array)
    {
      problem = std::string("the colour array \"") + name + "\" is not among the input's " +
        (cells ? "cell" : "point") + " arrays: nothing is drawn";
    }
    else if (!vtkDataArray::SafeDownCast(array))
    {
      problem = std::string("the colour array \"") + name + "\" is a " + array->GetClassName() +
        ", not numeric: nothing is drawn";
    }
  }
  if (problem != this->ColorArrayProblem && !problem.empty())
  {
    vtkErrorMacro(<< problem);
  }
  this->ColorArrayProblem = problem;
}

int vtkCudaVolumeRepresentation::RequestData(
  vtkInformation* request, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  vtkPartitionedDataSet* input = inputVector[0]->GetNumberOfInformationObjects() == 1
    ? vtkPartitionedDataSet::GetData(inputVector[0], 0)
    : nullptr;
  if (!input)
  {
    return this->Superclass::RequestData(request, inputVector, outputVector);
  }
  // What the superclass does for vtkImageData, for each image partition;
  // other partitions are skipped, as the superclass documents.
  vtkNew<vtkPartitionedDataSet> cache;
  for (unsigned int p = 0; p < input->GetNumberOfPartitions(); ++p)
  {
    auto* image = vtkImageData::SafeDownCast(input->GetPartition(p));
    if (!image || image->GetNumberOfPoints() == 0)
    {
      continue;
    }
    vtkNew<vtkImageData> copy; // appending opacity or cropping leaves the input as it is
    copy->ShallowCopy(image);
    if (this->UseSeparateOpacityArray)
    {
      this->AppendOpacityComponent(copy);
    }
    if (copy->HasAnyGhostCells())
    {
      int extent[6];
      NonGhostExtent(copy, extent);
      copy->Crop(extent);
    }
    cache->SetPartition(cache->GetNumberOfPartitions(), copy);
  }
  vtkMath::UninitializeBounds(this->DataBounds);
  this->DataSize = 0;
  if (cache->GetNumberOfPartitions() > 0)
  {
    cache->GetBounds(this->DataBounds);
    this->DataSize = cache->GetActualMemorySize();
    this->OutlineSource->SetBounds(this->DataBounds);
    this->OutlineSource->Update();
  }
  this->Actor->SetEnableLOD(0);
  this->Cache = cache;
  // the superclass's own step is replaced, its base's is kept
  return this->vtkPVDataRepresentation::RequestData(request, inputVector, outputVector);
}

void vtkCudaVolumeRepresentation::SetTuningRepeats(int v)
{
  this->CudaMapper->SetTuningRepeats(v);
}
void vtkCudaVolumeRepresentation::SetTuningPrune(double v)
{
  this->CudaMapper->SetTuningPrune(v);
}
void vtkCudaVolumeRepresentation::SetTuningBudget(double v)
{
  this->CudaMapper->SetTuningBudget(v);
}
void vtkCudaVolumeRepresentation::SetTuningCacheDirectory(const char* v)
{
  // a string property cannot be null: empty means the default here (the
  // library's "keep in memory" is for programs, not for the GUI)
  this->CudaMapper->SetTuningCacheDirectory(v && v[0] ? v : nullptr);
}
void vtkCudaVolumeRepresentation::ForwardProgress(vtkObject*, unsigned long, void* data)
{
  this->UpdateProgress(*static_cast<double*>(data));
}

void vtkCudaVolumeRepresentation::TuneNow()
{
  this->CudaMapper->TuneNow();
  this->MarkModified();
}
void vtkCudaVolumeRepresentation::ResetTuning()
{
  this->CudaMapper->ResetTuning();
  this->MarkModified();
}
const char* vtkCudaVolumeRepresentation::GetAutoConfiguration()
{
  return this->CudaMapper->GetAutoConfiguration();
}
int vtkCudaVolumeRepresentation::GetAutoTuning()
{
  return this->CudaMapper->GetAutoTuning();
}

std::string vtkCudaVolumeRepresentation::GetLocalFrameStatistics()
{
  char line[512];
  std::snprintf(line, sizeof line,
    "%s: %.2f ms, %llu rays, %llu samples (skipped: %llu empty, %llu after termination) on %s; "
    "image: %s",
    this->CudaMapper->GetLastConfiguration(), this->CudaMapper->GetLastRenderTimeMs(),
    static_cast<unsigned long long>(this->CudaMapper->GetLastRayCount()),
    static_cast<unsigned long long>(this->CudaMapper->GetLastSampleCount()),
    static_cast<unsigned long long>(this->CudaMapper->GetLastSamplesSkippedEmpty()),
    static_cast<unsigned long long>(this->CudaMapper->GetLastSamplesSkippedTerminated()),
    this->CudaMapper->GetBackendDescription(), this->CudaMapper->GetLastImageTransfer());
  std::string text = line;
  if (this->CudaMapper->GetLastBrickCount() > 0) // a volume larger than the memory budget
  {
    std::snprintf(line, sizeof line, "; bricks: %d of %d drawn, %d loaded (%.1f MiB in %.2f ms)",
      this->CudaMapper->GetLastBricksDrawn(), this->CudaMapper->GetLastBrickCount(),
      this->CudaMapper->GetLastBricksLoaded(),
      static_cast<double>(this->CudaMapper->GetLastBrickBytesLoaded()) / 1048576.0,
      this->CudaMapper->GetLastBrickLoadTimeMs());
    text += line;
  }
  // how long the latest upload (the context, the volume, the tables) took:
  // a large volume's first image is mostly its upload
  const int since = this->CudaMapper->GetFramesSinceLatestUpload();
  if (since >= 0)
  {
    std::snprintf(line, sizeof line, "; latest upload %.2f ms, ",
      this->CudaMapper->GetLatestUploadTimeMs());
    text += line;
    text += since == 0 ? std::string("this frame")
                       : std::to_string(since) + (since == 1 ? " frame before" : " frames before");
  }
  return text;
}

const char* vtkCudaVolumeRepresentation::GetLastFrameStatistics()
{
  // ParaView reads information properties from the client's object where
  // there is one; the frames were rendered by the server's ranks (or, in
  // pvbatch under MPI, by every rank), so the client gathers them
  auto* pm = vtkProcessModule::GetProcessModule();
  auto* session = vtkSMSession::SafeDownCast(pm ? pm->GetActiveSession() : nullptr);
  const bool client = pm && pm->GetProcessType() == vtkProcessModule::PROCESS_CLIENT;
  const bool batchRoot = pm && pm->GetNumberOfLocalPartitions() > 1 &&
    pm->GetPartitionId() == 0 && !pm->GetSymmetricMPIMode();
  if (session && this->GetUniqueIdentifier() != 0 && (client || batchRoot))
  {
    vtkNew<vtkCudaVolumeStatisticsInformation> info;
    info->SetRepresentation(this->GetUniqueIdentifier());
    session->GatherInformation(vtkPVSession::RENDER_SERVER, info, 0);
    if (info->GetNumberOfRanks() > 0)
    {
      this->Statistics = info->GetText();
      return this->Statistics.c_str();
    }
  }
  this->Statistics = this->GetLocalFrameStatistics();
  return this->Statistics.c_str();
}

vtkCudaVolumeRepresentation* vtkCudaVolumeRepresentation::FindByIdentifier(unsigned int identifier)
{
  for (auto* representation : LiveRepresentations())
  {
    if (identifier != 0 && representation->GetUniqueIdentifier() == identifier)
    {
      return representation;
    }
  }
  return nullptr;
}

int vtkCudaVolumeRepresentation::GetFramesRenderedInProcess()
{
  return static_cast<int>(vtkCudaVolumeMapper::GetNumberOfFramesRendered());
}

void vtkCudaVolumeRepresentation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "CudaMapper:\n";
  this->CudaMapper->PrintSelf(os, indent.GetNextIndent());
}
