// The XH00 header in front of the XNNPACK graph: where the FlatBuffer and the
// constant region lie inside the blob.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/result.h>

namespace xnnpack_payload {

struct ByteSpan {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

struct Layout {
  bool has_header = false;
  ByteSpan flatbuffer;
  ByteSpan constants; // empty without a header
};

// Splits the blob; with no XH00 magic the whole blob is the FlatBuffer. Every
// offset and size is checked against `size`, without overflow on 32-bit.
executorch::runtime::Result<Layout> split_payload(const uint8_t* data, size_t size);

} // namespace xnnpack_payload
