// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/**
 * The stock Volume Rendering properties as CUDA Volume shows them.
 *
 * ParaView shows its Volume Rendering group (Shade, the scattering
 * properties, a separate opacity array, ...) only for the Volume and NVIDIA
 * IndeX representations. The plugin's XML exposes the same properties of
 * the CUDA Volume subproxy again as Cuda* aliases (CudaShade, ...), shown
 * for CUDA Volume. ParaView shares the stock values one way, into the
 * subproxy; this copies an alias's value back into the stock property, so
 * the representation keeps one value, in its state files too.
 */
#ifndef cvrStockAliases_h
#define cvrStockAliases_h

class vtkSMProxy;

/// Keeps the stock properties of a representation proxy equal to the
/// aliases set on it. Does nothing to a proxy without them.
void cvrWatchStockAliases(vtkSMProxy* representation);

#endif
