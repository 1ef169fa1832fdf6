// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/**
 * @class   vtkCudaVolumeMapper
 * @brief   Ray-cast volume mapper on the cvr library: CUDA, or the CPU without a GPU.
 *
 * A drop-in replacement for vtkOpenGLGPUVolumeRayCastMapper. It is a thin
 * shim: it turns the input vtkImageData, the volume's matrix, the camera,
 * the vtkVolumeProperty and the mapper's settings into the cvr library's
 * structs, lets the library render (uploading the volume only when its data
 * changes and the transfer function only when it changes), and composites
 * the premultiplied image over the framebuffer. Opaque geometry already in
 * the depth buffer stops the rays. With RenderToImage on, the image stays
 * off screen and GetColorImage()/GetDepthImage() return it.
 *
 * The input is vtkImageData, or a composite of them (vtkPartitionedDataSet,
 * vtkMultiBlockDataSet, ...): each image block is uploaded on its own and
 * the blocks are ray cast front to back on one sample lattice, so a volume
 * split into blocks that share their boundary points renders as the whole
 * one does (shading gradients at block faces see only their own block).
 * Non-image blocks are skipped with a warning.
 *
 * Backend: AUTO (CUDA when a device is usable, else the CPU, said once), CUDA
 * or CPU. A CUDA device lost while rendering (a kernel fault, an ECC error, a
 * device gone) is said once, and the mapper renders on the CPU from that
 * frame on, whatever the backend asked. The library's strategies and their
 * parameters are settings here.
 *
 * SetFactoryOverride(true), the environment variable
 * CVR_OVERRIDE_GPU_VOLUME_MAPPER=1 at load time, or the ParaView plugin make
 * vtkGPUVolumeRayCastMapper::New() return this class, so vtkSmartVolumeMapper
 * and ParaView's Volume representation use it.
 */
#ifndef vtkCudaVolumeMapper_h
#define vtkCudaVolumeMapper_h

#include "vtkCudaVolumeRenderingModule.h" // For export macro
#include "vtkGPUVolumeRayCastMapper.h"

#include <memory> // For std::unique_ptr
#include <string> // For the messages said (Say)
#include <vector> // For the image blocks

// the C library's frame description (cvr.h), used by private helpers
class vtkVolumeProperty;
struct cvr_view;
struct cvr_render_settings;
struct cvr_image;
struct cvr_render_stats;
struct cvr_transfer_function_desc;

class VTKCUDAVOLUMERENDERING_EXPORT vtkCudaVolumeMapper : public vtkGPUVolumeRayCastMapper
{
public:
  static vtkCudaVolumeMapper* New();
  vtkTypeMacro(vtkCudaVolumeMapper, vtkGPUVolumeRayCastMapper);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum BackendType
  {
    BACKEND_AUTO = 0,
    BACKEND_CUDA = 1,
    BACKEND_CPU = 2
  };
  enum StrategyType
  {
    STRATEGY_STANDARD = 0,
    STRATEGY_BLOCK_SHAPE = 1,
    STRATEGY_WARP_MARCHING = 2,
    STRATEGY_SLAB = 3,
    STRATEGY_AUTO = 4
  };
  enum WarpVariantType
  {
    WARP_SB_SHARED = 0,
    WARP_DB_SHARED = 1,
    WARP_SB_SHUFFLE = 2,
    WARP_DB_SHUFFLE = 3
  };
  enum SlabBorderType
  {
    SLAB_BORDER_RING = 0,
    SLAB_BORDER_GATHERED = 1
  };
  enum MemoryLayoutType
  {
    LAYOUT_TEXTURE = 0,
    LAYOUT_ARRAY_ORDER = 1,
    LAYOUT_Z_ORDER = 2
  };
  enum RotationPolicyType
  {
    ROTATION_NEVER = 0,
    ROTATION_ON_REGION_CHANGE = 1,
    ROTATION_HYSTERESIS = 2
  };
  enum CpuScheduleType
  {
    CPU_SCHEDULE_DYNAMIC = 0,
    CPU_SCHEDULE_STATIC = 1
  };

