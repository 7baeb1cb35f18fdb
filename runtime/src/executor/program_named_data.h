// Program.named_data as a NamedDataMap: keys name whole segments.
#pragma once

#include <cstdint>
#include <vector>

#include <executorch/runtime/core/named_data_map.h>

namespace executorch {
namespace runtime {
namespace internal {

struct ProgramState;

class ProgramNamedDataMap final : public NamedDataMap {
 public:
  explicit ProgramNamedDataMap(const ProgramState* state) : state_(state) {}
  // Sorts the keys; call once the program is validated.
  void index();
  Result<const TensorLayout> get_tensor_layout(std::string_view key) const override;
  Result<FreeableBuffer> get_data(std::string_view key) const override;
  Error load_data_into(std::string_view key, void* buffer, size_t size) const override;
  Result<uint32_t> get_num_keys() const override;
  Result<const char*> get_key(uint32_t index) const override;

 private:
  // Index into Program.named_data, or -1.
  int64_t find(std::string_view key) const;
  const ProgramState* state_;
  std::vector<uint32_t> order_; // named_data positions sorted by key
};

} // namespace internal
} // namespace runtime
} // namespace executorch
