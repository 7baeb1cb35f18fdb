// MergedDataMap (extension/named_data_map/merged_data_map.h). It lives in the
// core because the executor uses it too (external data beside a program's
// own named data); the header keeps upstream's extension path.
#include <executorch/extension/named_data_map/merged_data_map.h>

#include <algorithm>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {
namespace ET_MERGED_DATA_MAP_NAMESPACE {

using ::executorch::runtime::Error;
using ::executorch::runtime::FreeableBuffer;
using ::executorch::runtime::NamedDataMap;
using ::executorch::runtime::Result;
using ::executorch::runtime::Span;
using ::executorch::runtime::TensorLayout;

namespace {

using Owner = std::pair<std::string, uint32_t>;

bool by_key(const Owner& a, const Owner& b) { return a.first < b.first; }

// Appends map m's keys, owned by position `pos`.
Error add_keys(const NamedDataMap* m, uint32_t pos, uint32_t n, std::vector<Owner>* owners) {
  for (uint32_t i = 0; i < n; ++i) {
    auto key = m->get_key(i);
    ET_CHECK_OR_RETURN_ERROR(key.ok() && *key != nullptr, InvalidArgument,
                             "Named data map %u has no key %u", pos, i);
    owners->emplace_back(std::string(*key), pos);
  }
  return Error::Ok;
}

} // namespace

Result<MergedDataMap> MergedDataMap::load(Span<const NamedDataMap*> named_data_maps) {
  Maps maps;
  Owners owners;
  for (const NamedDataMap* m : named_data_maps) {
    if (m == nullptr) {
      continue;
    }
    auto n = m->get_num_keys();
    ET_CHECK_OK_OR_RETURN_ERROR(n.error(), "Cannot count the keys of a named data map");
    if (*n == 0) {
      continue;
    }
    const uint32_t pos = static_cast<uint32_t>(maps.size());
    ET_CHECK_OK_OR_RETURN_ERROR(add_keys(m, pos, *n, &owners));
    maps.push_back(m);
  }
  ET_CHECK_OR_RETURN_ERROR(!maps.empty(), InvalidArgument, "No non-empty named data maps to merge");
  std::stable_sort(owners.begin(), owners.end(), by_key);
  for (size_t i = 1; i < owners.size(); ++i) {
    const auto& prev = owners[i - 1];
    const auto& cur = owners[i];
    ET_CHECK_OR_RETURN_ERROR(prev.first != cur.first, InvalidArgument,
                             "Key '%s' is in named data maps %u and %u", cur.first.c_str(),
                             prev.second, cur.second);
  }
  return MergedDataMap(std::move(maps), std::move(owners));
}

const NamedDataMap* MergedDataMap::owner(std::string_view key) const {
  auto it = std::lower_bound(owners_.begin(), owners_.end(), key,
                             [](const Owner& o, std::string_view k) { return o.first < k; });
  if (it == owners_.end() || it->first != key) {
    return nullptr;
  }
  return maps_[it->second];
}

Result<const TensorLayout> MergedDataMap::get_tensor_layout(std::string_view key) const {
  const NamedDataMap* m = owner(key);
  if (m == nullptr) {
    return Error::NotFound;
  }
  return m->get_tensor_layout(key);
}

Result<FreeableBuffer> MergedDataMap::get_data(std::string_view key) const {
  const NamedDataMap* m = owner(key);
  if (m == nullptr) {
    return Error::NotFound;
  }
  return m->get_data(key);
}

Error MergedDataMap::load_data_into(std::string_view key, void* buffer, size_t size) const {
  const NamedDataMap* m = owner(key);
  if (m == nullptr) {
    return Error::NotFound;
  }
  return m->load_data_into(key, buffer, size);
}

Result<uint32_t> MergedDataMap::get_num_keys() const {
  return static_cast<uint32_t>(owners_.size());
}

Result<const char*> MergedDataMap::get_key(uint32_t index) const {
  ET_CHECK_OR_RETURN_ERROR(index < owners_.size(), InvalidArgument,
                           "Key index %u out of range (%zu keys)", index, owners_.size());
  for (const NamedDataMap* m : maps_) {
    const uint32_t n = m->get_num_keys().get();
    if (index < n) {
      return m->get_key(index);
    }
    index -= n;
  }
  return Error::Internal;
}

} // namespace ET_MERGED_DATA_MAP_NAMESPACE
} // namespace extension
} // namespace executorch
