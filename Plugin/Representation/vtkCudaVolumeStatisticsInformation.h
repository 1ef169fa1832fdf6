// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/**
 * @class   vtkCudaVolumeStatisticsInformation
 * @brief   The last frame's statistics of a CUDA Volume representation on
 *          every rank that renders it.
 *
 * Gathered through ParaView's session (vtkSMSession::GatherInformation) with
 * no object id: the representation is named by its unique identifier, which
 * ParaView gives the same on every process (vtkPVDataRepresentation). Each
 * rank adds its own line; the gathered text has one line a rank, in rank
 * order. It lets a client connected to pvserver, or rank 0 of pvbatch under
 * MPI, show what the ranks that rendered saw.
 */
#ifndef vtkCudaVolumeStatisticsInformation_h
#define vtkCudaVolumeStatisticsInformation_h

#include "vtkCudaVolumeRepresentationModule.h" // For export macro
#include "vtkPVInformation.h"

#include <map>    // For the lines by rank
#include <string> // For the lines

class VTKCUDAVOLUMEREPRESENTATION_EXPORT vtkCudaVolumeStatisticsInformation
  : public vtkPVInformation
{
public:
  static vtkCudaVolumeStatisticsInformation* New();
  vtkTypeMacro(vtkCudaVolumeStatisticsInformation, vtkPVInformation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /// The representation: its vtkPVDataRepresentation::GetUniqueIdentifier().
  vtkSetMacro(Representation, unsigned int);
  vtkGetMacro(Representation, unsigned int);

  /// The ranks that hold the representation, gathered so far.
  int GetNumberOfRanks() const { return static_cast<int>(this->Lines.size()); }

  /// "rank R: <statistics>", a line a rank in rank order; with one rank its
  /// statistics alone.
  std::string GetText() const;

  void CopyFromObject(vtkObject*) override;
  void AddInformation(vtkPVInformation*) override;
  void CopyToStream(vtkClientServerStream*) override;
  void CopyFromStream(const vtkClientServerStream*) override;
  void CopyParametersToStream(vtkMultiProcessStream&) override;
  void CopyParametersFromStream(vtkMultiProcessStream&) override;

protected:
  vtkCudaVolumeStatisticsInformation();
  ~vtkCudaVolumeStatisticsInformation() override;

private:
  vtkCudaVolumeStatisticsInformation(const vtkCudaVolumeStatisticsInformation&) = delete;
  void operator=(const vtkCudaVolumeStatisticsInformation&) = delete;

  unsigned int Representation = 0;
  std::map<int, std::string> Lines;
};

#endif
