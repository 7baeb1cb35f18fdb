// FlatTensorDataMap: a NamedDataMap over a .ptd (FlatTensor) file. Tensor
// bytes are handed out through the DataLoader, so they are zero-copy when
// the loader is (mmap, buffer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <executorch/runtime/core/data_loader.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/export.h>

namespace flat_tensor_flatbuffer {
struct FlatTensor;
} // namespace flat_tensor_flatbuffer

namespace executorch {
namespace extension {

class EXECUTORCH_API FlatTensorDataMap final : public runtime::NamedDataMap {
 public:
  // Reads and checks the header and the FlatBuffer; the loader must outlive
  // the map.
  ET_NODISCARD static runtime::Result<FlatTensorDataMap> load(runtime::DataLoader* loader);

  // A moved-from map answers every call with an Error.
  FlatTensorDataMap(FlatTensorDataMap&& rhs) noexcept;
  FlatTensorDataMap(const FlatTensorDataMap&) = delete;
  FlatTensorDataMap& operator=(const FlatTensorDataMap&) = delete;
  FlatTensorDataMap& operator=(FlatTensorDataMap&&) = delete;
  ~FlatTensorDataMap() override = default;

  ET_NODISCARD runtime::Result<const runtime::TensorLayout> get_tensor_layout(
      std::string_view key) const override;
  ET_NODISCARD runtime::Result<runtime::FreeableBuffer> get_data(
      std::string_view key) const override;
  ET_NODISCARD runtime::Error load_data_into(std::string_view key, void* buffer,
                                             size_t size) const override;
  ET_NODISCARD runtime::Result<uint32_t> get_num_keys() const override;
  ET_NODISCARD runtime::Result<const char*> get_key(uint32_t index) const override;

 private:
  FlatTensorDataMap(runtime::DataLoader* loader, runtime::FreeableBuffer data,
                    const flat_tensor_flatbuffer::FlatTensor* root, uint64_t segment_base_offset,
                    std::vector<uint32_t> order)
      : loader_(loader),
        data_(std::move(data)),
        root_(root),
        segment_base_offset_(segment_base_offset),
        order_(std::move(order)) {}
  // Index into named_data, or -1.
  int64_t find(std::string_view key) const;

  runtime::DataLoader* loader_;
  runtime::FreeableBuffer data_; // the FlatBuffer bytes, aligned
  const flat_tensor_flatbuffer::FlatTensor* root_;
  uint64_t segment_base_offset_;
  std::vector<uint32_t> order_; // named_data positions sorted by key
};

} // namespace extension
} // namespace executorch
