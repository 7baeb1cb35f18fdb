#include "aoti/weights_check.h"

#include <executorch/runtime/platform/log.h>

#include "aoti/dtype.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

using runtime::Error;

namespace {

// Inductor pads each constant to this when some constant lives on the CPU.
constexpr uint64_t kPaddedAlignment = 64;

bool add_checked(uint64_t a, uint64_t b, uint64_t* out) {
  return !__builtin_add_overflow(a, b, out);
}

uint64_t round_up(uint64_t n) {
  return (n + kPaddedAlignment - 1) / kPaddedAlignment * kPaddedAlignment;
}

} // namespace

Error check_weights_blob(const std::vector<ConstantInfo>& constants, size_t blob_size,
                         const char* label) {
  uint64_t packed = 0, padded = 0;
  for (size_t i = 0; i < constants.size(); ++i) {
    const ConstantInfo& c = constants[i];
    if (c.from_folded) continue;
    const size_t elem = dtype_size(c.dtype);
    ET_CHECK_OR_RETURN_ERROR(elem != 0, InvalidExternalData,
                             "CudaBackend[%s]: constant %zu '%s' has dtype %d, which this "
                             "backend does not know",
                             label, i, c.name.c_str(), static_cast<int>(c.dtype));
    ET_CHECK_OR_RETURN_ERROR(c.data_size % elem == 0, InvalidExternalData,
                             "CudaBackend[%s]: constant %zu '%s' is %llu bytes, not a whole "
                             "number of %zu-byte elements (dtype %d)",
                             label, i, c.name.c_str(), static_cast<unsigned long long>(c.data_size),
                             elem, static_cast<int>(c.dtype));
    uint64_t end = 0;
    const bool fits = add_checked(packed, c.data_size, &end) && end <= blob_size;
    ET_CHECK_OR_RETURN_ERROR(fits, InvalidExternalData,
                             "CudaBackend[%s]: constant %zu '%s' (%llu bytes at offset %llu) "
                             "runs past the end of the %zu-byte weights blob: the .ptd was "
                             "not written for this model",
                             label, i, c.name.c_str(), static_cast<unsigned long long>(c.data_size),
                             static_cast<unsigned long long>(packed), blob_size);
    packed = end;
    // The padded total is at most data_size + 63 per constant: no overflow
    // once the packed one fit in a size_t (checked above, blob_size bound).
    padded += round_up(c.data_size);
  }
  ET_CHECK_OR_RETURN_ERROR(
      blob_size == packed || blob_size == padded, InvalidExternalData,
      "CudaBackend[%s]: the weights blob is %zu bytes but the model's constants take %llu "
      "(%llu padded): the .ptd was not written for this model",
      label, blob_size, static_cast<unsigned long long>(packed),
      static_cast<unsigned long long>(padded));
  return Error::Ok;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
