// TokenRunner on toy decoders written with pte-writer (toy_decoder.h) in
// each export convention it drives, against the same model computed in C++:
// greedy sequences, chunked prefill, the context limit, stop tokens,
// callbacks, stats, seeded sampling, continuing a sequence, and the errors
// of programs and prompts it cannot take.
#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/llm/runner/token_runner.h>
#include <executorch/runtime/platform/runtime.h>

#include "pte_writer.h"
#include "toy_decoder.h"

namespace {

using executorch::extension::BufferDataLoader;
using executorch::extension::Module;
using executorch::extension::llm::GenerationConfig;
using executorch::extension::llm::Stats;
using executorch::extension::llm::TokenRunner;
using executorch::runtime::Error;

const std::vector<uint64_t> kPrompt = {3, 1, 4, 1, 5, 2, 6, 5, 3}; // 9: chunks 6 + 3

// A runner over program bytes that outlive it.
struct Fixture {
  std::vector<uint8_t> bytes;
  std::unique_ptr<TokenRunner> runner;

  explicit Fixture(const toy::Options& o, TokenRunner::Options ro = {})
      : bytes(toy::make_program(o)) {
    executorch::runtime::runtime_init();
    auto module =
        std::make_unique<Module>(std::make_unique<BufferDataLoader>(bytes.data(), bytes.size()),
                                 nullptr, nullptr, nullptr, nullptr, /*share_memory_arenas=*/true);
    runner = std::make_unique<TokenRunner>(std::move(module), ro);
  }

