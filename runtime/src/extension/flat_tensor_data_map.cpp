// FlatTensorDataMap: reads a .ptd file's header and FlatBuffer, checks
// them, and serves named tensors through the loader.
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>

#include <cstring>

#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/platform/log.h>

#include "executor/aligned_buffer.h"
#include "executor/key_index.h"
#include "executor/pte_header.h"
#include "flat_tensor_generated.h"

namespace executorch {
namespace extension {

namespace ft = flat_tensor_flatbuffer;
using runtime::DataLoader;
using runtime::Error;
using runtime::FreeableBuffer;
using runtime::Result;
using runtime::internal::range_fits;
using runtime::internal::read_le32;
using runtime::internal::read_le64;

namespace {

constexpr size_t kHeaderBytes = 48; // root offset, FT01, then the 40-byte FH01 header
constexpr uint32_t kMinHeaderLength = 40;

template <typename V>
size_t vsize(const V* v) {
  return v == nullptr ? 0 : v->size();
}

Error validate(const ft::FlatTensor* root, uint64_t segment_data_size) {
  const size_t n_segments = vsize(root->segments());
  for (uint32_t i = 0; i < n_segments; ++i) {
    const auto* s = root->segments()->Get(i);
    ET_CHECK_OR_RETURN_ERROR(range_fits(s->offset(), s->size(), segment_data_size),
                             InvalidExternalData,
                             ".ptd segment %u [%llu, +%llu) outside segment data of "
                             "%llu bytes",
                             i, (unsigned long long)s->offset(), (unsigned long long)s->size(),
                             (unsigned long long)segment_data_size);
  }
  for (uint32_t i = 0; i < vsize(root->named_data()); ++i) {
    const auto* nd = root->named_data()->Get(i);
    ET_CHECK_OR_RETURN_ERROR(
        nd->key() != nullptr && nd->segment_index() < n_segments, InvalidExternalData,
        ".ptd named_data %u has no key or segment %u out of range", i, nd->segment_index());
    if (const auto* layout = nd->tensor_layout()) {
      const size_t rank = vsize(layout->sizes());
      ET_CHECK_OR_RETURN_ERROR(rank <= size_t(::executorch::aten::TensorImpl::kMaxDim) &&
                                   vsize(layout->dim_order()) == rank,
                               InvalidExternalData, ".ptd tensor '%s': bad rank %zu or dim order",
                               nd->key()->c_str(), rank);
      const auto st = static_cast<::executorch::aten::ScalarType>(layout->scalar_type());
      ET_CHECK_OR_RETURN_ERROR(runtime::isValid(st) && runtime::elementSizeOrZero(st) != 0,
                               InvalidExternalData, ".ptd tensor '%s': bad dtype %d",
                               nd->key()->c_str(), int(layout->scalar_type()));
    }
  }
  return Error::Ok;
}

} // namespace

Result<FlatTensorDataMap> FlatTensorDataMap::load(DataLoader* loader) {
  ET_CHECK_OR_RETURN_ERROR(loader != nullptr, InvalidArgument, "Null data loader");
  auto size_r = loader->size();
  ET_CHECK_OK_OR_RETURN_ERROR(size_r.error());
  const size_t file_size = *size_r;
  ET_CHECK_OR_RETURN_ERROR(file_size >= kHeaderBytes, InvalidExternalData,
                           ".ptd of %zu bytes is too short for its header", file_size);
  const DataLoader::SegmentInfo info(DataLoader::SegmentInfo::Type::External);
  uint64_t fb_offset = 0, fb_size = 0, seg_base = 0, seg_size = 0;
  {
    auto head = loader->load(0, kHeaderBytes, info);
    ET_CHECK_OK_OR_RETURN_ERROR(head.error(), "Cannot read the .ptd header");
    ET_CHECK_OR_RETURN_ERROR(head->size() >= kHeaderBytes, InvalidExternalData,
                             "Short read of the .ptd header");
    const auto* b = static_cast<const uint8_t*>(head->data());
    ET_CHECK_OR_RETURN_ERROR(
        std::memcmp(b + 4, "FT01", 4) == 0 && std::memcmp(b + 8, "FH01", 4) == 0,
        InvalidExternalData, "Not a .ptd file (no FT01/FH01)");
    ET_CHECK_OR_RETURN_ERROR(read_le32(b + 12) >= kMinHeaderLength, InvalidExternalData,
                             ".ptd header length %u < %u", read_le32(b + 12), kMinHeaderLength);
    fb_offset = read_le64(b + 16);
    fb_size = read_le64(b + 24);
    seg_base = read_le64(b + 32);
    seg_size = read_le64(b + 40);
  }
  ET_CHECK_OR_RETURN_ERROR(fb_offset >= 8 && range_fits(fb_offset, fb_size, file_size) &&
                               range_fits(seg_base, seg_size, file_size),
                           InvalidExternalData,
                           ".ptd header ranges outside the file of %zu bytes "
                           "(flatbuffer %llu+%llu, segments %llu+%llu)",
                           file_size, (unsigned long long)fb_offset, (unsigned long long)fb_size,
                           (unsigned long long)seg_base, (unsigned long long)seg_size);
  // The FlatBuffer may stand alone at flatbuffer_offset, or be the file's
  // own prefix with the header injected after its identifier. The casts
  // below cannot wrap: both ranges were just checked against file_size.
  size_t start = 0;
  size_t length = size_t(fb_offset + fb_size);
  {
    auto probe = loader->load(size_t(fb_offset), fb_size >= 8 ? 8 : 0, info);
    if (probe.ok() && probe->size() == 8 &&
        std::memcmp(static_cast<const uint8_t*>(probe->data()) + 4, "FT01", 4) == 0) {
      start = size_t(fb_offset);
      length = size_t(fb_size);
    }
  }
  auto data = loader->load(start, length, info);
  ET_CHECK_OK_OR_RETURN_ERROR(data.error(), "Cannot load the .ptd FlatBuffer");
  ET_CHECK_OR_RETURN_ERROR(data->size() == length, InvalidExternalData,
                           "Short read of the .ptd FlatBuffer");
  auto aligned = runtime::internal::ensure_aligned(std::move(*data));
  ET_CHECK_OK_OR_RETURN_ERROR(aligned.error());
  FreeableBuffer buf = std::move(*aligned);
  const auto* bytes = static_cast<const uint8_t*>(buf.data());
  flatbuffers::Verifier verifier(bytes, length, 64, 1u << 20);
  ET_CHECK_OR_RETURN_ERROR(ft::VerifyFlatTensorBuffer(verifier), InvalidExternalData,
                           ".ptd FlatBuffer failed verification");
  const ft::FlatTensor* root = ft::GetFlatTensor(bytes);
  ET_CHECK_OK_OR_RETURN_ERROR(validate(root, seg_size));
  return FlatTensorDataMap(loader, std::move(buf), root, seg_base,
                           runtime::internal::sort_by_key(root->named_data()));
}

FlatTensorDataMap::FlatTensorDataMap(FlatTensorDataMap&& rhs) noexcept
    : loader_(rhs.loader_),
      data_(std::move(rhs.data_)),
      root_(rhs.root_),
      segment_base_offset_(rhs.segment_base_offset_),
      order_(std::move(rhs.order_)) {
  rhs.loader_ = nullptr;
  rhs.root_ = nullptr;
  rhs.segment_base_offset_ = 0;
}

int64_t FlatTensorDataMap::find(std::string_view key) const {
  return runtime::internal::find_key(root_->named_data(), order_, key);
}

Result<const runtime::TensorLayout> FlatTensorDataMap::get_tensor_layout(
    std::string_view key) const {
  ET_CHECK_OR_RETURN_ERROR(root_ != nullptr, InvalidState,
                           "FlatTensorDataMap used after being moved from");
  const int64_t i = find(key);
  if (i < 0) {
    return Error::NotFound;
  }
  const auto* layout = root_->named_data()->Get(uint32_t(i))->tensor_layout();
  if (layout == nullptr) {
    return Error::NotSupported;
  }
  const size_t rank = vsize(layout->sizes());
  auto r = runtime::TensorLayout::create(
      runtime::Span<const int32_t>(rank ? layout->sizes()->data() : nullptr, rank),
      runtime::Span<const uint8_t>(rank ? layout->dim_order()->data() : nullptr, rank),
      static_cast<::executorch::aten::ScalarType>(layout->scalar_type()));
  if (!r.ok()) {
    return r.error();
  }
  return *r;
}

Result<FreeableBuffer> FlatTensorDataMap::get_data(std::string_view key) const {
  ET_CHECK_OR_RETURN_ERROR(root_ != nullptr, InvalidState,
                           "FlatTensorDataMap used after being moved from");
  const int64_t i = find(key);
  if (i < 0) {
    return Error::NotFound;
  }
  const auto* nd = root_->named_data()->Get(uint32_t(i));
  const auto* seg = root_->segments()->Get(nd->segment_index());
  // Fits size_t: load() put the segment inside the segment data, and that
  // inside the file, whose size is a size_t.
  return loader_->load(size_t(segment_base_offset_ + seg->offset()), size_t(seg->size()),
                       DataLoader::SegmentInfo(DataLoader::SegmentInfo::Type::External,
                                               nd->segment_index(), nd->key()->c_str()));
}

Error FlatTensorDataMap::load_data_into(std::string_view key, void* buffer, size_t size) const {
  auto data = get_data(key);
  if (!data.ok()) {
    return data.error();
  }
  ET_CHECK_OR_RETURN_ERROR(data->size() >= size, InvalidArgument,
                           "Named data holds %zu bytes, %zu requested", data->size(), size);
  std::memcpy(buffer, data->data(), size);
  return Error::Ok;
}

Result<uint32_t> FlatTensorDataMap::get_num_keys() const {
  ET_CHECK_OR_RETURN_ERROR(root_ != nullptr, InvalidState,
                           "FlatTensorDataMap used after being moved from");
  return uint32_t(vsize(root_->named_data()));
}

Result<const char*> FlatTensorDataMap::get_key(uint32_t index) const {
  ET_CHECK_OR_RETURN_ERROR(root_ != nullptr, InvalidState,
                           "FlatTensorDataMap used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(index < vsize(root_->named_data()), InvalidArgument,
                           "Key index %u out of range", index);
  return root_->named_data()->Get(index)->key()->c_str();
}

} // namespace extension
} // namespace executorch
