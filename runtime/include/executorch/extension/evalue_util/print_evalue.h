// Printing EValues to ostreams: `std::cout << evalue`. Long tensors and
// lists show only their first and last evalue_edge_items elements.
#pragma once

#include <ostream>

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

EXECUTORCH_API std::ostream& operator<<(std::ostream& os, const EValue& value);

} // namespace runtime

namespace extension {

namespace internal {
EXECUTORCH_API void set_edge_items(std::ostream& os, long edge_items);
EXECUTORCH_API long get_edge_items(std::ostream& os);
} // namespace internal

// Stream manipulator: `os << evalue_edge_items(3) << ev` prints at most three
// leading and three trailing elements of long sequences on that stream.
class evalue_edge_items final {
 public:
  explicit evalue_edge_items(long edge_items) : edge_items_(edge_items) {}
  friend std::ostream& operator<<(std::ostream& os, const evalue_edge_items& e) {
    internal::set_edge_items(os, e.edge_items_);
    return os;
  }

 private:
  const long edge_items_;
};

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace util {
using ::executorch::extension::evalue_edge_items;
} // namespace util
} // namespace executor
} // namespace torch
