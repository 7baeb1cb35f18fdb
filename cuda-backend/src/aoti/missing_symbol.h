// When dlopen of a model .so fails on a CUDA symbol the installed runtime
// or driver lacks (a model compiled against a newer CUDA): the line that
// names the symbol, the installed version and, for the symbols known here,
// the first version that has it. Plain C++ (unit-tested without a GPU).
#pragma once

#include <string>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// The symbol a dlerror() text says could not be resolved ("undefined
// symbol: NAME"), or "" for another error.
std::string undefined_symbol(const char* dlerror_text);

// The CUDA version (1000 * major + 10 * minor, as cudaRuntimeGetVersion
// gives it) that introduced `symbol`, or 0 when not known here.
int first_cuda_version_with(const std::string& symbol);

// "12.4" for 12040.
std::string cuda_version_text(int version);

// One sentence for an unresolved CUDA symbol ("" when `symbol` is not a
// CUDA runtime (cuda*) or driver (cu*) entry point): which library lacks
// it, its installed version, and the minimum version when known.
std::string explain_missing_cuda_symbol(const std::string& symbol, int runtime_version,
                                        int driver_version);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