  ///@{
  /**
   * Where to render: BACKEND_AUTO (default), BACKEND_CUDA or BACKEND_CPU, and
   * which CUDA device (default 0; -1: the process's node-local MPI rank modulo
   * the devices, see LocalRankDevice). A change takes effect at the next render.
   */
  vtkSetMacro(Backend, int);
  vtkGetMacro(Backend, int);
  vtkSetMacro(DeviceIndex, int);
  vtkGetMacro(DeviceIndex, int);
  ///@}

  ///@{
  /**
   * Ray-casting strategy (CUDA backend; the CPU backend has one renderer) and
   * its parameters. Invalid values are reported by the next render, which
   * then draws nothing.
   *  - STRATEGY_STANDARD: one thread per ray in BlockSize[0] x BlockSize[1]
   *    thread blocks (default 16 x 16); RaySegments (1, 2, 4 or 8; default
   *    1) threads a ray, each marching a consecutive part of its samples
   *    (the same image, in shorter pieces of work: faster where the image
   *    has too few rays to fill the GPU many times over; unshaded
   *    compositing without cropping or masks, else one thread a ray).
   *  - STRATEGY_BLOCK_SHAPE (Sugimoto et al.): the standard kernel with, for
   *    each view, HorizontalBlockSize (default 32 x 4) when the volume axis
   *    of smallest memory stride runs across the screen, else
   *    VerticalBlockSize (default 1 x 128).
   *  - STRATEGY_WARP_MARCHING (Wang et al.): WarpWidth lanes (2..32, a power
   *    of two) march one ray; a warp's 32 / WarpWidth rays are laid out
   *    WarpRays[0] x WarpRays[1] on screen (0 x 0, the default: the
   *    squarest layout), a block holds BlockWarps[0] x BlockWarps[1] warps
   *    (at most 16; default 1 x 8). WarpVariant: single or double buffer,
   *    through shared memory or shuffles (default WARP_SB_SHUFFLE). Width 32
   *    (the default) is 1D warp marching; 8 is the paper's 3D shape 2 x 2 x 8.
   *  - STRATEGY_SLAB (Mensmann et al.): SlabBlock[0] x SlabBlock[1] threads
   *    per block (at most 1024; default 16 x 8) step through slabs of
   *    SlabDepth samples (4, 8, 16 or 32; default 8) cached in shared
   *    memory; shading takes its gradients from the cache (the neighbouring
   *    rays) instead of six more volume fetches, so shaded images differ
   *    slightly from the other strategies'. The rays around a block's tile
   *    only fill the cache: SlabBorder SLAB_BORDER_RING (default, the
   *    paper's) casts them from the block's outer ring of threads (each side
   *    >= 3; the tile is (w - 2) x (h - 2)), SLAB_BORDER_GATHERED from the
   *    tile's own threads besides their pixels (the tile is the block, which
   *    needs at least 2 (w + 2) + 2 h threads); both render the same image.
   *  - STRATEGY_AUTO (the default): the auto-tuner picks the fastest
   *    configuration (strategy, its parameters, memory layout; on the CPU
   *    tile size and schedule) for each class of view direction, then for
   *    each 10-degree cell of directions within it, by measuring one
   *    candidate per frame, and keeps what it learns in a cache file (see
   *    TuneNow, ResetTuning, TuningCacheDirectory, GetAutoConfiguration).
   */
  vtkSetMacro(Strategy, int);
  vtkGetMacro(Strategy, int);
  vtkSetVector2Macro(BlockSize, int);
  vtkGetVector2Macro(BlockSize, int);
  vtkSetMacro(RaySegments, int);
  vtkGetMacro(RaySegments, int);
  vtkSetVector2Macro(HorizontalBlockSize, int);
  vtkGetVector2Macro(HorizontalBlockSize, int);
  vtkSetVector2Macro(VerticalBlockSize, int);
  vtkGetVector2Macro(VerticalBlockSize, int);
  vtkSetMacro(WarpVariant, int);
  vtkGetMacro(WarpVariant, int);
  vtkSetMacro(WarpWidth, int);
  vtkGetMacro(WarpWidth, int);
  vtkSetVector2Macro(WarpRays, int);
  vtkGetVector2Macro(WarpRays, int);
  vtkSetVector2Macro(BlockWarps, int);
  vtkGetVector2Macro(BlockWarps, int);
  vtkSetVector2Macro(SlabBlock, int);
  vtkGetVector2Macro(SlabBlock, int);
  vtkSetMacro(SlabDepth, int);
  vtkGetMacro(SlabDepth, int);
  vtkSetMacro(SlabBorder, int);
  vtkGetMacro(SlabBorder, int);
  ///@}

