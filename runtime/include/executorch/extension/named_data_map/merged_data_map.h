// MergedDataMap: several NamedDataMaps seen as one (upstream's declaration
// and path). load() reads every map's keys once: a key belongs to the one
// map that lists it, a key two maps list is an error, and a key no map
// lists is NotFound without asking any map. Lookups are O(log n).
//
// Used by Module and executorch-run for several .ptd files and by the
// executor to put a method's external data beside the program's own named
// data, so it is built into the core of libexecutorch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/platform/export.h>

#define ET_MERGED_DATA_MAP_NAMESPACE merged_data_map

namespace executorch {
namespace extension {
namespace ET_MERGED_DATA_MAP_NAMESPACE {

class EXECUTORCH_API MergedDataMap final : public ::executorch::ET_RUNTIME_NAMESPACE::NamedDataMap {
 public:
  // Null maps and maps without keys are skipped; InvalidArgument when none
  // is left, or when two maps hold the same key. The maps must outlive the
  // result.
  static ::executorch::runtime::Result<MergedDataMap> load(
      ::executorch::runtime::Span<const ::executorch::ET_RUNTIME_NAMESPACE::NamedDataMap*>
          named_data_maps);

  ET_NODISCARD ::executorch::runtime::Result<const ::executorch::ET_RUNTIME_NAMESPACE::TensorLayout>
  get_tensor_layout(std::string_view key) const override;
  ET_NODISCARD ::executorch::runtime::Result<::executorch::runtime::FreeableBuffer> get_data(
      std::string_view key) const override;
  ET_NODISCARD ::executorch::runtime::Error load_data_into(std::string_view key, void* buffer,
                                                           size_t size) const override;
  ET_NODISCARD ::executorch::runtime::Result<uint32_t> get_num_keys() const override;
  ET_NODISCARD ::executorch::runtime::Result<const char*> get_key(uint32_t index) const override;

  MergedDataMap(MergedDataMap&&) noexcept = default;
  MergedDataMap(const MergedDataMap&) = delete;
  MergedDataMap& operator=(const MergedDataMap&) = delete;
  MergedDataMap& operator=(MergedDataMap&&) = delete;
  ~MergedDataMap() override = default;

 private:
  using Maps = std::vector<const ::executorch::ET_RUNTIME_NAMESPACE::NamedDataMap*>;
  // (key, map position), sorted by key.
  using Owners = std::vector<std::pair<std::string, uint32_t>>;

  MergedDataMap(Maps maps, Owners owners) : maps_(std::move(maps)), owners_(std::move(owners)) {}
  // The map that holds key, or nullptr.
  const ::executorch::ET_RUNTIME_NAMESPACE::NamedDataMap* owner(std::string_view key) const;

  Maps maps_;
  Owners owners_;
};

} // namespace ET_MERGED_DATA_MAP_NAMESPACE
} // namespace extension
} // namespace executorch
