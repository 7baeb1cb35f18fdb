// The random source of rand, randn and native_dropout: one generator per
// thread, seeded from the clock and the thread (upstream seeds each call
// from std::random_device; results are not reproducible either way).
#pragma once

#include <chrono>
#include <cstdint>
#include <random>

namespace executorch {
namespace runtime {
namespace portable {

inline std::mt19937_64& thread_rng() {
  thread_local int anchor = 0;
  thread_local std::mt19937_64 gen(
      static_cast<uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count()) ^
      static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&anchor)));
  return gen;
}

} // namespace portable
} // namespace runtime
} // namespace executorch
