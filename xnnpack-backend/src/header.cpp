#include "header.h"

#include <cstring>

#include <executorch/runtime/platform/log.h>

namespace xnnpack_payload {

using executorch::runtime::Error;
using executorch::runtime::Result;

namespace {

// Header fields (little-endian): magic at 4, then u16 header length, u32
// FlatBuffer offset, u32 FlatBuffer size, u32 constant offset, u64 constant
// size; 30 bytes in all.
constexpr size_t kMagicOffset = 4;
constexpr size_t kMinHeaderSize = 30;

uint64_t read_le(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = n; i > 0; --i) {
    v = (v << 8) | p[i - 1];
  }
  return v;
}

bool has_magic(const uint8_t* data, size_t size) {
  return size >= kMinHeaderSize && std::memcmp(data + kMagicOffset, "XH00", 4) == 0;
}

// [offset, offset + length) inside [0, size), computed in 64 bits.
bool in_bounds(uint64_t offset, uint64_t length, size_t size) {
  return offset <= size && length <= static_cast<uint64_t>(size) - offset;
}

} // namespace

Result<Layout> split_payload(const uint8_t* data, size_t size) {
  if (data == nullptr) {
    ET_LOG(Error, "XNNPACK payload: no data");
    return Error::InvalidArgument;
  }
  Layout layout;
  if (!has_magic(data, size)) {
    layout.flatbuffer = {data, size};
    return layout;
  }
  const uint64_t header_size = read_le(data + 8, 2);
  const uint64_t fb_offset = read_le(data + 10, 4);
  const uint64_t fb_size = read_le(data + 14, 4);
  const uint64_t const_offset = read_le(data + 18, 4);
  const uint64_t const_size = read_le(data + 22, 8);
  if (header_size < kMinHeaderSize || header_size > size) {
    ET_LOG(Error, "XNNPACK payload: header length %u of a %zu-byte blob",
           static_cast<unsigned>(header_size), size);
    return Error::InvalidProgram;
  }
  if (fb_offset < header_size || !in_bounds(fb_offset, fb_size, size)) {
    ET_LOG(Error, "XNNPACK payload: FlatBuffer at %u+%u outside the %zu-byte blob",
           static_cast<unsigned>(fb_offset), static_cast<unsigned>(fb_size), size);
    return Error::InvalidProgram;
  }
  if (const_offset < header_size || !in_bounds(const_offset, const_size, size)) {
    ET_LOG(Error, "XNNPACK payload: constant region at %u+%llu outside the %zu-byte blob",
           static_cast<unsigned>(const_offset), static_cast<unsigned long long>(const_size), size);
    return Error::InvalidProgram;
  }
  layout.has_header = true;
  layout.flatbuffer = {data + fb_offset, static_cast<size_t>(fb_size)};
  layout.constants = {data + const_offset, static_cast<size_t>(const_size)};
  return layout;
}

} // namespace xnnpack_payload
