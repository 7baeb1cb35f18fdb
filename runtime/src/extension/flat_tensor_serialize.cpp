// save_ptd: the FlatTensor FlatBuffer, prefixed so that it reads from the
// start of the file, the FH01 header after its identifier, the FlatBuffer
// again, whole, at kFlatbufferOffset, then the aligned tensor segments.
#include <executorch/extension/flat_tensor/serialize/serialize.h>

#include <cstring>
#include <fstream>
#include <vector>

#include <executorch/extension/flat_tensor/serialize/flat_tensor_header.h>
#include <executorch/runtime/platform/log.h>

#include "flat_tensor_generated.h"

namespace executorch {
namespace extension {
namespace flat_tensor {

namespace ft = flat_tensor_flatbuffer;
using ::executorch::aten::Tensor;
using runtime::Error;

namespace {

constexpr size_t kFlatbufferOffset = 48; // 8 bytes of prefix, the 40-byte header

size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

void put_le(uint8_t* at, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) at[i] = uint8_t(v >> (8 * i));
}

bool write_zeros(std::ostream& out, size_t n) {
  static const char zeros[64] = {};
  while (n > 0 && out) {
    const size_t k = n < sizeof(zeros) ? n : sizeof(zeros);
    out.write(zeros, std::streamsize(k));
    n -= k;
  }
  return bool(out);
}

} // namespace

Error save_ptd(std::ostream& out, const std::map<std::string, Tensor>& tensor_map,
               const size_t tensor_alignment) {
  ET_CHECK_OR_RETURN_ERROR(
      tensor_alignment != 0 && (tensor_alignment & (tensor_alignment - 1)) == 0, InvalidArgument,
      "save_ptd: alignment %zu is not a power of two", tensor_alignment);
  flatbuffers::FlatBufferBuilder b(1024);
  std::vector<flatbuffers::Offset<ft::DataSegment>> segments;
  std::vector<flatbuffers::Offset<ft::NamedData>> named;
  size_t end = 0; // end of the last segment
  uint32_t index = 0;
  for (const auto& [key, t] : tensor_map) {
    const size_t nbytes = t.nbytes();
    ET_CHECK_OR_RETURN_ERROR(nbytes == 0 || t.const_data_ptr() != nullptr, InvalidArgument,
                             "save_ptd: tensor '%s' has no data", key.c_str());
    const size_t offset = align_up(end, tensor_alignment);
    segments.push_back(ft::CreateDataSegment(b, offset, nbytes));
    end = offset + nbytes;
    const auto sizes = t.sizes();
    const auto order = t.dim_order();
    auto layout = ft::CreateTensorLayout(
        b, static_cast<executorch_flatbuffer::ScalarType>(t.scalar_type()),
        b.CreateVector(sizes.data(), sizes.size()), b.CreateVector(order.data(), order.size()));
    named.push_back(ft::CreateNamedData(b, b.CreateString(key), index, layout));
    ++index;
  }
  auto root =
      ft::CreateFlatTensor(b, kSchemaVersion, b.CreateVector(segments), b.CreateVector(named));
  b.Finish(root, ft::FlatTensorIdentifier());
  const uint8_t* fb = b.GetBufferPointer();
  const size_t fb_size = b.GetSize();
  const size_t segment_base = align_up(kFlatbufferOffset + fb_size, tensor_alignment);

  uint8_t head[kFlatbufferOffset] = {};
  uint32_t root_offset = 0;
  std::memcpy(&root_offset, fb, 4); // little-endian, as FlatBuffers writes it
  put_le(head, uint64_t(root_offset) + kFlatbufferOffset, 4);
  std::memcpy(head + 4, fb + 4, 4); // "FT01"
  uint8_t* h = head + FlatTensorHeader::kHeaderOffset;
  std::memcpy(h, FlatTensorHeader::kMagic, FlatTensorHeader::kMagicSize);
  put_le(h + 4, FlatTensorHeader::kHeaderExpectedLength, 4);
  put_le(h + 8, kFlatbufferOffset, 8);
  put_le(h + 16, fb_size, 8);
  put_le(h + 24, segment_base, 8);
  put_le(h + 32, end, 8);
  out.write(reinterpret_cast<const char*>(head), sizeof(head));
  out.write(reinterpret_cast<const char*>(fb), std::streamsize(fb_size));
  bool ok = write_zeros(out, segment_base - kFlatbufferOffset - fb_size);
  size_t at = 0;
  for (const auto& entry : tensor_map) {
    const Tensor& t = entry.second;
    const size_t offset = align_up(at, tensor_alignment);
    ok = ok && write_zeros(out, offset - at);
    out.write(static_cast<const char*>(t.const_data_ptr()), std::streamsize(t.nbytes()));
    at = offset + t.nbytes();
  }
  ok = ok && bool(out);
  ET_CHECK_OR_RETURN_ERROR(ok, AccessFailed, "save_ptd: cannot write the stream");
  return Error::Ok;
}

Error save_ptd(const std::string& path, const std::map<std::string, Tensor>& tensor_map,
               const size_t tensor_alignment) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  ET_CHECK_OR_RETURN_ERROR(out.is_open(), AccessFailed, "save_ptd: cannot open %s", path.c_str());
  ET_CHECK_OK_OR_RETURN_ERROR(save_ptd(out, tensor_map, tensor_alignment));
  out.close();
  ET_CHECK_OR_RETURN_ERROR(!out.fail(), AccessFailed, "save_ptd: cannot write %s", path.c_str());
  return Error::Ok;
}

} // namespace flat_tensor
} // namespace extension
} // namespace executorch
