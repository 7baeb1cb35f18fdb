#include "executor/program_named_data.h"

#include <cstring>

#include <executorch/runtime/platform/log.h>

#include "executor/key_index.h"
#include "executor/program_state.h"

namespace executorch {
namespace runtime {
namespace internal {

void ProgramNamedDataMap::index() { order_ = sort_by_key(state_->fb->named_data()); }

int64_t ProgramNamedDataMap::find(std::string_view key) const {
  return find_key(state_->fb->named_data(), order_, key);
}

Result<const TensorLayout> ProgramNamedDataMap::get_tensor_layout(std::string_view key) const {
  // Program named data are plain blobs: there is no layout to give.
  return find(key) < 0 ? Error::NotFound : Error::NotSupported;
}

Result<FreeableBuffer> ProgramNamedDataMap::get_data(std::string_view key) const {
  const int64_t i = find(key);
  if (i < 0) {
    return Error::NotFound;
  }
  // Validation checked segment_index and the segment's range at load.
  const auto* nd = state_->fb->named_data()->Get(static_cast<uint32_t>(i));
  const auto* seg = state_->fb->segments()->Get(nd->segment_index());
  return state_->loader->load(state_->segment_base_offset + seg->offset(), seg->size(),
                              DataLoader::SegmentInfo(DataLoader::SegmentInfo::Type::External,
                                                      nd->segment_index(), nd->key()->c_str()));
}

Error ProgramNamedDataMap::load_data_into(std::string_view key, void* buffer, size_t size) const {
  auto data = get_data(key);
  if (!data.ok()) {
    return data.error();
  }
  if (data->size() < size) {
    ET_LOG(Error, "Named data holds %zu bytes, %zu requested", data->size(), size);
    return Error::InvalidArgument;
  }
  std::memcpy(buffer, data->data(), size);
  return Error::Ok;
}

Result<uint32_t> ProgramNamedDataMap::get_num_keys() const {
  const auto* named = state_->fb->named_data();
  return named == nullptr ? 0u : named->size();
}

Result<const char*> ProgramNamedDataMap::get_key(uint32_t index) const {
  const auto* named = state_->fb->named_data();
  if (named == nullptr || index >= named->size()) {
    return Error::InvalidArgument;
  }
  return named->Get(index)->key()->c_str();
}

} // namespace internal
} // namespace runtime
} // namespace executorch
