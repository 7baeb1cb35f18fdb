// Checks an AOTInductor weights blob (the .ptd entry handed to
// AOTInductorModelUpdateConstantsFromBlob, which takes no size) against the
// constants the model says it will read from it, so that a blob from another
// model fails init with an Error instead of being over-read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <executorch/runtime/core/error.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// One constant as the model's container reports it.
struct ConstantInfo {
  std::string name;
  int32_t dtype = 0;        // c10 code
  uint64_t data_size = 0;   // bytes it takes in the blob
  bool from_folded = false; // made by constant folding: not in the blob
  std::string fqn;          // original FQN ("" when the model has none)
};

// The blob holds the non-folded constants back to back in table order, each
// data_size bytes (or each padded to 64 bytes when the model keeps some
// constants on the CPU). Ok when `blob_size` is one of those two totals and
// every constant has a known dtype and a whole number of elements;
// InvalidExternalData otherwise, with one log line naming the first
// constant that does not fit (or the sizes when the blob is too long).
runtime::Error check_weights_blob(const std::vector<ConstantInfo>& constants, size_t blob_size,
                                  const char* label);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
