// FlatTensorHeader::Parse: the fixed-layout header of a .ptd file.
#include <executorch/extension/flat_tensor/serialize/flat_tensor_header.h>

#include <cstring>

#include <executorch/runtime/platform/log.h>

#include "executor/pte_header.h"

namespace executorch {
namespace extension {

using runtime::Error;
using runtime::Result;
using runtime::internal::read_le32;
using runtime::internal::read_le64;

Result<FlatTensorHeader> FlatTensorHeader::Parse(const void* data, size_t size) {
  if (data == nullptr || size < kNumHeadBytes) {
    return Error::InvalidArgument;
  }
  const auto* h = static_cast<const uint8_t*>(data) + kHeaderOffset;
  if (std::memcmp(h, kMagic, kMagicSize) != 0) {
    return Error::NotFound;
  }
  const uint32_t length = read_le32(h + 4);
  ET_CHECK_OR_RETURN_ERROR(length >= kHeaderExpectedLength, InvalidExternalData,
                           ".ptd header length %u < %u", length, kHeaderExpectedLength);
  FlatTensorHeader out;
  out.flatbuffer_offset = read_le64(h + 8);
  out.flatbuffer_size = read_le64(h + 16);
  out.segment_base_offset = read_le64(h + 24);
  out.segment_data_size = read_le64(h + 32);
  return out;
}

} // namespace extension
} // namespace executorch
