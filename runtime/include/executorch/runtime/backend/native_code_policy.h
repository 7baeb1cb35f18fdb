// Native code in programs (this project's extension; upstream has no such
// header). Some delegates carry machine code that runs when the program is
// loaded: a CudaBackend delegate holds an AOTInductor-built shared object
// that the backend dlopens in init. Checking a file's structure cannot make
// that code safe, so a service that loads files it did not make can refuse
// such programs outright.
//
// Refusal is on when set_refuse_native_code(true) was called or when the
// environment variable EXECUTORCH_REFUSE_NATIVE_CODE is set to anything but
// "" or "0" (read at each method load). An application cannot turn the
// environment's refusal off: it is the administrator's floor. A refused
// delegate makes Program::load_method fail with Error::NotSupported and a
// log line naming the backend, before the backend sees the payload.
#pragma once

#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

/// Refuses (true) or allows (false) programs whose delegates carry native
/// code, for this process. Thread-safe; affects methods loaded afterwards.
EXECUTORCH_API void set_refuse_native_code(bool refuse);

/// Whether programs carrying native code are refused now: the value set
/// above, or EXECUTORCH_REFUSE_NATIVE_CODE in the environment.
EXECUTORCH_API bool refuses_native_code();

/// Whether a delegate for `backend_id` carries native code (by backend id:
/// the backends of this project that do; false for nullptr or any other id).
EXECUTORCH_API bool backend_runs_native_code(const char* backend_id);

/// For a native-code backend, what its delegates run, as a phrase
/// ("runs a shared object from the program when it is loaded"); nullptr
/// for any other backend.
EXECUTORCH_API const char* backend_native_code_description(const char* backend_id);

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
