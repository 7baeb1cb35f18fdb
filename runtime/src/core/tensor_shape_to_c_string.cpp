// tensor_shape_to_c_string: "(2, 3, 4)" into a fixed-size array.
#include <executorch/runtime/core/exec_aten/util/tensor_shape_to_c_string.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace executorch {
namespace runtime {
namespace {

using ShapeString = std::array<char, kTensorShapeStringSizeLimit>;

// Appends text at out[pos], keeping the NUL; the buffer is sized for the
// worst case, so this never truncates for shapes within the limit.
size_t append(ShapeString& out, size_t pos, const char* text) {
  const int written = std::snprintf(out.data() + pos, out.size() - pos, "%s", text);
  return written < 0 ? pos : std::min(out.size() - 1, pos + static_cast<size_t>(written));
}

template <typename T>
ShapeString shape_to_string(Span<const T> shape) {
  ShapeString out{};
  if (shape.size() > kTensorDimensionLimit) {
    append(out, 0, "(ERR: tensor ndim exceeds limit)");
    return out;
  }
  size_t pos = append(out, 0, "(");
  for (size_t i = 0; i < shape.size(); ++i) {
    const T size = shape[i];
    char item[24];
    if (size < 0 || static_cast<uint64_t>(size) > internal::kMaximumPrintableTensorShapeElement) {
      std::snprintf(item, sizeof(item), "%s", "ERR");
    } else {
      std::snprintf(item, sizeof(item), "%" PRIu64, static_cast<uint64_t>(size));
    }
    pos = append(out, pos, i == 0 ? "" : ", ");
    pos = append(out, pos, item);
  }
  append(out, pos, ")");
  return out;
}

} // namespace

std::array<char, kTensorShapeStringSizeLimit> tensor_shape_to_c_string(
    Span<const std::int32_t> shape) {
  return shape_to_string(shape);
}

std::array<char, kTensorShapeStringSizeLimit> tensor_shape_to_c_string(
    Span<const std::int64_t> shape) {
  return shape_to_string(shape);
}

} // namespace runtime
} // namespace executorch
