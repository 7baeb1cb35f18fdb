// A program written by upstream's exporter whose graph keeps llama:: custom
// ops (tests/data/llm_ops/): llama::update_cache.out into two mutable KV
// cache buffers, then llama::custom_sdpa.out (causal, 4 query heads over 2
// cache heads) at start_pos = input_pos[0], run through Module twice (prefill
// at 0, then at 3, reading the first call's cache entries) against the
// outputs PyTorch eager (upstream's own CPU kernels) gave at export time;
// and a second program with custom_sdpa's other forms and
// custom_quantized_sdpa.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/platform/runtime.h>

#include <gtest/gtest.h>

#include "test_files.h"

#include <cstring>
#include <string>
#include <vector>

using executorch::extension::make_tensor_ptr;
using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;

namespace {

std::string data_file(const char* name) {
  return et_test::data_path("ET_LLM_OPS_DATA_DIR", ET_LLM_OPS_DATA_DIR_DEFAULT, name);
}

using et_test::read_floats;

// Shapes of the exported program: q [1, 3, 4, 8], k and v [1, 3, 2, 8].
constexpr size_t kQ = 1 * 3 * 4 * 8, kKV = 1 * 3 * 2 * 8;

TEST(LlmProgram, KvCacheAndCustomSdpaMatchEagerOverTwoCalls) {
  executorch::runtime::runtime_init();
  Module m(data_file("kv_cache_sdpa.pte"));
  ASSERT_EQ(m.load(), Error::Ok);
  const std::vector<float> in = read_floats(data_file("kv_cache_sdpa.inputs.bin"));
  const std::vector<float> want = read_floats(data_file("kv_cache_sdpa.expected.bin"));
  ASSERT_EQ(in.size(), 2 * (kQ + 2 * kKV));
  ASSERT_EQ(want.size(), 2 * kQ);
  for (int call = 0; call < 2; ++call) {
    const float* base = in.data() + call * (kQ + 2 * kKV);
    auto q = make_tensor_ptr<float>({1, 3, 4, 8}, std::vector<float>(base, base + kQ));
    auto k = make_tensor_ptr<float>({1, 3, 2, 8}, std::vector<float>(base + kQ, base + kQ + kKV));
    auto v = make_tensor_ptr<float>({1, 3, 2, 8},
                                    std::vector<float>(base + kQ + kKV, base + kQ + 2 * kKV));
    auto pos = make_tensor_ptr<int64_t>({1}, {call * 3});
    auto out = m.forward(std::vector<EValue>{*q, *k, *v, *pos});
    ASSERT_TRUE(out.ok()) << "call " << call << " error 0x" << std::hex
                          << static_cast<uint32_t>(out.error());
    ASSERT_GE(out->size(), 1u);
    const auto& t = out->back().toTensor();
    ASSERT_EQ(t.dim(), 4);
    ASSERT_EQ(static_cast<size_t>(t.numel()), kQ);
    const float* got = t.const_data_ptr<float>();
    for (size_t i = 0; i < kQ; ++i) {
      EXPECT_NEAR(got[i], want[call * kQ + i], 2e-5) << "call " << call << " at " << i;
    }
  }
}

TEST(LlmProgram, StartPosPastTheCacheFailsCleanly) {
  executorch::runtime::runtime_init();
  Module m(data_file("kv_cache_sdpa.pte"));
  ASSERT_EQ(m.load(), Error::Ok);
  auto q = make_tensor_ptr<float>({1, 3, 4, 8}, std::vector<float>(kQ, 0.5f));
  auto k = make_tensor_ptr<float>({1, 3, 2, 8}, std::vector<float>(kKV, 0.5f));
  auto v = make_tensor_ptr<float>({1, 3, 2, 8}, std::vector<float>(kKV, 0.5f));
  for (int64_t bad : {int64_t{10}, int64_t{-1}, int64_t{1} << 40}) {
    auto pos = make_tensor_ptr<int64_t>({1}, {bad});
    auto out = m.forward(std::vector<EValue>{*q, *k, *v, *pos});
    EXPECT_FALSE(out.ok()) << bad;
  }
}

// The second program (export_sdpa_variants.py): custom_sdpa non-causal at
// start_pos 2 and with an additive mask over the whole cache, and
// custom_quantized_sdpa over int8 per-token quantized q/k/v, with 6 query
// heads over 2 cache heads.
TEST(LlmProgram, SdpaVariantsMatchEager) {
  executorch::runtime::runtime_init();
  Module m(data_file("sdpa_variants.pte"));
  ASSERT_EQ(m.load(), Error::Ok);
  const std::vector<uint8_t> bytes = et_test::read_bytes(data_file("sdpa_variants.inputs.bin"));
  size_t off = 0;
  auto floats = [&](size_t n) {
    std::vector<float> v(n);
    if (off + n * sizeof(float) <= bytes.size()) std::memcpy(v.data(), bytes.data() + off, n * 4);
    off += n * sizeof(float);
    return v;
  };
  auto int8s = [&](size_t n) {
    std::vector<int8_t> v(n);
    if (off + n <= bytes.size()) std::memcpy(v.data(), bytes.data() + off, n);
    off += n;
    return v;
  };
  constexpr size_t q_n = 3 * 6 * 8, kv_n = 10 * 2 * 8;
  auto q = make_tensor_ptr<float>({1, 3, 6, 8}, floats(q_n));
  auto k = make_tensor_ptr<float>({1, 10, 2, 8}, floats(kv_n));
  auto v = make_tensor_ptr<float>({1, 10, 2, 8}, floats(kv_n));
  auto mask = make_tensor_ptr<float>({3, 10}, floats(30));
  auto qi = make_tensor_ptr<int8_t>({1, 3, 6, 8}, int8s(q_n));
  auto ki = make_tensor_ptr<int8_t>({1, 10, 2, 8}, int8s(kv_n));
  auto vi = make_tensor_ptr<int8_t>({1, 10, 2, 8}, int8s(kv_n));
  auto qz = make_tensor_ptr<int8_t>({1, 3, 6, 1}, int8s(18));
  auto qs = make_tensor_ptr<float>({1, 3, 6, 1}, floats(18));
  auto kz = make_tensor_ptr<int8_t>({1, 10, 2, 1}, int8s(20));
  auto ks = make_tensor_ptr<float>({1, 10, 2, 1}, floats(20));
  auto vz = make_tensor_ptr<int8_t>({1, 10, 2, 1}, int8s(20));
  auto vs = make_tensor_ptr<float>({1, 10, 2, 1}, floats(20));
  ASSERT_EQ(off, bytes.size());
  const std::vector<float> want = read_floats(data_file("sdpa_variants.expected.bin"));
  ASSERT_EQ(want.size(), 3 * q_n);
  auto out = m.forward(
      std::vector<EValue>{*q, *k, *v, *mask, *qi, *ki, *vi, *qz, *qs, *kz, *ks, *vz, *vs});
  ASSERT_TRUE(out.ok()) << "error 0x" << std::hex << static_cast<uint32_t>(out.error());
  ASSERT_EQ(out->size(), 3u);
  for (size_t o = 0; o < 3; ++o) {
    const auto& t = (*out)[o].toTensor();
    ASSERT_EQ(static_cast<size_t>(t.numel()), q_n);
    const float* got = t.const_data_ptr<float>();
    for (size_t i = 0; i < q_n; ++i) {
      EXPECT_NEAR(got[i], want[o * q_n + i], 2e-5) << "output " << o << " at " << i;
    }
  }
}

} // namespace
