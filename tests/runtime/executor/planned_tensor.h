// A memory-planned tensor for programs built with pte_writer in the
// executor tests: memory id 1 at a byte offset.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pte_writer.h"

namespace et_test {

inline ptewriter::TensorDesc planned(std::vector<int32_t> sizes, uint64_t offset,
                                     ptewriter::Dtype dtype = ptewriter::Dtype::Float) {
  ptewriter::TensorDesc t;
  t.scalar_type = int8_t(dtype);
  t.sizes = std::move(sizes);
  t.mem_id = 1;
  t.mem_offset = offset;
  return t;
}

} // namespace et_test
