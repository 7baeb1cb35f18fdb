// The optional extended header ("eh00") that follows the FlatBuffer's root
// offset and identifier when a .pte carries segments.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/result.h>

namespace executorch {
namespace runtime {
namespace internal {

struct PteHeader {
  bool present = false;
  uint64_t program_size = 0;
  uint64_t segment_base_offset = 0;
  uint64_t segment_data_size = 0; // 0 when the 24-byte form omits it
  bool has_segment_data_size = false;
};

// Bytes a reader needs to decide whether the header is there.
constexpr size_t kPteHeaderProbeSize = 64;

// Parses the header from the first bytes of a file of file_size bytes.
// NotPresent is not an error: present == false. Malformed -> InvalidProgram.
Result<PteHeader> parse_pte_header(const uint8_t* data, size_t size, size_t file_size);

// Little-endian reads that do not depend on alignment.
inline uint32_t read_le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline uint64_t read_le64(const uint8_t* p) {
  return uint64_t(read_le32(p)) | uint64_t(read_le32(p + 4)) << 32;
}

// a + b <= limit without overflow.
inline bool range_fits(uint64_t a, uint64_t b, uint64_t limit) {
  return a <= limit && b <= limit - a;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
