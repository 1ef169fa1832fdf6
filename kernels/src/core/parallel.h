// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Host loops over large arrays split across threads (volume uploads:
 * conversion, range, staging copies), so that they run at memory speed
 * rather than one core's. */
#ifndef CVR_PARALLEL_H
#define CVR_PARALLEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most parts a loop is split into. */
#define CVR_PARALLEL_MAX_PARTS 64

/* Calls part(arg, p, begin, end) for p = 0 .. parts - 1 over consecutive
 * ranges covering [0, count), each a multiple of `grain` items but the last,
 * on up to `threads` threads (the caller's among them; the parts a thread
 * that cannot start would have run run on the caller). Returns the number
 * of parts (at least 1; count 0 makes one empty part), so that callers can
 * merge per-part results. `min_part`: no part is smaller than that many
 * items (thread start-up would cost more than it saves). */
typedef void (*cvr_part_fn)(void *arg, int part, size_t begin, size_t end);
int cvr_parallel_for(int threads, size_t count, size_t grain, size_t min_part, cvr_part_fn part,
                     void *arg);

#ifdef __cplusplus
}
#endif

#endif