  ///@{
  /**
   * Where the CUDA backend keeps the volume, and in-place rotation (every
   * strategy samples from any layout; the CPU backend ignores both).
   *  - MemoryLayout (Bethel and Howison): LAYOUT_TEXTURE (default; the
   *    texture unit filters), LAYOUT_ARRAY_ORDER or LAYOUT_Z_ORDER (global
   *    memory through lookup tables, filtered in the kernel). A change
   *    rebuilds the device copy once.
   *  - RotationPolicy (Misaki et al.): ROTATION_NEVER (default), or turn the
   *    volume's voxel order by 90 degrees in place when the turn takes the
   *    view further from its x axis (ROTATION_ON_REGION_CHANGE), or only
   *    when it does so by more than twice RotationHysteresis degrees
   *    (default 5, in [0, 45]; ROTATION_HYSTERESIS; 45 keeps the volume
   *    padded but never turns it). cvr.h's cvr_rotation_policy has the rule. The volume is padded once so that x and the axis it trades
   *    places with have one length.
   *  - RotationTile: t x k, the rotation kernel's tile (t in 1..32, k >= 1,
   *    or 0 for automatic; default 32 x 0).
   */
  vtkSetMacro(MemoryLayout, int);
  vtkGetMacro(MemoryLayout, int);
  vtkSetMacro(RotationPolicy, int);
  vtkGetMacro(RotationPolicy, int);
  vtkSetMacro(RotationHysteresis, double);
  vtkGetMacro(RotationHysteresis, double);
  vtkSetVector2Macro(RotationTile, int);
  vtkGetVector2Macro(RotationTile, int);
  ///@}

  ///@{
  /**
   * As vtkSmartVolumeMapper's (default off here, on in ParaView's "CUDA
   * Volume", as the stock Volume's smart mapper has it): when on,
   * AutoAdjustSampleDistances is ignored and taken as whether the render is
   * interactive (the render window's DesiredUpdateRate at or above
   * InteractiveUpdateRate, default 1). Together with
   * LockSampleDistanceToInputSpacing, still renders then sample at VTK's
   * spacing-adjusted distance and interactive ones at the smallest voxel
   * edge, coarser while a frame misses its time.
   */
  vtkSetMacro(InteractiveAdjustSampleDistances, vtkTypeBool);
  vtkGetMacro(InteractiveAdjustSampleDistances, vtkTypeBool);
  vtkBooleanMacro(InteractiveAdjustSampleDistances, vtkTypeBool);
  vtkSetClampMacro(InteractiveUpdateRate, double, 1.0e-10, 1.0e10);
  vtkGetMacro(InteractiveUpdateRate, double);
  ///@}

  ///@{
  /**
   * Early ray termination (default on) once a ray's opacity reaches
   * TerminationOpacity (default 254/255: no pixel changes by more than one
   * 8-bit level).
   */
  vtkSetMacro(EarlyRayTermination, vtkTypeBool);
  vtkGetMacro(EarlyRayTermination, vtkTypeBool);
  vtkBooleanMacro(EarlyRayTermination, vtkTypeBool);
  vtkSetMacro(TerminationOpacity, double);
  vtkGetMacro(TerminationOpacity, double);
  ///@}

  ///@{
  /**
   * Empty-space skipping (default on; composite blending): rays step over
   * the samples of macro-cells of EmptySpaceCellSize^3 voxels (a power of
   * two, 4..64, default 8) in which the transfer function gives every value
   * zero opacity. Exact: the image is the one without it. The cells' value
   * ranges are found once per volume, the empty ones again when the
   * transfer function changes; GetLastSamplesSkippedEmpty says how much a
   * frame skipped.
   */
  vtkSetMacro(EmptySpaceSkipping, vtkTypeBool);
  vtkGetMacro(EmptySpaceSkipping, vtkTypeBool);
  vtkBooleanMacro(EmptySpaceSkipping, vtkTypeBool);
  vtkSetMacro(EmptySpaceCellSize, int);
  vtkGetMacro(EmptySpaceCellSize, int);
  ///@}

