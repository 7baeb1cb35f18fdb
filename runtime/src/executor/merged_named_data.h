// Looks keys up in the caller's NamedDataMap first, then in the program's
// own named data, so backends and external tensors see both.
#pragma once

#include <executorch/runtime/core/named_data_map.h>

namespace executorch {
namespace runtime {
namespace internal {

class MergedNamedDataMap final : public NamedDataMap {
 public:
  MergedNamedDataMap(const NamedDataMap* first, const NamedDataMap* second)
      : first_(first), second_(second) {}
  bool empty() const { return first_ == nullptr && second_ == nullptr; }

  Result<const TensorLayout> get_tensor_layout(std::string_view key) const override;
  Result<FreeableBuffer> get_data(std::string_view key) const override;
  Error load_data_into(std::string_view key, void* buffer,
                       size_t size) const override;
  Result<uint32_t> get_num_keys() const override;
  Result<const char*> get_key(uint32_t index) const override;

 private:
  // The map that holds key, or nullptr.
  const NamedDataMap* owner(std::string_view key) const;
  const NamedDataMap* first_;
  const NamedDataMap* second_;
};

} // namespace internal
} // namespace runtime
} // namespace executorch
