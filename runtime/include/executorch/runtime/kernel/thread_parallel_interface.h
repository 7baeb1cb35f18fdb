// parallel_for for kernels: splits [begin, end) into chunks of at least
// grain_size indexes and runs them on the process's CPU thread pool
// (extension/threadpool), as upstream's threadpool-enabled build does.
// Under NoThreadPoolGuard, or with a pool of one thread, the chunks run on the
// calling thread. get_thread_num() is the chunk's task index inside f.
#pragma once

#include <cinttypes>
#include <cstdint>

#include <c10/util/irange.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/function_ref.h>
#include <executorch/runtime/platform/assert.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {
namespace internal {

// The serial form: checks the range and grain size as parallel_for does, then
// calls f on the calling thread. Debug builds (NDEBUG unset) call it one index
// at a time from the end backwards, to catch code that relies on order.
template <typename Func>
inline bool parallel_for_no_threadpool(const int64_t begin, const int64_t end,
                                       const int64_t grain_size, const Func& f) {
  ET_CHECK_OR_RETURN_FALSE(begin >= 0 && end >= begin, "begin = %" PRId64 ", end = %" PRId64, begin,
                           end);
  ET_CHECK_OR_RETURN_FALSE(grain_size > 0, "grain_size = %" PRId64, grain_size);
#ifndef NDEBUG
  for (int64_t idx = end - 1; idx >= begin; --idx) {
    f(idx, idx + 1);
  }
#else
  if (end > begin) {
    f(begin, end);
  }
#endif
  return true;
}

// A grain size for elementwise work: ranges shorter than this are not split.
constexpr int64_t GRAIN_SIZE = 32768;

} // namespace internal

// Calls f(chunk_begin, chunk_end) over disjoint chunks covering [begin, end),
// each at least grain_size long (the last may be shorter), and returns when
// all have run. false (f not called) when begin < 0, end < begin or
// grain_size <= 0.
EXECUTORCH_API bool parallel_for(const int64_t begin, const int64_t end, const int64_t grain_size,
                                 ::executorch::runtime::FunctionRef<void(int64_t, int64_t)> f);

// Inside parallel_for's f: the index of the chunk being run; 0 elsewhere.
EXECUTORCH_API int64_t get_thread_num();

// Sets what get_thread_num() returns on this thread.
EXECUTORCH_API void set_thread_num(int64_t thread_num);

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::extension::get_thread_num;
using ::executorch::extension::parallel_for;
using ::executorch::extension::set_thread_num;
} // namespace executor
} // namespace torch
