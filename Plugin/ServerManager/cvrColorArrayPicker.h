// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/**
 * Colours a representation by an array when it becomes "CUDA Volume".
 *
 * ParaView picks a colour array when a representation becomes "Volume"
 * without one (vtkSMPVRepresentationProxy::SetRepresentationType; a volume
 * shows nothing without scalars), but it knows that type by name only. Loaded
 * with the plugin, this does the same for "CUDA Volume" in every client (the
 * GUI, pvpython, pvbatch): the first point array of the data (else the first
 * cell array), with its transfer functions rescaled to the data, once the
 * change of type has been pushed. Setting the `Representation` property
 * directly picks one too, where ParaView's stock Volume does not.
 */
#ifndef cvrColorArrayPicker_h
#define cvrColorArrayPicker_h

class vtkSMProxy;

/// The plugin's initializer: watches every representation proxy registered
/// from now on, and those already there. Does nothing in a process without
/// a proxy manager (a server).
void cvrInstallColorArrayPicker();

/// Colours `representation` by its first point (else cell) array where it is
/// a CUDA Volume without scalar colouring; returns whether it did.
bool cvrPickColorArray(vtkSMProxy* representation);

#endif
