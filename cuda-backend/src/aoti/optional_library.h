// A library the backend opens only at its first use (cuBLAS, cuDNN), so that
// the backend loads without it: opened RTLD_LOCAL (its symbols stay out of
// the global scope; the model .so files resolve nothing from it) and never
// closed (handles and function pointers made from it live until exit).
#pragma once

#include <cstddef>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// The handle, or nullptr with `why` set to "<needed_for> but <lib_name>
// could not be loaded (<dlerror>)".
void* open_optional_library(const char* lib_name, const char* needed_for, char* why,
                            size_t why_size);

// The symbol, or nullptr with `why` set to "<lib_name> lacks the symbol
// <symbol><hint>".
void* resolve_optional_symbol(void* lib, const char* lib_name, const char* symbol, const char* hint,
                              char* why, size_t why_size);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
