#include <executorch/extension/memory_allocator/planned_memory.h>

#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

using ::executorch::runtime::Error;
using ::executorch::runtime::Result;

namespace {
constexpr size_t kAlignment = 64;
} // namespace

Result<HostBuffer> HostBuffer::allocate(size_t n, MemoryBudget* budget, const char* what) {
  if (budget != nullptr) {
    const Error e = budget->charge(n, what);
    if (e != Error::Ok) {
      return e;
    }
  }
  HostBuffer b;
  b.size_ = n;
  b.budget_ = budget;
  if (n >= kMapThreshold) {
    // Anonymous pages read as zero and are committed on first write only.
    void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      ET_LOG(Error, "Cannot map %zu bytes for %s: %s", n, what, std::strerror(errno));
      return Error::MemoryAllocationFailed; // b's destructor refunds
    }
    b.data_ = static_cast<uint8_t*>(p);
    b.mapped_ = n;
    return b;
  }
  void* p = nullptr;
  if (::posix_memalign(&p, kAlignment, n == 0 ? 1 : n) != 0) {
    ET_LOG(Error, "Cannot allocate %zu bytes for %s", n, what);
    return Error::MemoryAllocationFailed;
  }
  // Small: zeroing commits at most kMapThreshold bytes.
  std::memset(p, 0, n);
  b.data_ = static_cast<uint8_t*>(p);
  return b;
}

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, 0)),
      budget_(std::exchange(other.budget_, nullptr)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, 0);
    budget_ = std::exchange(other.budget_, nullptr);
  }
  return *this;
}

HostBuffer::~HostBuffer() { release(); }

void HostBuffer::release() {
  if (mapped_ != 0) {
    ::munmap(data_, mapped_);
  } else {
    std::free(data_);
  }
  if (budget_ != nullptr) {
    budget_->refund(size_);
  }
  data_ = nullptr;
  size_ = 0;
  mapped_ = 0;
  budget_ = nullptr;
}

} // namespace extension
} // namespace executorch
