// libFuzzer harness for the CUDA delegate's payload handling up to where it
// would touch the GPU: the registered "CudaBackend" gets fuzzed processed
// bytes, compile specs and named data through init(). On a host without a
// GPU (or with one) it must return an Error or a handle, never crash.
//
// Input layout (all parts optional, split by the byte sequence "\0\xff"):
//   processed bytes | spec key=value lines | named-data key | named-data blob
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/platform/runtime.h>

#include "untrusted_input/quiet_log.h"

namespace {

namespace rt = ::executorch::runtime;

// One blob under one key, served like a .ptd or the program's named data.
class OneBlobMap final : public rt::NamedDataMap {
 public:
  OneBlobMap(std::string key, std::vector<uint8_t> blob)
      : key_(std::move(key)), blob_(std::move(blob)) {}
  rt::Result<const rt::TensorLayout> get_tensor_layout(std::string_view) const override {
    return rt::Error::NotSupported;
  }
  rt::Result<rt::FreeableBuffer> get_data(std::string_view key) const override {
    if (key != key_) return rt::Error::NotFound;
    return rt::FreeableBuffer(blob_.data(), blob_.size(), nullptr);
  }
  rt::Error load_data_into(std::string_view key, void* buffer, size_t size) const override {
    if (key != key_) return rt::Error::NotFound;
    if (size > blob_.size()) return rt::Error::InvalidArgument;
    if (size != 0) std::memcpy(buffer, blob_.data(), size);
    return rt::Error::Ok;
  }
  rt::Result<uint32_t> get_num_keys() const override { return 1; }
  rt::Result<const char*> get_key(uint32_t index) const override {
    if (index != 0) return rt::Error::InvalidArgument;
    return key_.c_str();
  }

 private:
  std::string key_;
  std::vector<uint8_t> blob_;
};

std::vector<std::string> split(const uint8_t* data, size_t size) {
  std::vector<std::string> parts(1);
  for (size_t i = 0; i < size; ++i) {
    if (i + 1 < size && data[i] == 0 && data[i + 1] == 0xff && parts.size() < 4) {
      parts.emplace_back();
      ++i;
      continue;
    }
    parts.back().push_back(static_cast<char>(data[i]));
  }
  parts.resize(4);
  return parts;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  et_fuzz::quiet_logs_once();
  rt::runtime_init();
  rt::BackendInterface* backend = rt::get_backend_class("CudaBackend");
  if (backend == nullptr) return 0;
  auto parts = split(data, size);

  // Compile specs: one "key=value" per line.
  std::vector<std::string> keys;
  std::vector<std::vector<uint8_t>> values;
  size_t at = 0;
  const std::string& specs_text = parts[1];
  while (at < specs_text.size() && keys.size() < 16) {
    size_t nl = specs_text.find('\n', at);
    if (nl == std::string::npos) nl = specs_text.size();
    std::string line = specs_text.substr(at, nl - at);
    size_t eq = line.find('=');
    keys.push_back(line.substr(0, eq));
    std::string v = eq == std::string::npos ? std::string() : line.substr(eq + 1);
    values.emplace_back(v.begin(), v.end());
    at = nl + 1;
  }
  std::vector<rt::CompileSpec> specs;
  for (size_t i = 0; i < keys.size(); ++i) {
    specs.push_back({keys[i].c_str(), {values[i].data(), values[i].size()}});
  }
  OneBlobMap map(parts[2], std::vector<uint8_t>(parts[3].begin(), parts[3].end()));

  std::vector<uint64_t> arena(size_t(1) << 17);
  rt::MemoryAllocator alloc(static_cast<uint32_t>(arena.size() * 8),
                            reinterpret_cast<uint8_t*>(arena.data()));
  rt::BackendInitContext ctx(&alloc, nullptr, "forward", &map);
  std::vector<uint8_t> processed(parts[0].begin(), parts[0].end());
  rt::FreeableBuffer buf(processed.data(), processed.size(), nullptr);
  auto handle = backend->init(ctx, &buf, rt::ArrayRef<rt::CompileSpec>(specs.data(), specs.size()));
  if (handle.ok()) backend->destroy(*handle);
  return 0;
}
