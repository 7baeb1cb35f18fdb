// Serializes a .ptd: the FH01 header, the FlatTensor FlatBuffer at offset
// 48, then the tensor segments aligned to 128.
#include <cstring>

#include "flat_tensor_generated.h"
#include "pte_writer.h"

namespace ptewriter {

namespace ft = flat_tensor_flatbuffer;

namespace {
size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }
void put_le(std::vector<uint8_t>& out, size_t at, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) out[at + i] = uint8_t(v >> (8 * i));
}
} // namespace

std::vector<uint8_t> serialize_flat_tensor(const std::vector<NamedTensorDesc>& tensors) {
  flatbuffers::FlatBufferBuilder b(1024);
  std::vector<flatbuffers::Offset<ft::DataSegment>> segs;
  std::vector<flatbuffers::Offset<ft::NamedData>> named;
  size_t at = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& t = tensors[i];
    segs.push_back(ft::CreateDataSegment(b, at, t.data.size()));
    at = align_up(at + t.data.size(), 128);
    flatbuffers::Offset<ft::TensorLayout> layout = 0;
    if (t.has_layout) {
      std::vector<uint8_t> order = t.dim_order;
      if (order.empty()) {
        for (size_t d = 0; d < t.sizes.size(); ++d) order.push_back(uint8_t(d));
      }
      layout = ft::CreateTensorLayout(b, executorch_flatbuffer::ScalarType(t.scalar_type),
                                      b.CreateVector(t.sizes), b.CreateVector(order));
    }
    named.push_back(ft::CreateNamedData(b, b.CreateString(t.key), uint32_t(i), layout));
  }
  const size_t seg_total = at;
  auto root = ft::CreateFlatTensor(b, 0, b.CreateVector(segs), b.CreateVector(named));
  b.Finish(root, ft::FlatTensorIdentifier());
  const size_t fb_offset = 48;
  const size_t fb_size = b.GetSize();
  std::vector<uint8_t> out(fb_offset, 0);
  // The prefix reads as the same FlatBuffer seen from offset 0.
  uint32_t root_off = 0;
  std::memcpy(&root_off, b.GetBufferPointer(), 4);
  put_le(out, 0, root_off + fb_offset, 4);
  std::memcpy(out.data() + 4, "FT01", 4);
  std::memcpy(out.data() + 8, "FH01", 4);
  put_le(out, 12, 40, 4);
  put_le(out, 16, fb_offset, 8);
  put_le(out, 24, fb_size, 8);
  const size_t base = align_up(fb_offset + fb_size, 128);
  put_le(out, 32, base, 8);
  put_le(out, 40, seg_total, 8);
  out.insert(out.end(), b.GetBufferPointer(), b.GetBufferPointer() + fb_size);
  out.resize(base, 0);
  at = 0;
  for (const auto& t : tensors) {
    out.resize(base + at, 0);
    out.insert(out.end(), t.data.begin(), t.data.end());
    at = align_up(at + t.data.size(), 128);
  }
  out.resize(base + seg_total, 0);
  return out;
}

} // namespace ptewriter
