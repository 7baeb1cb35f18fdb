#include <executorch/runtime/core/tag.h>

#include <cstdio>

namespace executorch {
namespace runtime {

size_t tag_to_string(Tag tag, char* buf, size_t n) {
  const int written = std::snprintf(buf, n, "%s", tag_to_string(tag));
  return written < 0 ? 0 : static_cast<size_t>(written);
}

} // namespace runtime
} // namespace executorch
