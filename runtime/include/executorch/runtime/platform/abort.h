// The abort hook: runtime_abort() is what ET_CHECK calls. Embedders may
// install their own handler (it must not return).
#pragma once

#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

using AbortHandler = void (*)();

ET_NORETURN EXECUTORCH_API void runtime_abort();
// Returns the previous handler; nullptr restores std::abort.
EXECUTORCH_API AbortHandler set_abort_handler(AbortHandler handler);

} // namespace runtime
} // namespace executorch
