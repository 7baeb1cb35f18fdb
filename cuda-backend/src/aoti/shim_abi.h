// What every shim source file needs besides the declarations in aoti/shim.h:
// the definition macro, the result codes and the one-line error report
// (shim_log.h).
#pragma once

#include <cstdint>
#include <cstdio>

#include "aoti/shim.h"
#include "aoti/shim_log.h"
#include "shim_internal.h"

// On every definition: extern "C" (a definition that drifts from its
// declaration in aoti/shim.h is then a compile error, not an overload) and
// default visibility.
#define AOTI_SHIM extern "C" AOTI_SHIM_API
static constexpr AOTITorchError kOk = 0;
static constexpr AOTITorchError kFail = 1;

// First line of every shim function taking a handle: a null handle is an
// error; with the trace on, a handle that is not live is reported.
#define AOTI_CHECK_HANDLE(h)                                               \
  do {                                                                     \
    if ((h) == nullptr) {                                                  \
      log_err(__func__, "null tensor handle");                             \
      return kFail;                                                        \
    }                                                                      \
    if (::executorch::backends::cuda::aoti::trace_enabled() &&             \
        !::executorch::backends::cuda::aoti::trace_is_live(h)) {           \
      AOTI_TRACE("%s: handle %p is NOT LIVE (freed or foreign)", __func__, \
                 static_cast<const void*>(h));                             \
    }                                                                      \
  } while (0)
