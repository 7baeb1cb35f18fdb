// MergedDataMap<N>: up to N NamedDataMaps seen as one, as upstream's
// runtime/executor header declares it (header-only). A key may live in one
// map only; lookups go through the maps in order. The maps must outlive the
// merged one. (Module and Method merge through
// executorch/extension/named_data_map/merged_data_map.h, with no bound on
// the number of maps.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {

template <size_t N>
class MergedDataMap final : public NamedDataMap {
 public:
  // Merges the non-null maps among data_maps[0, data_maps_size).
  // InvalidArgument when none is given, when data_maps_size exceeds N, or
  // when a key is in two maps; a map's own error is passed on.
  static Result<MergedDataMap> load(const NamedDataMap* data_maps[N], size_t data_maps_size) {
    ET_CHECK_OR_RETURN_ERROR(data_maps != nullptr || data_maps_size == 0, InvalidArgument,
                             "Null data map array");
    ET_CHECK_OR_RETURN_ERROR(data_maps_size <= N, InvalidArgument,
                             "%zu data maps given, room for %zu", data_maps_size, N);
    MergedDataMap merged;
    for (size_t i = 0; i < data_maps_size; ++i) {
      if (data_maps[i] != nullptr) {
        merged.maps_[merged.n_maps_++] = data_maps[i];
      }
    }
    ET_CHECK_OR_RETURN_ERROR(merged.n_maps_ > 0, InvalidArgument, "All data maps are null");
    for (size_t i = 0; i < merged.n_maps_; ++i) {
      auto n = merged.maps_[i]->get_num_keys();
      if (!n.ok()) {
        return n.error();
      }
      for (uint32_t k = 0; k < *n; ++k) {
        auto key = merged.maps_[i]->get_key(k);
        if (!key.ok()) {
          return key.error();
        }
        for (size_t j = i + 1; j < merged.n_maps_; ++j) {
          const Error e = merged.maps_[j]->get_tensor_layout(*key).error();
          ET_CHECK_OR_RETURN_ERROR(e == Error::NotFound, InvalidArgument,
                                   "Key '%s' is in data maps %zu and %zu", *key, i, j);
        }
      }
    }
    return merged;
  }

  MergedDataMap(MergedDataMap&&) noexcept = default;
  MergedDataMap(const MergedDataMap&) = delete;
  MergedDataMap& operator=(const MergedDataMap&) = delete;
  MergedDataMap& operator=(MergedDataMap&&) = delete;
  ~MergedDataMap() override = default;

  // The first map's answer that is not NotFound; NotFound when none has it.
  ET_NODISCARD Result<const TensorLayout> get_tensor_layout(std::string_view key) const override {
    for (size_t i = 0; i < n_maps_; ++i) {
      auto layout = maps_[i]->get_tensor_layout(key);
      if (layout.error() != Error::NotFound) {
        return layout;
      }
    }
    return Error::NotFound;
  }

  ET_NODISCARD Result<FreeableBuffer> get_data(std::string_view key) const override {
    for (size_t i = 0; i < n_maps_; ++i) {
      auto data = maps_[i]->get_data(key);
      if (data.error() != Error::NotFound) {
        return data;
      }
    }
    return Error::NotFound;
  }

  ET_NODISCARD Error load_data_into(std::string_view key, void* buffer,
                                    size_t size) const override {
    for (size_t i = 0; i < n_maps_; ++i) {
      const Error e = maps_[i]->load_data_into(key, buffer, size);
      if (e != Error::NotFound) {
        return e;
      }
    }
    return Error::NotFound;
  }

  // The keys of every map, in map order.
  ET_NODISCARD Result<uint32_t> get_num_keys() const override {
    uint32_t total = 0;
    for (size_t i = 0; i < n_maps_; ++i) {
      auto n = maps_[i]->get_num_keys();
      if (!n.ok()) {
        return n.error();
      }
      ET_CHECK_OR_RETURN_ERROR(*n <= UINT32_MAX - total, InvalidArgument,
                               "More than 2^32 keys in the merged maps");
      total += *n;
    }
    return total;
  }

  ET_NODISCARD Result<const char*> get_key(uint32_t index) const override {
    uint32_t rest = index;
    for (size_t i = 0; i < n_maps_; ++i) {
      auto n = maps_[i]->get_num_keys();
      if (!n.ok()) {
        return n.error();
      }
      if (rest < *n) {
        return maps_[i]->get_key(rest);
      }
      rest -= *n;
    }
    ET_LOG(Error, "Key index %u out of range", index);
    return Error::InvalidArgument;
  }

 private:
  MergedDataMap() = default;

  const NamedDataMap* maps_[N == 0 ? 1 : N] = {};
  size_t n_maps_ = 0;
};

// Upstream's two-map form (runtime::internal::MergedDataMap): both maps
// required, keys of `first` found first.
namespace internal {
class MergedDataMap final : public NamedDataMap {
 public:
  static Result<MergedDataMap> load(const NamedDataMap* first, const NamedDataMap* second) {
    ET_CHECK_OR_RETURN_ERROR(first != nullptr && second != nullptr, InvalidArgument,
                             "Input data map is null");
    const NamedDataMap* maps[2] = {first, second};
    auto merged = ::executorch::runtime::MergedDataMap<2>::load(maps, 2);
    if (!merged.ok()) return merged.error();
    return MergedDataMap(std::move(merged.get()));
  }

  ET_NODISCARD Result<const TensorLayout> get_tensor_layout(std::string_view key) const override {
    return maps_.get_tensor_layout(key);
  }
  ET_NODISCARD Result<FreeableBuffer> get_data(std::string_view key) const override {
    return maps_.get_data(key);
  }
  ET_NODISCARD Error load_data_into(std::string_view key, void* buffer,
                                    size_t size) const override {
    return maps_.load_data_into(key, buffer, size);
  }
  ET_NODISCARD Result<uint32_t> get_num_keys() const override { return maps_.get_num_keys(); }
  ET_NODISCARD Result<const char*> get_key(uint32_t index) const override {
    return maps_.get_key(index);
  }

 private:
  explicit MergedDataMap(::executorch::runtime::MergedDataMap<2>&& maps) : maps_(std::move(maps)) {}

  ::executorch::runtime::MergedDataMap<2> maps_;
};
} // namespace internal

} // namespace runtime
} // namespace executorch