  ///@{
  /**
   * Multi-component scalars, as vtkSmartVolumeMapper takes them (ParaView
   * sets these from the colour map's vector mode): VECTOR_MAGNITUDE renders
   * the magnitude of each tuple, VECTOR_COMPONENT the component
   * VectorComponent (0..3, below the array's count); the transfer functions
   * span that quantity's range. VECTOR_DISABLED (the default, as VTK's GPU
   * mapper) refuses scalars of more than one component with an error. Single
   * components render as they are in every mode.
   */
  enum VectorModes
  {
    VECTOR_DISABLED = -1,
    VECTOR_MAGNITUDE = 0,
    VECTOR_COMPONENT = 1
  };
  vtkSetClampMacro(VectorMode, int, VECTOR_DISABLED, VECTOR_COMPONENT);
  vtkGetMacro(VectorMode, int);
  vtkSetClampMacro(VectorComponent, int, 0, 3);
  vtkGetMacro(VectorComponent, int);
  ///@}

  ///@{
  /**
   * CPU backend: worker threads (0 = one per core, or in an MPI job the
   * node's cores over its local ranks: LocalRankThreads), image tile size (default
   * 32 x 32) and how tiles go to threads (default dynamic).
   */
  vtkSetMacro(CpuThreads, int);
  vtkGetMacro(CpuThreads, int);
  vtkSetVector2Macro(CpuTileSize, int);
  vtkGetVector2Macro(CpuTileSize, int);
  vtkSetMacro(CpuSchedule, int);
  vtkGetMacro(CpuSchedule, int);
  ///@}

  ///@{
  /**
   * Volumes larger than memory. VTK's MaxMemoryInBytes times
   * MaxMemoryFraction, where either is set, is the backend's memory budget
   * (cvr_context_options.memory_budget): a volume larger renders from
   * bricks of BrickSize^3 voxels (a power of two, 16..256; 0: 128) streamed
   * through a cache of that size, the same image. Left as constructed
   * (VTK's guess of the graphics memory), the CUDA backend takes the
   * device's free memory less a margin and the CPU renders in place.
   * UseDefaultMaxMemory() goes back to that. GetLastBrick*: the last
   * frame's bricks (0 when the volume was not bricked), drawn, loaded into
   * the cache (bytes, and the copies' time). Where the backend keeps the
   * scalars in host memory (the CPU; a bricked volume), it reads the input
   * array in place when its type allows (8- and 16-bit integers, float32, one
   * component or all of them), holding the array; GetHostCopyBytes is what
   * it keeps of its own besides (a conversion's copy).
   */
  vtkSetMacro(BrickSize, int);
  vtkGetMacro(BrickSize, int);
  void UseDefaultMaxMemory();
  int GetLastBrickCount();
  int GetLastBricksDrawn();
  int GetLastBricksLoaded();
  vtkTypeUInt64 GetLastBrickBytesLoaded();
  double GetLastBrickLoadTimeMs();
  vtkTypeUInt64 GetHostCopyBytes();
  ///@}

  ///@{
  /**
   * The last frame: ray-casting time in ms, rays and samples, and the backend
   * and strategy that rendered it ("cuda standard 16x16", "cpu standard
   * 32x32"). The description names the device, or why there is none.
   */
  double GetLastRenderTimeMs();
  /**
   * STRATEGY_AUTO: what it renders the last frame's view with (its class's
   * best or its cell's choice), whether it is still measuring candidates
   * there, and the class, e.g. "standard
   * 32x8, texture (tuned; along z, stride axis across, square)"; empty for
   * other strategies.
   */
  const char* GetAutoConfiguration();
  int GetAutoTuning();
  vtkTypeUInt64 GetLastRayCount();
  vtkTypeUInt64 GetLastSampleCount();
  /**
   * The last frame's lattice samples that were not taken: inside empty
   * macro-cells (empty-space skipping), and behind the point where early ray
   * termination stopped their ray.
   */
  vtkTypeUInt64 GetLastSamplesSkippedEmpty();
  vtkTypeUInt64 GetLastSamplesSkippedTerminated();
  const char* GetLastConfiguration();
  const char* GetBackendDescription();
  ///@}

