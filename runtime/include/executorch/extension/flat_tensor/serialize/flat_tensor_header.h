// The header of a .ptd (FlatTensor) file: where its FlatBuffer and its
// segment data lie. It starts kHeaderOffset bytes into the file, after the
// FlatBuffer's root offset and identifier ("FT01"), with the magic "FH01",
// a little-endian uint32 length, then four little-endian uint64 fields.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {

struct EXECUTORCH_API FlatTensorHeader {
  // Bytes of the head of the file Parse() needs.
  static constexpr size_t kNumHeadBytes = 64;
  // Where the header starts in the file.
  static constexpr size_t kHeaderOffset = 8;
  static constexpr size_t kMagicSize = 4;
  static constexpr char kMagic[kMagicSize] = {'F', 'H', '0', '1'};
  // magic, length, then the four uint64 fields below.
  static constexpr uint32_t kHeaderExpectedLength = 4 + 4 + 8 + 8 + 8 + 8;

  // Reads the header from the first `size` bytes of a .ptd file.
  // InvalidArgument when data is null or size < kNumHeadBytes; NotFound
  // without the magic; InvalidExternalData when the length field is shorter
  // than the fields above (a longer header is fine: its extra fields are
  // ignored). The offsets are returned as written: check them against the
  // file's size before use.
  static runtime::Result<FlatTensorHeader> Parse(const void* data, size_t size);

  uint64_t flatbuffer_offset;   // where the FlatTensor FlatBuffer starts
  uint64_t flatbuffer_size;     // its size in bytes
  uint64_t segment_base_offset; // where the first segment starts
  uint64_t segment_data_size;   // the bytes of all segments
};

} // namespace extension
} // namespace executorch
