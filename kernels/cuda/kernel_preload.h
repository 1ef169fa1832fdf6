// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Loading AUTO's candidate kernels ahead of their first measured frame.
 *
 * CUDA loads a kernel on its first launch (lazy module loading, the default
 * since CUDA 12.2), its module with the first: milliseconds for warp
 * marching, tens of them for a compressed module (doc/tuning.md, kernel
 * loading). Tuning launches a new candidate every frame, so each load would
 * be a visible stall. A helper thread of the CUDA backend asks the driver
 * about each instance a candidate may launch (cvr_cuda_load_kernels), which
 * loads it into the device's primary context, the one every cvr_context on
 * that device shares, while the caller goes on rendering. It launches
 * nothing and needs no context, volume or frame of its own. With
 * CVR_DEBUG_PRELOAD=1 in the environment it writes each step's time to
 * stderr: since it started, and how much of that the caller's holds kept it
 * waiting. */
#ifndef CVR_KERNEL_PRELOAD_H
#define CVR_KERNEL_PRELOAD_H

#include "cuda_backend.h"

#define CVR_PRELOAD_MAX_CONFIGS 40

typedef struct cvr_kernel_preload cvr_kernel_preload;

/* Starts loading, on CUDA device `device`, the kernels of `uses` in the
 * order given (a copy is kept). NULL when no thread could be started: the
 * frames then load their kernels themselves. */
cvr_kernel_preload *cvr_kernel_preload_start(int device, const cvr_kernel_use *uses, int count);
/* 1 once every use's kernels have been loaded (or failed to: then the
 * frame's own launch reports the problem). Never blocks. */
int cvr_kernel_preload_done(const cvr_kernel_preload *p);
/* How many of the uses, in the order given, have their kernels loaded.
 * Never blocks. */
int cvr_kernel_preload_loaded(const cvr_kernel_preload *p);
/* Holds the helper between two loads for up to `ms` milliseconds (renewed
 * by the next hold), so that frames measured meanwhile overlap no load (a
 * load stalls the device now and then: frames measured during loads ran up
 * to 2x slow): 1 when no load is under way (or the helper is
 * done), 0 when one is (it finishes, then the helper waits out the hold).
 * Never blocks; release lets the helper go on at once. */
int cvr_kernel_preload_hold(cvr_kernel_preload *p, double ms);
void cvr_kernel_preload_release(cvr_kernel_preload *p);
/* Waits for the thread and frees p (NULL is fine). */
void cvr_kernel_preload_finish(cvr_kernel_preload *p);

#endif
