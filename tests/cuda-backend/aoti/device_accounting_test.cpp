// What the GPU suite reads to tell a leak from a one-time growth, without a
// GPU: the live tensor-object and storage counts (handles over host memory
// touch no device) and the delegate-stream block cache's reuse and
// accounting (a cached stream's hits and frees make no CUDA call; the stream
// and the block addresses are never dereferenced).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "aoti/device_pool.h"
#include "aoti/dtype.h"
#include "aoti/tensor_obj.h"

namespace aoti = executorch::backends::cuda::aoti;

namespace {

aoti::TensorObj* host_view(float* data, int64_t n) {
  const int64_t sizes[] = {n};
  return aoti::make_view(data, sizeof(float) * static_cast<size_t>(n), 1, sizes, nullptr,
                         aoti::kDtF32, aoti::kDevCpu, 0);
}

TEST(LiveCounts, ViewsAliasesAndDestroyBalance) {
  const int64_t t0 = aoti::live_tensor_objs(), s0 = aoti::live_storages();
  std::vector<float> buf(8);
  aoti::TensorObj* a = host_view(buf.data(), 8);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(aoti::live_tensor_objs(), t0 + 1);
  EXPECT_EQ(aoti::live_storages(), s0 + 1);
  aoti::TensorObj* b = aoti::alias(a); // a second view, the same storage
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(aoti::live_tensor_objs(), t0 + 2);
  EXPECT_EQ(aoti::live_storages(), s0 + 1);
  aoti::destroy_tensor(a);
  EXPECT_EQ(aoti::live_tensor_objs(), t0 + 1);
  EXPECT_EQ(aoti::live_storages(), s0 + 1); // b still holds it
  aoti::destroy_tensor(b);
  EXPECT_EQ(aoti::live_tensor_objs(), t0);
  EXPECT_EQ(aoti::live_storages(), s0);
}

TEST(LiveCounts, RefusedViewCountsNothing) {
  const int64_t t0 = aoti::live_tensor_objs(), s0 = aoti::live_storages();
  std::vector<int64_t> sizes(aoti::Dims::kMaxRank + 1, 1);
  float x = 0;
  EXPECT_EQ(aoti::make_view(&x, sizeof x, static_cast<int64_t>(sizes.size()), sizes.data(), nullptr,
                            aoti::kDtF32, aoti::kDevCpu, 0),
            nullptr);
  EXPECT_EQ(aoti::live_tensor_objs(), t0);
  EXPECT_EQ(aoti::live_storages(), s0);
}

TEST(LiveCounts, ManyMadeAndDroppedReturnToTheStart) {
  const int64_t t0 = aoti::live_tensor_objs(), s0 = aoti::live_storages();
  std::vector<float> buf(4);
  for (int i = 0; i < 1000; ++i) aoti::destroy_tensor(host_view(buf.data(), 4));
  EXPECT_EQ(aoti::live_tensor_objs(), t0);
  EXPECT_EQ(aoti::live_storages(), s0);
}

// Stand-ins for a stream and device blocks: only compared, never used.
cudaStream_t fake_stream(uintptr_t v) { return reinterpret_cast<cudaStream_t>(v); }
void* fake_block(uintptr_t v) { return reinterpret_cast<void*>(v); }

TEST(StreamCache, FreedBlocksServeTheirSizeClassAndAreCounted) {
  const cudaStream_t s = fake_stream(0x5000);
  aoti::pool_cache_stream(s, 0);
  const uint64_t c0 = aoti::pool_stats().cached;
  // 1000 and 600 bytes share the 1024-byte class; 2000 is the 2048 class.
  ASSERT_EQ(aoti::pool_free(fake_block(0x10000), 1000, s), cudaSuccess);
  ASSERT_EQ(aoti::pool_free(fake_block(0x20000), 2000, s), cudaSuccess);
  EXPECT_EQ(aoti::pool_stats().cached, c0 + 1024 + 2048);
  void* p = nullptr;
  ASSERT_EQ(aoti::pool_alloc(&p, 600, 0, s), cudaSuccess);
  EXPECT_EQ(p, fake_block(0x10000));
  EXPECT_EQ(aoti::pool_stats().cached, c0 + 2048);
  ASSERT_EQ(aoti::pool_free(p, 600, s), cudaSuccess); // back, then out again
  ASSERT_EQ(aoti::pool_alloc(&p, 1024, 0, s), cudaSuccess);
  EXPECT_EQ(p, fake_block(0x10000));
  ASSERT_EQ(aoti::pool_alloc(&p, 1537, 0, s), cudaSuccess);
  EXPECT_EQ(p, fake_block(0x20000));
  EXPECT_EQ(aoti::pool_stats().cached, c0);
  // The cache is empty again: forgetting the stream frees nothing.
  aoti::pool_forget_stream(s);
}

TEST(StreamCache, SteadyStateReuseDoesNotGrowTheCache) {
  const cudaStream_t s = fake_stream(0x6000);
  aoti::pool_cache_stream(s, 0);
  const uint64_t c0 = aoti::pool_stats().cached;
  // One execute's temporaries: freed, then made again in the same sizes.
  const size_t sizes[] = {2048, 256, 131072};
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(aoti::pool_free(fake_block(0x100000 * (i + 1)), sizes[i], s), cudaSuccess);
  }
  const uint64_t held = aoti::pool_stats().cached;
  EXPECT_EQ(held, c0 + 2048 + 512 + 131072);
  for (int rep = 0; rep < 100; ++rep) {
    void* got[3];
    for (size_t i = 0; i < 3; ++i)
      ASSERT_EQ(aoti::pool_alloc(&got[i], sizes[i], 0, s), cudaSuccess);
    for (size_t i = 0; i < 3; ++i) ASSERT_EQ(aoti::pool_free(got[i], sizes[i], s), cudaSuccess);
  }
  EXPECT_EQ(aoti::pool_stats().cached, held);
  for (size_t i = 0; i < 3; ++i) {
    void* p = nullptr;
    ASSERT_EQ(aoti::pool_alloc(&p, sizes[i], 0, s), cudaSuccess);
    EXPECT_EQ(p, fake_block(0x100000 * (i + 1)));
  }
  EXPECT_EQ(aoti::pool_stats().cached, c0);
  aoti::pool_forget_stream(s);
}

} // namespace