  ///@{
  /**
   * How often the volume and the transfer function went to the backend since
   * this mapper was made: the volume when its image, array or data change,
   * the transfer function when the property or its functions change. Of the
   * volume uploads, the updates were new values of the same type and
   * dimensions, written over the copy there was (cvr_volume_update: no
   * allocation, the memory layout kept). Uploads report their progress as
   * the mapper's ProgressEvent.
   */
  vtkTypeUInt64 GetVolumeUploadCount();
  vtkTypeUInt64 GetVolumeUpdateCount();
  vtkTypeUInt64 GetTransferFunctionUploadCount();
  ///@}

  ///@{
  /**
   * CUDA-OpenGL interop (default on): where OpenGL runs on the CUDA device,
   * the opaque geometry's depth is read into and the image is written into
   * OpenGL buffers on the GPU, so no pixel goes through host memory. Off, or
   * where it cannot be (the CPU backend, OpenGL on another GPU or in
   * software, composite input, RenderToImage), the image goes through host
   * memory. GetLastImageTransfer() says which, and why: "OpenGL interop" or
   * "host memory (...)".
   */
  vtkSetMacro(GraphicsInterop, vtkTypeBool);
  vtkGetMacro(GraphicsInterop, vtkTypeBool);
  vtkBooleanMacro(GraphicsInterop, vtkTypeBool);
  const char* GetLastImageTransfer();
  ///@}

  ///@{
  /**
   * Maximum and minimum intensity projection across ranks (default off):
   * each pixel's extreme scalar value is written as its depth, the greater
   * value (MIP; the smaller, MinIP) the nearer, so that a depth compositor,
   * ParaView's IceT with several ranks, keeps the pixel of the rank whose
   * extreme wins instead of blending the ranks' images "over" each other.
   * The CUDA Volume representation turns it on for those blend modes when
   * the view runs on several ranks. It costs a second render of the frame
   * (the values, through a ramp transfer function) and writes depth that
   * means a value, not a distance. Single-component scalars only; other
   * blend modes and inputs ignore it.
   */
  vtkSetMacro(ProjectionDepth, vtkTypeBool);
  vtkGetMacro(ProjectionDepth, vtkTypeBool);
  vtkBooleanMacro(ProjectionDepth, vtkTypeBool);
  ///@}

  /// The blend mode in words ("maximum intensity", ...). Composite, maximum,
  /// minimum and average intensity and additive render in every strategy
  /// (warp marching and slab hand the ones other than composite to the
  /// standard strategy, with a warning); isosurface and slice are not
  /// supported yet (an error).
  const char* GetBlendModeName() const;

  ///@{
  /**
   * Where the last frame's time went, in ms of wall time: sending what changed
   * to the backend (the volume, the transfer function, the mask, and creating
   * the backend's context when it had to; 0 in a frame that sent none),
   * reading the opaque geometry's depth from OpenGL, the library's render
   * calls (ray casting, GetLastRenderTimeMs(), and the copies between host
   * and device, GetLastTransferTimeMs(), GPU time by CUDA events; 0 on the
   * CPU), and drawing the image into the framebuffer (the calls; OpenGL may
   * finish the drawing later).
   */
  double GetLastUploadTimeMs();
  double GetLastDepthReadTimeMs();
  double GetLastRenderCallTimeMs();
  double GetLastTransferTimeMs();
  double GetLastCompositeTimeMs();
  ///@}

  ///@{
  /**
   * The latest frame that sent anything to the backend (GetLastUploadTimeMs()
   * above 0): the time it spent sending, and how many frames this mapper
   * rendered since (0: the last frame; -1: none sent yet). A large volume's
   * upload is the bulk of its first image, which a renderer that draws twice
   * for one request (ParaView's first render does) would otherwise hide.
   */
  double GetLatestUploadTimeMs();
  int GetFramesSinceLatestUpload();
  ///@}

