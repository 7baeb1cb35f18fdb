#include <executorch/extension/llm/runner/stats.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>

namespace executorch {
namespace extension {
namespace llm {

long time_in_ms() {
  using namespace std::chrono;
  return static_cast<long>(
      duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count());
}

std::string stats_to_json_string(const Stats& s) {
  char buf[1024];
  std::snprintf(
      buf, sizeof(buf),
      "{\"prompt_tokens\":%" PRId64 ",\"generated_tokens\":%" PRId64 ",\"decode_steps\":%" PRId64
      ",\"model_load_start_ms\":%ld,\"model_load_end_ms\":%ld"
      ",\"inference_start_ms\":%ld,\"inference_end_ms\":%ld"
      ",\"prompt_eval_end_ms\":%ld,\"first_token_ms\":%ld"
      ",\"aggregate_sampling_time_ms\":%ld,\"SCALING_FACTOR_UNITS_PER_SECOND\":%ld"
      ",\"prefill_seconds\":%.9g,\"decode_seconds\":%.9g,\"sampling_seconds\":%.9g"
      ",\"prefill_tokens_per_second\":%.6g,\"decode_tokens_per_second\":%.6g}",
      s.num_prompt_tokens, s.num_generated_tokens, s.num_decode_steps, s.model_load_start_ms,
      s.model_load_end_ms, s.inference_start_ms, s.inference_end_ms, s.prompt_eval_end_ms,
      s.first_token_ms, s.aggregate_sampling_time_ms, Stats::SCALING_FACTOR_UNITS_PER_SECOND,
      s.prefill_seconds, s.decode_seconds, s.sampling_seconds, s.prefill_tokens_per_second(),
      s.decode_tokens_per_second());
  return buf;
}

} // namespace llm
} // namespace extension
} // namespace executorch
