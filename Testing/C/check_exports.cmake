# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# The public library exports exactly the functions cvr.h declares: every one
# of them, and nothing else (no internal function, no CUDA runtime symbol).
#   cmake -DNM=nm -DLIBRARY=libcvr.so -DHEADER=cvr.h -P check_exports.cmake
file(STRINGS "${HEADER}" declarations REGEX "^CVR_API ")
set(declared "")
foreach(declaration IN LISTS declarations)
  string(REGEX MATCH "(cvr_[a-z0-9_]+)\\(" name "${declaration}")
  list(APPEND declared "${CMAKE_MATCH_1}")
endforeach()
list(LENGTH declared count)
if(count LESS 30)
  message(FATAL_ERROR "found only ${count} CVR_API declarations in ${HEADER}")
endif()

execute_process(COMMAND "${NM}" -D --defined-only "${LIBRARY}"
  OUTPUT_VARIABLE table RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed: ${err}")
endif()
string(REPLACE "\n" ";" lines "${table}")
set(exported "")
foreach(line IN LISTS lines)
  # "address type name"; the version node the script names (type A) is not a symbol
  if(line MATCHES "^[0-9a-f]* ([A-Za-z]) ([^ @]+)" AND NOT CMAKE_MATCH_1 STREQUAL "A")
    list(APPEND exported "${CMAKE_MATCH_2}")
  endif()
endforeach()

set(extra ${exported})
list(REMOVE_ITEM extra ${declared})
set(missing ${declared})
list(REMOVE_ITEM missing ${exported})
if(extra OR missing)
  list(LENGTH extra n_extra)
  message(FATAL_ERROR "${LIBRARY}: ${n_extra} exported symbol(s) cvr.h does not declare: ${extra}\n"
    "cvr.h functions not exported: ${missing}")
endif()
list(LENGTH exported n)
message(STATUS "${LIBRARY}: exports exactly the ${n} functions of cvr.h")
