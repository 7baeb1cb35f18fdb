// The process-wide table behind the CudaBackend option
// weight_sharing_across_methods: constants (weights and mutable buffers such
// as a KV cache) of one delegate's model, by their original FQN, that the
// delegates of other methods point their models at instead of loading their
// own copies. A prefill and a decode method exported from one module so
// share their weights and their cache, and decode continues the sequence
// prefill started.
//
// As upstream's option: a constant is shared by FQN across every delegate
// loaded with the option in the process, checked only for the same dtype
// and byte size, so two unrelated models with the same FQNs and shapes must
// not both be loaded with it. Constants without an FQN and constants made by
// constant folding are never shared. A model's entries go when it does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <executorch/runtime/core/error.h>

#include "aoti/weights_check.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

struct TensorObj;

// What a delegate may reuse for constant i of its table.
struct SharedHit {
  size_t index = 0;                   // in the table
  TensorObj* handle = nullptr;        // the lender's constant
  std::shared_ptr<const void> lender; // keeps it alive
};

class SharedConstants {
 public:
  static SharedConstants& instance();

  // Held around one delegate's lookup, load and publish, so that two
  // methods initializing at once do not both load what one could share.
  std::mutex& init_mutex() { return init_mu_; }

  // The constants of `table` already shared (by FQN, from a live lender).
  // An FQN shared with another dtype or size is an InvalidProgram Error
  // naming the constant and both descriptions.
  runtime::Error lookup(const std::vector<ConstantInfo>& table, std::vector<SharedHit>* hits,
                        const char* label);

  // Offers table[i] as handles[i] (for the constants that are not folded,
  // have an FQN and are not shared yet), owned by `owner`.
  void publish(const std::vector<ConstantInfo>& table, const std::vector<TensorObj*>& handles,
               const std::shared_ptr<const void>& owner);

  // Entries whose lender is still alive (a diagnostic and for the tests).
  size_t live_entries();

 private:
  struct Entry {
    std::weak_ptr<const void> owner;
    TensorObj* handle = nullptr;
    int32_t dtype = 0;
    uint64_t data_size = 0;
  };
  std::mutex init_mu_;
  std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;
};

// Whether constant `c` takes part in sharing: not folded, and has an FQN.
inline bool shareable(const ConstantInfo& c) { return !c.from_folded && !c.fqn.empty(); }

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
