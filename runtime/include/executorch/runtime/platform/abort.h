// The abort hook: runtime_abort() is what ET_CHECK calls. It runs the
// handler installed with set_abort_handler(), if any (it must not return),
// and otherwise the PAL's et_pal_abort() (platform.h).
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
