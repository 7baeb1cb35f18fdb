// Keeps a model's shim calls private to this backend. AOTInductor models
// import the shim as aoti_torch_*, the names libtorch's own C shim exports:
// in a process that also loads libtorch, whichever comes first in the
// global scope would serve both, and the other's tensors would reach the
// wrong code. So this library exports the shim as aoti_et_sh_* (the pragmas
// of shim_symbols.h), and before a model .so is opened every undefined
// aoti_torch_* reference in its dynamic string table is rewritten to that
// spelling. Both prefixes have 11 bytes, so no other byte of the file moves.
// Plain C++ (unit-tested without a GPU).
#pragma once

#include <cstddef>
#include <string>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

constexpr char kModelShimPrefix[] = "aoti_torch_";
constexpr char kPrivateShimPrefix[] = "aoti_et_sh_";
static_assert(sizeof(kModelShimPrefix) == sizeof(kPrivateShimPrefix),
              "the rewrite works in place: both prefixes have one length");

// Rewrites, in `so` (an ELF64 little-endian shared object of `size` bytes),
// the name of every undefined aoti_torch_* dynamic symbol to aoti_et_sh_*.
// On success sets *renamed to how many were rewritten (0 is fine: a model
// that calls no shim). Fails, leaving `so` unchanged and saying why, when the
// file is not an ELF64 little-endian object, any offset or size of the
// tables it reads lies outside the file, a name is not terminated, or the
// bytes to rewrite are shared with another name (string tail merging).
bool bind_shim_privately(unsigned char* so, size_t size, size_t* renamed, std::string* why);

// The name a model asked for: aoti_et_sh_X -> aoti_torch_X (for messages);
// any other name unchanged.
std::string model_facing_name(const std::string& symbol);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