  ///@{
  /**
   * STRATEGY_AUTO's knobs: measurements per contender (1..16, default 6),
   * the factor past which a candidate slower than the best is dropped after
   * one measurement (> 1, default 1.5), and the share of the frames' kernel
   * time measuring may cost (0 < x <= 1, default 0.01, half that over a
   * table's first 360 frames; 1: no bound, tuning frames every other frame
   * until converged). The cache directory of its tables
   * (nullptr: $CVR_TUNING_CACHE_DIR, else $XDG_CACHE_HOME/cvr, else
   * ~/.cache/cvr; "": keep them in memory only).
   */
  vtkSetMacro(TuningRepeats, int);
  vtkGetMacro(TuningRepeats, int);
  vtkSetMacro(TuningPrune, double);
  vtkGetMacro(TuningPrune, double);
  vtkSetMacro(TuningBudget, double);
  vtkGetMacro(TuningBudget, double);
  vtkSetStringMacro(TuningCacheDirectory);
  vtkGetStringMacro(TuningCacheDirectory);
  ///@}

  /**
   * A full sweep at the next render's view: every candidate of its class and
   * then the memory layouts, reported through ProgressEvent (UpdateProgress),
   * for benchmarks; an AbortExecute set during it stops the sweep.
   */
  void TuneNow();
  /// Forgets what STRATEGY_AUTO learnt, cache files included.
  void ResetTuning();

  /**
   * Makes vtkGPUVolumeRayCastMapper::New() return a vtkCudaVolumeMapper
   * (true) or VTK's own mapper again (false).
   */
  static void SetFactoryOverride(bool enable);
  static bool GetFactoryOverride();

  /**
   * Frames rendered by every vtkCudaVolumeMapper of this process: shows that
   * a mapper made by a factory (vtkSmartVolumeMapper, ParaView's Volume
   * representation) really is this one.
   */
  static vtkTypeUInt64 GetNumberOfFramesRendered();

  /**
   * CUDA devices this process can use (0 without a driver or a device, or in
   * a build without CUDA).
   */
  static int GetNumberOfCudaDevices();

  /**
   * The device a process of an MPI job should use: its node-local rank (from
   * the launcher's environment: OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID,
   * MV2_COMM_WORLD_LOCAL_RANK, PMI_LOCAL_RANK or SLURM_LOCALID; 0 without
   * one) modulo deviceCount, so ranks on one node spread over its GPUs.
   */
  static int LocalRankDevice(int deviceCount);

  /**
   * The CPU backend's threads by default (CpuThreads 0) in a process of an
   * MPI job: the node's cores over its node-local ranks (from the launcher's
   * OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS, MV2_COMM_WORLD_LOCAL_SIZE,
   * PMI_LOCAL_SIZE or SLURM_NTASKS_PER_NODE), at least 1; 0 (a thread per
   * core) without one, or with one rank.
   */
  static int LocalRankThreads();

  /**
   * 1 when this mapper can render: always with BACKEND_AUTO or BACKEND_CPU;
   * with BACKEND_CUDA only where a CUDA device is usable.
   */
  int IsRenderSupported(vtkRenderWindow* window, vtkVolumeProperty* property) override;

  /// Renders composite input itself; vtkImageData through the superclass.
  void Render(vtkRenderer* ren, vtkVolume* vol) override;
  void GPURender(vtkRenderer* ren, vtkVolume* vol) override;
  /// The union of the blocks' bounds for composite input.
  double* GetBounds() override;
  using Superclass::GetBounds;
  /// For composite input on port 0, its first image block: code that looks
  /// at the input's arrays through GetInput() (ParaView's vtkPVLODVolume)
  /// sees those the blocks share. GetInputDataObject(0, 0) is the composite.
  vtkDataSet* GetInput(const int port) override;
  using Superclass::GetInput;
  void ReleaseGraphicsResources(vtkWindow* window) override;
  void GetDepthImage(vtkImageData* output) override;
  void GetColorImage(vtkImageData* output) override;
  void GetReductionRatio(double ratio[3]) override;
  /**
   * Pixels between rays, VTK's range 0.1 to 100. A value outside it (or not
   * finite) is refused with an error and the distance kept: VTK's setter
   * would clamp 0 or -2 to 0.1 silently, a hundred times the rays.
   */
  void SetImageSampleDistance(float distance) override;

protected:
  /// The render path's messages, said once until they change (see the .cxx).
  void Say(bool error, const std::string& text);
  /// AutoAdjustSampleDistances for this render (InteractiveAdjustSampleDistances)
  bool AdjustsSampleDistances(vtkRenderer* ren) const;
  void BeginFrame();
  void EndFrame();

