#include "executor/pte_header.h"

#include <cstring>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {
namespace internal {

Result<PteHeader> parse_pte_header(const uint8_t* data, size_t size, size_t file_size) {
  PteHeader h;
  if (size < 16 || std::memcmp(data + 8, "eh00", 4) != 0) {
    return h;
  }
  const uint32_t length = read_le32(data + 12);
  if (length < 24 || size < 8 + size_t(length >= 32 ? 32 : 24)) {
    ET_LOG(Error, "Extended header length %u is invalid or longer than the %zu bytes read", length,
           size);
    return Error::InvalidProgram;
  }
  h.present = true;
  h.program_size = read_le64(data + 16);
  h.segment_base_offset = read_le64(data + 24);
  if (length >= 32) {
    h.segment_data_size = read_le64(data + 32);
    h.has_segment_data_size = true;
  }
  // 64-bit sum: a length near 2^32 must not wrap to a small number.
  if (h.program_size < 8 + uint64_t(length)) {
    ET_LOG(Error, "Extended header length %u is longer than program_size %llu", length,
           (unsigned long long)h.program_size);
    return Error::InvalidProgram;
  }
  if (h.program_size > file_size) {
    ET_LOG(Error, "Extended header: program_size %llu outside file of %zu bytes",
           (unsigned long long)h.program_size, file_size);
    return Error::InvalidProgram;
  }
  // Segments follow the program; they never overlap it.
  if (h.segment_base_offset < h.program_size ||
      !range_fits(h.segment_base_offset, h.segment_data_size, file_size)) {
    ET_LOG(Error,
           "Extended header: segment_base_offset %llu + segment_data_size %llu "
           "outside file of %zu bytes (program_size %llu)",
           (unsigned long long)h.segment_base_offset, (unsigned long long)h.segment_data_size,
           file_size, (unsigned long long)h.program_size);
    return Error::InvalidProgram;
  }
  if (!h.has_segment_data_size) {
    // The 24-byte form: segments run to the end of the file.
    h.segment_data_size = file_size - h.segment_base_offset;
  }
  return h;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
