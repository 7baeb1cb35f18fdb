#include "executor/merged_named_data.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace {
bool holds(const NamedDataMap* m, std::string_view key) {
  if (m == nullptr) {
    return false;
  }
  // NotSupported means "present, but a blob without a layout".
  auto layout = m->get_tensor_layout(key);
  return layout.ok() || layout.error() == Error::NotSupported;
}
} // namespace

const NamedDataMap* MergedNamedDataMap::owner(std::string_view key) const {
  if (holds(first_, key)) return first_;
  if (holds(second_, key)) return second_;
  return nullptr;
}

Result<const TensorLayout> MergedNamedDataMap::get_tensor_layout(
    std::string_view key) const {
  const NamedDataMap* m = owner(key);
  if (m == nullptr) return Error::NotFound;
  return m->get_tensor_layout(key);
}

Result<FreeableBuffer> MergedNamedDataMap::get_data(std::string_view key) const {
  const NamedDataMap* m = owner(key);
  if (m == nullptr) return Error::NotFound;
  return m->get_data(key);
}

Error MergedNamedDataMap::load_data_into(std::string_view key, void* buffer,
                                         size_t size) const {
  const NamedDataMap* m = owner(key);
  if (m == nullptr) return Error::NotFound;
  return m->load_data_into(key, buffer, size);
}

Result<uint32_t> MergedNamedDataMap::get_num_keys() const {
  uint32_t n = 0;
  for (const NamedDataMap* m : {first_, second_}) {
    if (m != nullptr) {
      auto k = m->get_num_keys();
      if (!k.ok()) return k.error();
      n += *k;
    }
  }
  return n;
}

Result<const char*> MergedNamedDataMap::get_key(uint32_t index) const {
  for (const NamedDataMap* m : {first_, second_}) {
    if (m != nullptr) {
      auto k = m->get_num_keys();
      if (!k.ok()) return k.error();
      if (index < *k) return m->get_key(index);
      index -= *k;
    }
  }
  return Error::InvalidArgument;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