  vtkCudaVolumeMapper();
  ~vtkCudaVolumeMapper() override;

  // The superclass's block-wise rendering path is not used: GPURender does it all.
  void PreRender(vtkRenderer*, vtkVolume*, double[6], double[2], int, unsigned int) override {}
  void RenderBlock(vtkRenderer*, vtkVolume*, unsigned int) override {}
  void PostRender(vtkRenderer*, int) override {}

  /// Port 0 also takes composite data sets of vtkImageData.
  int FillInputPortInformation(int port, vtkInformation* info) override;

  int Backend = BACKEND_AUTO;
  int DeviceIndex = 0;
  int Strategy = STRATEGY_AUTO;
  int TuningRepeats = 6;
  double TuningPrune = 1.5;
  double TuningBudget = 0.01;
  char* TuningCacheDirectory = nullptr;
  int BlockSize[2] = { 16, 16 };
  int RaySegments = 1;
  int HorizontalBlockSize[2] = { 32, 4 };
  int VerticalBlockSize[2] = { 1, 128 };
  int WarpVariant = WARP_SB_SHUFFLE;
  int WarpWidth = 32;
  int WarpRays[2] = { 0, 0 };
  int BlockWarps[2] = { 1, 8 };
  int SlabBlock[2] = { 16, 8 };
  int SlabDepth = 8;
  int SlabBorder = SLAB_BORDER_RING;
  int MemoryLayout = LAYOUT_TEXTURE;
  int RotationPolicy = ROTATION_NEVER;
  double RotationHysteresis = 5.0;
  int RotationTile[2] = { 32, 0 };
  vtkTypeBool InteractiveAdjustSampleDistances = 0;
  double InteractiveUpdateRate = 1.0;
  vtkTypeBool EarlyRayTermination = 1;
  vtkTypeBool GraphicsInterop = 1;
  vtkTypeBool ProjectionDepth = 0;
  double TerminationOpacity = 254.0 / 255.0;
  vtkTypeBool EmptySpaceSkipping = 1;
  int EmptySpaceCellSize = 8;
  int VectorMode = VECTOR_DISABLED;
  int VectorComponent = 0;
  int CpuThreads = 0;
  int BrickSize = 0;
  int CpuTileSize[2] = { 32, 32 };
  int CpuSchedule = CPU_SCHEDULE_DYNAMIC;

private:
  vtkCudaVolumeMapper(const vtkCudaVolumeMapper&) = delete;
  void operator=(const vtkCudaVolumeMapper&) = delete;

