#include "aoti/shared_constants.h"

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

using runtime::Error;

SharedConstants& SharedConstants::instance() {
  // Never destroyed: delegates may outlive static destruction at exit.
  static auto* table = new SharedConstants();
  return *table;
}

Error SharedConstants::lookup(const std::vector<ConstantInfo>& table, std::vector<SharedHit>* hits,
                              const char* label) {
  std::lock_guard<std::mutex> lk(mu_);
  hits->clear();
  for (size_t i = 0; i < table.size(); ++i) {
    const ConstantInfo& c = table[i];
    if (!shareable(c)) continue;
    auto it = entries_.find(c.fqn);
    if (it == entries_.end()) continue;
    std::shared_ptr<const void> lender = it->second.owner.lock();
    if (lender == nullptr) {
      entries_.erase(it); // its model is gone
      continue;
    }
    const Entry& e = it->second;
    ET_CHECK_OR_RETURN_ERROR(e.dtype == c.dtype && e.data_size == c.data_size, InvalidProgram,
                             "CudaBackend[%s]: weight_sharing_across_methods: constant '%s' "
                             "is %llu bytes of dtype %d here but %llu bytes of dtype %d in the "
                             "method that shares it",
                             label, c.fqn.c_str(), static_cast<unsigned long long>(c.data_size),
                             static_cast<int>(c.dtype),
                             static_cast<unsigned long long>(e.data_size),
                             static_cast<int>(e.dtype));
    hits->push_back(SharedHit{i, e.handle, std::move(lender)});
  }
  return Error::Ok;
}

void SharedConstants::publish(const std::vector<ConstantInfo>& table,
                              const std::vector<TensorObj*>& handles,
                              const std::shared_ptr<const void>& owner) {
  std::lock_guard<std::mutex> lk(mu_);
  for (size_t i = 0; i < table.size() && i < handles.size(); ++i) {
    const ConstantInfo& c = table[i];
    if (!shareable(c) || handles[i] == nullptr) continue;
    auto it = entries_.find(c.fqn);
    if (it != entries_.end() && !it->second.owner.expired()) continue;
    entries_[c.fqn] = Entry{owner, handles[i], c.dtype, c.data_size};
  }
}

size_t SharedConstants::live_entries() {
  std::lock_guard<std::mutex> lk(mu_);
  size_t n = 0;
  for (const auto& kv : entries_) n += kv.second.owner.expired() ? 0 : 1;
  return n;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
