// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "vtkCudaVolumeStatisticsInformation.h"

#include "vtkClientServerStream.h"
#include "vtkCudaVolumeRepresentation.h"
#include "vtkMultiProcessController.h"
#include "vtkMultiProcessStream.h"
#include "vtkObjectFactory.h"

vtkStandardNewMacro(vtkCudaVolumeStatisticsInformation);

vtkCudaVolumeStatisticsInformation::vtkCudaVolumeStatisticsInformation()
{
  this->RootOnly = 0; // every rank renders its piece
}

vtkCudaVolumeStatisticsInformation::~vtkCudaVolumeStatisticsInformation() = default;

std::string vtkCudaVolumeStatisticsInformation::GetText() const
{
  if (this->Lines.size() == 1)
  {
    return this->Lines.begin()->second;
  }
  std::string text;
  for (const auto& line : this->Lines)
  {
    text += (text.empty() ? "" : "\n") + ("rank " + std::to_string(line.first) + ": ") + line.second;
  }
  return text;
}

void vtkCudaVolumeStatisticsInformation::CopyFromObject(vtkObject*)
{
  this->Lines.clear();
  if (auto* representation = vtkCudaVolumeRepresentation::FindByIdentifier(this->Representation))
  {
    auto* controller = vtkMultiProcessController::GetGlobalController();
    const int rank = controller ? controller->GetLocalProcessId() : 0;
    this->Lines[rank] = representation->GetLocalFrameStatistics();
  }
}

void vtkCudaVolumeStatisticsInformation::AddInformation(vtkPVInformation* other)
{
  if (auto* info = vtkCudaVolumeStatisticsInformation::SafeDownCast(other))
  {
    this->Lines.insert(info->Lines.begin(), info->Lines.end());
  }
}

void vtkCudaVolumeStatisticsInformation::CopyToStream(vtkClientServerStream* stream)
{
  stream->Reset();
  *stream << vtkClientServerStream::Reply << static_cast<int>(this->Lines.size());
  for (const auto& line : this->Lines)
  {
    *stream << line.first << line.second.c_str();
  }
  *stream << vtkClientServerStream::End;
}

void vtkCudaVolumeStatisticsInformation::CopyFromStream(const vtkClientServerStream* stream)
{
  this->Lines.clear();
  int count = 0;
  if (!stream->GetArgument(0, 0, &count))
  {
    return;
  }
  for (int i = 0; i < count; ++i)
  {
    int rank = 0;
    const char* text = nullptr;
    if (stream->GetArgument(0, 1 + 2 * i, &rank) && stream->GetArgument(0, 2 + 2 * i, &text))
    {
      this->Lines[rank] = text ? text : "";
    }
  }
}

void vtkCudaVolumeStatisticsInformation::CopyParametersToStream(vtkMultiProcessStream& stream)
{
  stream << this->Representation;
}

void vtkCudaVolumeStatisticsInformation::CopyParametersFromStream(vtkMultiProcessStream& stream)
{
  stream >> this->Representation;
}

void vtkCudaVolumeStatisticsInformation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Representation: " << this->Representation << "\n";
  os << indent << "Ranks: " << this->Lines.size() << "\n";
}
