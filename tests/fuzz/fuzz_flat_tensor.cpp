// libFuzzer harness: arbitrary bytes as a .ptd (FlatTensor) file through
// FlatTensorDataMap::load, then get_tensor_layout / get_data /
// load_data_into for every key, and lookups of keys that are absent.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/runtime/platform/runtime.h>

#include "untrusted_input/quiet_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  et_fuzz::quiet_logs_once();
  ::executorch::runtime::runtime_init();
  std::vector<std::max_align_t> buf(size / sizeof(std::max_align_t) + 1);
  if (size != 0) std::memcpy(buf.data(), data, size);
  ::executorch::extension::BufferDataLoader loader(buf.data(), size);
  auto map = ::executorch::extension::FlatTensorDataMap::load(&loader);
  if (!map.ok()) return 0;
  auto n = map->get_num_keys();
  if (!n.ok()) return 0;
  for (uint32_t i = 0; i < *n && i < 4096; ++i) {
    auto key = map->get_key(i);
    if (!key.ok() || *key == nullptr) continue;
    std::string_view k(*key);
    auto layout = map->get_tensor_layout(k);
    if (layout.ok()) {
      volatile size_t sink = layout->nbytes();
      for (int32_t s : layout->sizes()) sink = sink + static_cast<size_t>(s);
      for (uint8_t d : layout->dim_order()) sink = sink + d;
      (void)sink;
    }
    auto blob = map->get_data(k);
    if (blob.ok()) {
      const auto* p = static_cast<const uint8_t*>(blob->data());
      volatile uint8_t sink = 0;
      if (p != nullptr && blob->size() > 0) sink = p[0] ^ p[blob->size() - 1];
      (void)sink;
      const size_t sz = blob->size();
      blob->Free();
      if (sz <= (size_t(16) << 20)) {
        std::vector<uint8_t> into(sz + 1);
        (void)map->load_data_into(k, into.data(), sz);
      }
    }
  }
  (void)map->get_tensor_layout("no such key");
  (void)map->get_data("");
  (void)map->get_key(*n);
  (void)map->get_key(UINT32_MAX);
  return 0;
}