  std::vector<uint64_t> run(const GenerationConfig& config, Error* error = nullptr,
                            const std::vector<uint64_t>& prompt = kPrompt) {
    std::vector<uint64_t> out;
    const Error e = runner->generate(prompt, config, [&](uint64_t t) { out.push_back(t); });
    if (error != nullptr) {
      *error = e;
    } else {
      EXPECT_EQ(e, Error::Ok);
    }
    return out;
  }
};

GenerationConfig greedy(int32_t n) {
  GenerationConfig c;
  c.temperature = 0.f;
  c.max_new_tokens = n;
  c.echo = false;
  return c;
}

using Case = std::tuple<toy::Layout, toy::Logits, toy::LogitsType, bool>;

class GreedyTest : public ::testing::TestWithParam<Case> {};

TEST_P(GreedyTest, MatchesTheReference) {
  toy::Options o;
  std::tie(o.layout, o.logits, o.type, o.int32_inputs) = GetParam();
  Fixture f(o);
  const auto got = f.run(greedy(10));
  EXPECT_EQ(got, toy::reference_greedy(o, kPrompt, 10));
  EXPECT_EQ(f.runner->position(), int64_t(kPrompt.size() + 9));
  const auto& info = f.runner->model_info();
  EXPECT_EQ(info.vocab_size, toy::kVocab);
  EXPECT_EQ(info.prefill.dynamic_tokens, o.layout != toy::Layout::ForwardStatic);
  EXPECT_EQ(info.prefill.positions_per_token, o.layout == toy::Layout::PrefillDecode);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  static const char* const kLayouts[] = {"PrefillDecode", "ForwardDynamic", "ForwardStatic"};
  static const char* const kTypes[] = {"F32", "F16", "BF16"};
  return std::string(kLayouts[int(std::get<0>(info.param))]) +
         (std::get<1>(info.param) == toy::Logits::LastOnly ? "_Last_" : "_All_") +
         kTypes[int(std::get<2>(info.param))] + (std::get<3>(info.param) ? "_I32" : "_I64");
}

INSTANTIATE_TEST_SUITE_P(
    Conventions, GreedyTest,
    ::testing::Values(
        Case{toy::Layout::PrefillDecode, toy::Logits::AllPositions, toy::LogitsType::Float, false},
        Case{toy::Layout::PrefillDecode, toy::Logits::LastOnly, toy::LogitsType::BFloat16, false},
        Case{toy::Layout::PrefillDecode, toy::Logits::AllPositions, toy::LogitsType::Half, true},
        Case{toy::Layout::ForwardDynamic, toy::Logits::LastOnly, toy::LogitsType::Float, false},
        Case{toy::Layout::ForwardDynamic, toy::Logits::AllPositions, toy::LogitsType::Half, true},
        Case{toy::Layout::ForwardStatic, toy::Logits::AllPositions, toy::LogitsType::Float, false},
        Case{toy::Layout::ForwardStatic, toy::Logits::LastOnly, toy::LogitsType::BFloat16, true}),
    case_name);

TEST(TokenRunnerTest, ContextLengthFromTheProgramOrTheOptions) {
  toy::Options o;
  o.metadata = true;
  Fixture f(o);
  EXPECT_EQ(f.run(greedy(-1)).size(), size_t(toy::kContext) - kPrompt.size());
  EXPECT_EQ(f.runner->model_info().max_context_len, toy::kContext);

  TokenRunner::Options ro;
  ro.max_context_len = 12;
  Fixture limited(o, ro);
  EXPECT_EQ(limited.run(greedy(-1)).size(), 3u);
  EXPECT_EQ(limited.run(greedy(2)).size(), 2u);
  GenerationConfig seq = greedy(-1);
  seq.seq_len = 10;
  EXPECT_EQ(limited.run(seq).size(), 1u);

  // No metadata and no limit: max_new_tokens is required.
  Fixture bare(toy::Options{});
  Error e = Error::Ok;
  bare.run(greedy(-1), &e);
  EXPECT_EQ(e, Error::InvalidArgument);
}

TEST(TokenRunnerTest, StopTokensEndTheGenerationAndAreReported) {
  toy::Options o;
  const auto full = toy::reference_greedy(o, kPrompt, 12);
  const uint64_t stop = full[4];
  const size_t first = size_t(std::find(full.begin(), full.end(), stop) - full.begin());
  Fixture f(o);
  GenerationConfig c = greedy(12);
  c.stop_tokens = {stop};
  const auto got = f.run(c);
  EXPECT_EQ(got, std::vector<uint64_t>(full.begin(), full.begin() + long(first) + 1));

  // The program's get_eos_ids when the config names none.
  o.eos_ids = {int64_t(stop), 255};
  Fixture eos(o);
  EXPECT_EQ(eos.run(greedy(12)), got);
  EXPECT_EQ(eos.runner->model_info().eos_ids, (std::vector<uint64_t>{stop, 255}));
}

TEST(TokenRunnerTest, EchoWarmingAndStop) {
  toy::Options o;
  Fixture f(o);
  GenerationConfig c = greedy(3);
  c.echo = true;
  auto got = f.run(c);
  std::vector<uint64_t> want = kPrompt;
  const auto gen = toy::reference_greedy(o, kPrompt, 3);
  want.insert(want.end(), gen.begin(), gen.end());
  EXPECT_EQ(got, want);

  c.warming = true;
  bool stats_called = false;
  std::vector<uint64_t> none;
  Fixture warm(o);
  ASSERT_EQ(warm.runner->generate(
                kPrompt, c, [&](uint64_t t) { none.push_back(t); },
                [&](const Stats&) { stats_called = true; }),
            Error::Ok);
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(stats_called);

  std::vector<uint64_t> stopped;
  Fixture s(o);
  ASSERT_EQ(s.runner->generate(kPrompt, greedy(10),
                               [&](uint64_t t) {
                                 stopped.push_back(t);
                                 if (stopped.size() == 3) s.runner->stop();
                               }),
            Error::Ok);
  EXPECT_EQ(stopped, toy::reference_greedy(o, kPrompt, 3));
}

TEST(TokenRunnerTest, StatsCountTokensAndTime) {
  Fixture f(toy::Options{});
  Stats seen;
  ASSERT_EQ(f.runner->generate(kPrompt, greedy(10), {}, [&](const Stats& s) { seen = s; }),
            Error::Ok);
  EXPECT_EQ(seen.num_prompt_tokens, int64_t(kPrompt.size()));
  EXPECT_EQ(seen.num_generated_tokens, 10);
  EXPECT_EQ(seen.num_decode_steps, 9);
  EXPECT_GT(seen.prefill_seconds, 0.0);
  EXPECT_GT(seen.decode_seconds, 0.0);
  EXPECT_DOUBLE_EQ(seen.decode_tokens_per_second(), 9 / seen.decode_seconds);
  EXPECT_DOUBLE_EQ(seen.prefill_tokens_per_second(), 9 / seen.prefill_seconds);
  EXPECT_LE(seen.model_load_start_ms, seen.model_load_end_ms);
  EXPECT_LE(seen.inference_start_ms, seen.first_token_ms);
  EXPECT_LE(seen.first_token_ms, seen.inference_end_ms);
  const std::string json = executorch::extension::llm::stats_to_json_string(seen);
  EXPECT_NE(json.find("\"generated_tokens\":10,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"decode_tokens_per_second\":"), std::string::npos) << json;
  EXPECT_EQ(f.runner->stats().num_generated_tokens, 10);
}

TEST(TokenRunnerTest, SeededSamplingRepeats) {
  toy::Options o;
  GenerationConfig c = greedy(12);
  c.temperature = 1.5f;
  c.topp = 0.95f;
  c.topk = 6;
  c.seed = 7;
  Fixture a(o), b(o);
  const auto first = a.run(c);
  EXPECT_EQ(first, b.run(c));
  c.seed = 8;
  Fixture other(o);
  EXPECT_NE(first, other.run(c));
  EXPECT_NE(first, toy::reference_greedy(o, kPrompt, 12));
}

TEST(TokenRunnerTest, GenerateFromPosContinuesTheSequence) {
  toy::Options o;
  Fixture f(o);
  auto got = f.run(greedy(4));
  std::vector<uint64_t> more;
  ASSERT_EQ(f.runner->generate_from_pos({got.back()}, f.runner->position(), greedy(5),
                                        [&](uint64_t t) { more.push_back(t); }),
            Error::Ok);
  got.insert(got.end(), more.begin(), more.end());
  EXPECT_EQ(got, toy::reference_greedy(o, kPrompt, 9));
}

TEST(TokenRunnerTest, BadPromptsFailCleanly) {
  toy::Options o;
  o.metadata = true;
  Fixture f(o);
  Error e = Error::Ok;
  f.run(greedy(3), &e, {});
  EXPECT_EQ(e, Error::InvalidArgument);
  f.run(greedy(3), &e, {1, uint64_t(toy::kVocab)});
  EXPECT_EQ(e, Error::InvalidArgument);
  f.run(greedy(3), &e, std::vector<uint64_t>(toy::kContext + 1, 1));
  EXPECT_EQ(e, Error::InvalidArgument);
  // A full context leaves nothing to generate.
  f.run(greedy(3), &e, std::vector<uint64_t>(toy::kContext, 1));
  EXPECT_EQ(e, Error::InvalidArgument);
  // Still usable after the errors.
  EXPECT_EQ(f.run(greedy(2)).size(), 2u);
}

// A program that is not a decoder: one method taking a single float.
std::vector<uint8_t> not_a_decoder() {
  ptewriter::ProgramDesc p;
  ptewriter::MethodDesc m;
  ptewriter::TensorDesc t;
  t.sizes = {4};
  t.mem_id = 1;
  m.inputs = {m.add_value(ptewriter::ValueDesc::Tensor(t))};
  m.outputs = m.inputs;
  m.non_const_buffer_sizes = {0, 16};
  p.methods.push_back(m);
  return ptewriter::serialize(p);
}

TEST(TokenRunnerTest, ProgramsItCannotDriveFailAtLoad) {
  const auto bytes = not_a_decoder();
  executorch::runtime::runtime_init();
  TokenRunner r(
      std::make_unique<Module>(std::make_unique<BufferDataLoader>(bytes.data(), bytes.size())));
  EXPECT_EQ(r.load(), Error::NotSupported);
  EXPECT_FALSE(r.is_loaded());
  EXPECT_EQ(r.generate({1}, greedy(1)), Error::NotSupported);

  TokenRunner::Options named;
  named.decode_method = "step"; // no such method
  Fixture missing(toy::Options{}, named);
  EXPECT_NE(missing.runner->load(), Error::Ok);
}

} // namespace
