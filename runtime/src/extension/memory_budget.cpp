#include <executorch/extension/memory_allocator/memory_budget.h>

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

using ::executorch::runtime::Error;
using ::executorch::runtime::Result;

namespace {

size_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) {
    return SIZE_MAX;
  }
  size_t bytes = 0;
  if (__builtin_mul_overflow(size_t(pages), size_t(page_size), &bytes)) {
    return SIZE_MAX;
  }
  return bytes;
}

} // namespace

Result<size_t> MemoryBudget::parse_size(const char* text) {
  if (text == nullptr || *text < '0' || *text > '9') {
    return Error::InvalidArgument;
  }
  errno = 0;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(text, &end, 10);
  if (errno != 0) {
    return Error::InvalidArgument;
  }
  unsigned shift = 0;
  switch (*end) {
    case '\0':
      break;
    case 'K':
    case 'k':
      shift = 10;
      ++end;
      break;
    case 'M':
    case 'm':
      shift = 20;
      ++end;
      break;
    case 'G':
    case 'g':
      shift = 30;
      ++end;
      break;
    case 'T':
    case 't':
      shift = 40;
      ++end;
      break;
    default:
      return Error::InvalidArgument;
  }
  if (*end != '\0' || n > (SIZE_MAX >> shift)) {
    return Error::InvalidArgument;
  }
  return size_t(n) << shift;
}

size_t MemoryBudget::default_limit() {
  const char* env = std::getenv(kLimitEnv);
  if (env != nullptr && *env != '\0') {
    auto parsed = parse_size(env);
    if (parsed.ok()) {
      return *parsed;
    }
    ET_LOG(Error, "%s='%s' is not a size (e.g. 512M, 16G); using physical memory", kLimitEnv, env);
  }
  return physical_memory();
}

Error MemoryBudget::charge(size_t n, const char* what) {
  if (n > limit_ || used_ > limit_ - n) {
    ET_LOG(Error,
           "%s needs %zu bytes, over the memory limit of %zu bytes (%zu in use; "
           "raise it with %s)",
           what, n, limit_, used_, kLimitEnv);
    return Error::MemoryAllocationFailed;
  }
  used_ += n;
  return Error::Ok;
}

void MemoryBudget::refund(size_t n) { used_ = n > used_ ? 0 : used_ - n; }

} // namespace extension
} // namespace executorch
