// Stats: what one generation cost. The millisecond timestamps keep
// upstream's names (extension/llm/runner/stats.h) for code that reads them;
// the rates come from the precise durations beside them, since a decode
// step of a small model takes well under a millisecond.
#pragma once

#include <cstdint>
#include <string>

#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {
namespace llm {

struct EXECUTORCH_API Stats {
  // Units of the *_ms fields per second.
  static constexpr long SCALING_FACTOR_UNITS_PER_SECOND = 1000;

  // Steady-clock timestamps (ms). model_load_*: around the runner's load();
  // inference_start/end: around one generate(); prompt_eval_end: the first
  // generated token was sampled (prefill done); first_token: same moment.
  long model_load_start_ms = 0;
  long model_load_end_ms = 0;
  long inference_start_ms = 0;
  long prompt_eval_end_ms = 0;
  long first_token_ms = 0;
  long inference_end_ms = 0;
  long aggregate_sampling_time_ms = 0;

  int64_t num_prompt_tokens = 0;
  // Every token generate() produced, the first (from prefill) included.
  int64_t num_generated_tokens = 0;

  // Precise durations (seconds): prefill = the prompt's method calls and
  // the first sample; decode = the decode calls and their samples (token
  // callbacks excluded). num_decode_steps = decode calls made.
  double prefill_seconds = 0;
  double decode_seconds = 0;
  double sampling_seconds = 0;
  int64_t num_decode_steps = 0;

  double prefill_tokens_per_second() const {
    return prefill_seconds > 0 ? static_cast<double>(num_prompt_tokens) / prefill_seconds : 0.0;
  }
  double decode_tokens_per_second() const {
    return decode_seconds > 0 ? static_cast<double>(num_decode_steps) / decode_seconds : 0.0;
  }

  void reset() { *this = Stats(); }
};

// Milliseconds on the steady clock (what the *_ms fields hold).
EXECUTORCH_API long time_in_ms();

// One-line JSON object with every field and both rates.
EXECUTORCH_API std::string stats_to_json_string(const Stats& stats);

} // namespace llm
} // namespace extension
} // namespace executorch
