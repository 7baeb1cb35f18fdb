// Per-thread free lists for the small objects the shim makes and drops
// several times per execute (tensor objects, storages, stream guards): a
// freed object's memory is kept for the next one made on the same thread,
// so the steady state allocates nothing and takes no lock. An object freed
// on another thread than it was made on joins that thread's list.
#pragma once

#include <cstddef>
#include <new>
#include <utility>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

template <typename T>
class FreeList {
 public:
  // A T constructed from `args`; nullptr without memory.
  template <typename... Args>
  static T* make(Args&&... args) {
    Cache& c = cache();
    void* mem = c.n > 0 ? c.blocks[--c.n] : ::operator new(sizeof(T), std::nothrow);
    return mem == nullptr ? nullptr : new (mem) T(std::forward<Args>(args)...);
  }
  static void drop(T* p) {
    if (p == nullptr) return;
    p->~T();
    Cache& c = cache();
    if (c.n < kKeep && !c.gone) {
      c.blocks[c.n++] = p;
    } else {
      ::operator delete(static_cast<void*>(p));
    }
  }

 private:
  static constexpr size_t kKeep = 256;
  struct Cache {
    void* blocks[kKeep];
    size_t n = 0;
    // Set at thread exit: objects dropped later (from static destructors
    // running after this thread's) go straight back to the heap.
    bool gone = false;
    ~Cache() {
      while (n > 0) ::operator delete(blocks[--n]);
      gone = true;
    }
  };
  static Cache& cache() {
    static thread_local Cache c;
    return c;
  }
};

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
