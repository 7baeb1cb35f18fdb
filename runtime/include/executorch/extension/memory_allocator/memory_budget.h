// MemoryBudget: the most memory one program may make a host allocate
// (planned buffers, inputs). Module and executorch-run check every such
// allocation against it before making it, so a file that declares huge
// buffers fails with an Error naming the size asked and the limit instead
// of exhausting the machine. docs/limits.md describes the defaults.
#pragma once

#include <cstddef>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {

class EXECUTORCH_API MemoryBudget final {
 public:
  // The environment variable that overrides default_limit().
  static constexpr const char* kLimitEnv = "EXECUTORCH_MEMORY_LIMIT";

  // EXECUTORCH_MEMORY_LIMIT when it is set and valid (see parse_size), else
  // the host's physical memory.
  static size_t default_limit();

  // "4096", "64K", "512M", "16G", "1T" (binary multiples); InvalidArgument
  // on anything else or on overflow.
  static ::executorch::runtime::Result<size_t> parse_size(const char* text);

  explicit MemoryBudget(size_t limit = default_limit()) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // Takes n bytes from the budget for `what` (e.g. "planned buffer 2"), or
  // returns MemoryAllocationFailed, with one log line naming what, n, the
  // bytes already in use and the limit, when that would pass the limit.
  ET_NODISCARD ::executorch::runtime::Error charge(size_t n, const char* what);
  // Gives back bytes taken by charge().
  void refund(size_t n);

  size_t limit() const { return limit_; }
  void set_limit(size_t limit) { limit_ = limit; }
  size_t used() const { return used_; }

 private:
  size_t limit_;
  size_t used_ = 0;
};

} // namespace extension
} // namespace executorch
