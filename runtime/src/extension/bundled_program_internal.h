// The bundled-program reader behind devtools/bundled_program.h, with the
// buffer's length where the caller knows it (BundledModule does). Internal to
// libexecutorch.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/executor/method.h>

#include "bundled_program_generated.h"

namespace executorch {
namespace bundled_program {
namespace internal {

// The length to give when the caller gave none: the buffer is then read as
// one complete bundled program, as far as the format allows (2 GiB).
constexpr size_t kUnknownSize = SIZE_MAX;

// The bundled program at `data`, verified within `size` bytes. NotSupported
// when the identifier is not there, InvalidProgram when verification fails,
// InvalidArgument for a null or misaligned buffer.
::executorch::runtime::Result<const bundled_program_flatbuffer::BundledProgram*> verified_bundle(
    const void* data, size_t size);

::executorch::runtime::Error load_bundled_input(::executorch::runtime::Method& method,
                                                const void* data, size_t size, size_t testset_idx);

::executorch::runtime::Error verify_method_outputs(::executorch::runtime::Method& method,
                                                   const void* data, size_t size,
                                                   size_t testset_idx, double rtol, double atol);

} // namespace internal
} // namespace bundled_program
} // namespace executorch