  // Steps of a render: each brings the library's state up to date with VTK's
  // and reports what stops it (returning false).
  bool UpdateContext();
  /// After a frame: whether it lost the CUDA device, said once; the next
  /// context is then the CPU's (the caller renders the frame again).
  bool FallBackAfterDeviceLoss();
  /// Whether this frame's image can stay on the GPU (sets ImageTransfer).
  bool UseInterop(int width, int height);
  /// yAxis: the 2D transfer function's y axis array (Transfer2DYAxisArray)
  /// to upload as each block's second component, or null. range: the
  /// (x axis) values' range over every block.
  bool UpdateVolumes(
    const std::vector<vtkImageData*>& images, const char* yAxis, double range[2]);
  /// Block b's volume in the library: uploaded, or updated in place, when
  /// its data or what selects from it changed.
  bool UpdateBlock(size_t b, vtkImageData* image, vtkDataArray* scalars, int cellFlag,
    vtkDataArray* yAxis, const std::string& which);
  /// Block b's value range into range, its components' into the component
  /// ranges (the library found both while uploading).
  void AddBlockRanges(size_t b, size_t blocks, double range[2]);
  bool UpdateTransferFunction(vtkVolumeProperty* property, const double range[2]);
  // its parts: when the functions it reads last changed; the tables the
  // library copies, sampled (TransferFunctionTables keeps them alive)
  struct TransferFunctionTables;
  vtkMTimeType TransferFunctionMTime(
    vtkVolumeProperty* property, int components, bool labels, bool mode2D);
  void SampleFunctions(vtkVolumeProperty* property, const double range[2], bool mode2D,
    bool labels, TransferFunctionTables& tables, cvr_transfer_function_desc& desc);
  bool SampleComponents(vtkVolumeProperty* property, int components,
    TransferFunctionTables& tables, cvr_transfer_function_desc& desc);
  /// The mask input (SetMaskInput) onto the volume; false: none to use.
  bool UpdateMask(const std::vector<vtkImageData*>& images);
  void ReportStrategySwitch(const cvr_render_settings& settings, const cvr_render_stats& stats);
  void RenderImages(vtkRenderer* ren, vtkVolume* vol, const std::vector<vtkImageData*>& images);
  /// RenderImages' parts: the context, volumes, transfer function and mask
  /// brought up to date (false: said why); the uploads sent so far, and a
  /// frame's counted against them (one that sent nothing has no upload
  /// time); the whole data's extent where the image is a piece (else
  /// nullptr); each block rendered front to back and composited (false:
  /// said why).
  bool UpdateInputs(vtkVolume* vol, const std::vector<vtkImageData*>& images, bool& masked);
  vtkTypeUInt64 UploadsSent() const;
  void CountUploads(vtkTypeUInt64 sentBefore, double uploadMs);
  const int* WholeExtentOf(const std::vector<vtkImageData*>& images, int whole[6]);
  bool RenderBlocks(vtkRenderer* ren, vtkVolume* vol, const std::vector<vtkImageData*>& images,
    const int* wholeExtent, cvr_view& view, cvr_render_settings& settings, const cvr_image& out,
    size_t pixels);
  /// Where a frame goes: the viewport (origin and size in pixels) and the
  /// image (ImageSampleDistance makes it coarser; FullSize: the same), kept
  /// on the GPU (Interop) or handed to the caller (RenderToImage), of one
  /// block or composited from several.
  struct FrameTarget
  {
    int X0 = 0, Y0 = 0, Width = 0, Height = 0, ImageWidth = 0, ImageHeight = 0;
    bool FullSize = true, Interop = false, ToImage = false, Single = true;
  };
  /// The opaque geometry's depth into the view (on the GPU with interop);
  /// the buffers the frame renders into; the image over the framebuffer.
  void ReadOpaqueDepth(vtkRenderer* ren, const FrameTarget& target, cvr_view& view);
  cvr_image FrameOutputs(const FrameTarget& target);
  void CompositeFrame(vtkRenderer* ren, const FrameTarget& target, bool extremeDepth);
  // ProjectionDepth: the frame's extremes rendered again through a ramp, as
  // window depths (blend: the frame's cvr_blend_mode)
  bool RenderExtremeDepth(vtkVolumeProperty* property, const cvr_view& view,
    const cvr_render_settings& settings, int blend, size_t pixels);
  /// The library's settings from this mapper's and the property's (blend: a
  /// cvr_blend_mode; wholeExtent: the whole data's when the image is a
  /// piece); false (said why) when the frame cannot be rendered.
  bool DescribeSettings(vtkRenderer* ren, vtkVolume* vol, const std::vector<vtkImageData*>& images,
    const int* wholeExtent, int blend, bool masked, cvr_render_settings& settings);
  // (DescribeSettings' parts: the blocks' one sample distance; the
  // strategies' and tuning's knobs as set on this mapper)
  double SharedSampleDistance(vtkRenderer* ren, vtkVolume* vol,
    const std::vector<vtkImageData*>& images, const int* wholeExtent);
  void DescribeStrategy(cvr_render_settings& settings);
  void DescribeConfiguration(const cvr_render_settings& settings, size_t blocks);
  // STRATEGY_AUTO: the cache directory, a reset or a sweep asked for, before
  // the frame; after it, what Auto used
  bool PrepareTuning(const cvr_view& view, const cvr_render_settings& settings,
    const cvr_image& image);
  void DescribeTuning(const cvr_view& view, const cvr_render_settings& settings);

  class vtkInternals;
  std::unique_ptr<vtkInternals> Internals;
};

#endif
