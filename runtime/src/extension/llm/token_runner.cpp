#include <executorch/extension/llm/runner/token_runner.h>

#include <algorithm>
#include <chrono>
#include <limits>

#include <executorch/extension/tensor/tensor_ptr_maker.h>
#include <executorch/runtime/platform/log.h>

#include "decoder_signature.h"

namespace executorch {
namespace extension {
namespace llm {

using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::runtime::Error;
using ::executorch::runtime::EValue;
using ::executorch::runtime::Result;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Stores values[i] in buffer as the method's index type (int64 or int32);
// false when a value does not fit.
bool store_indices(std::vector<int64_t>& buffer, ScalarType type, size_t n,
                   int64_t (*value)(const void*, size_t), const void* ctx) {
  buffer.resize(std::max<size_t>(n, 1));
  if (type == ScalarType::Long) {
    for (size_t i = 0; i < n; ++i) {
      buffer[i] = value(ctx, i);
    }
    return true;
  }
  auto* out = reinterpret_cast<int32_t*>(buffer.data());
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = value(ctx, i);
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      return false;
    }
    out[i] = static_cast<int32_t>(v);
  }
  return true;
}

int64_t token_at(const void* tokens, size_t i) {
  return static_cast<int64_t>(static_cast<const uint64_t*>(tokens)[i]);
}

struct Positions {
  int64_t start;
  bool per_token;
};
int64_t position_at(const void* p, size_t i) {
  const auto* pos = static_cast<const Positions*>(p);
  return pos->start + (pos->per_token ? static_cast<int64_t>(i) : 0);
}

// The last position's logits in `out` ([1, T, V], [T, V] or [1, V]).
Result<const void*> last_logits_row(const EValue& out, int64_t vocab, const std::string& m) {
  ET_CHECK_OR_RETURN_ERROR(out.isTensor(), InvalidState, "Output 0 of '%s' is not a tensor",
                           m.c_str());
  const Tensor& t = out.toTensor();
  ET_CHECK_OR_RETURN_ERROR(t.dim() >= 1 && t.size(t.dim() - 1) == vocab && t.numel() >= vocab,
                           InvalidState, "Logits of '%s' do not end in the vocabulary (%lld)",
                           m.c_str(), static_cast<long long>(vocab));
  const int64_t rows = t.numel() / vocab;
  const size_t row_bytes = t.nbytes() / static_cast<size_t>(rows);
  return static_cast<const char*>(t.const_data_ptr()) + static_cast<size_t>(rows - 1) * row_bytes;
}

int32_t sample_row(Sampler& sampler, const void* row, ScalarType type) {
  switch (type) {
    case ScalarType::Float:
      return sampler.sample(static_cast<const float*>(row));
    case ScalarType::Double:
      return sampler.sample(static_cast<const double*>(row));
    case ScalarType::Half:
      return sampler.sample(static_cast<const ::executorch::aten::Half*>(row));
    case ScalarType::BFloat16:
      return sampler.sample(static_cast<const ::executorch::aten::BFloat16*>(row));
    default:
      return -1;
  }
}

} // namespace

TokenRunner::TokenRunner(std::unique_ptr<Module> module)
    : TokenRunner(std::move(module), Options()) {}
TokenRunner::TokenRunner(std::unique_ptr<Module> module, Options options)
    : owned_module_(std::move(module)),
      module_(owned_module_.get()),
      options_(std::move(options)) {}
TokenRunner::TokenRunner(Module* module) : TokenRunner(module, Options()) {}
TokenRunner::TokenRunner(Module* module, Options options)
    : module_(module), options_(std::move(options)) {}
TokenRunner::~TokenRunner() = default;

Error TokenRunner::load() {
  if (loaded_) {
    return Error::Ok;
  }
  ET_CHECK_OR_RETURN_ERROR(module_ != nullptr, InvalidArgument, "TokenRunner has no Module");
  stats_.model_load_start_ms = time_in_ms();
  ET_CHECK_OK_OR_RETURN_ERROR(module_->load());
  auto names = module_->method_names();
  ET_CHECK_OK_OR_RETURN_ERROR(names.error());
  const bool split = names->count("prefill") > 0 && names->count("decode") > 0;
  const std::string prefill = !options_.prefill_method.empty() ? options_.prefill_method
                              : split                          ? "prefill"
                                                               : "forward";
  const std::string decode = !options_.decode_method.empty() ? options_.decode_method
                             : split                         ? "decode"
                                                             : "forward";
  auto dynamic = internal::read_int_metadata_or(*module_, *names, {"enable_dynamic_shape"}, -1);
  ET_CHECK_OK_OR_RETURN_ERROR(dynamic.error());
  auto prefill_sig = internal::read_signature(*module_, prefill, static_cast<int>(*dynamic));
  ET_CHECK_OK_OR_RETURN_ERROR(prefill_sig.error());
  auto decode_sig = internal::read_signature(*module_, decode, static_cast<int>(*dynamic));
  ET_CHECK_OK_OR_RETURN_ERROR(decode_sig.error());
  ET_CHECK_OR_RETURN_ERROR(decode_sig->max_tokens == 1 || decode_sig->dynamic_tokens, NotSupported,
                           "Decode method '%s' takes exactly %lld tokens, not 1", decode.c_str(),
                           static_cast<long long>(decode_sig->max_tokens));
  ModelInfo info;
  info.prefill = std::move(*prefill_sig);
  info.decode = std::move(*decode_sig);
  ET_CHECK_OK_OR_RETURN_ERROR(
      internal::read_logits(*module_, prefill, &info.vocab_size, &info.logits_type));
  int64_t decode_vocab = 0;
  ScalarType decode_type = ScalarType::Float;
  ET_CHECK_OK_OR_RETURN_ERROR(internal::read_logits(*module_, decode, &decode_vocab, &decode_type));
  ET_CHECK_OR_RETURN_ERROR(decode_vocab == info.vocab_size, NotSupported,
                           "'%s' and '%s' disagree on the vocabulary (%lld, %lld)", prefill.c_str(),
                           decode.c_str(), static_cast<long long>(info.vocab_size),
                           static_cast<long long>(decode_vocab));
  auto context = internal::read_int_metadata_or(*module_, *names,
                                                {"get_max_context_len", "get_max_seq_len"}, -1);
  ET_CHECK_OK_OR_RETURN_ERROR(context.error());
  info.max_context_len = options_.max_context_len > 0 ? options_.max_context_len : *context;
  for (const char* eos : {"get_eos_ids", "get_eos_id"}) {
    if (names->count(eos) == 0) {
      continue;
    }
    auto ids = internal::read_int_metadata(*module_, eos);
    ET_CHECK_OK_OR_RETURN_ERROR(ids.error());
    for (int64_t id : *ids) {
      if (id >= 0) {
        info.eos_ids.push_back(static_cast<uint64_t>(id));
      }
    }
    break;
  }
  ET_CHECK_OK_OR_RETURN_ERROR(module_->load_method(prefill));
  ET_CHECK_OK_OR_RETURN_ERROR(module_->load_method(decode));
  info_ = std::move(info);
  loaded_ = true;
  stats_.model_load_end_ms = time_in_ms();
  return Error::Ok;
}

Result<uint64_t> TokenRunner::step(const MethodSignature& method, const uint64_t* tokens,
                                   int64_t count, int64_t start_pos, Sampler& sampler) {
  const size_t n = static_cast<size_t>(count);
  const Positions positions{start_pos, method.positions_per_token};
  const size_t n_positions = method.positions_per_token ? n : 1;
  ET_CHECK_OR_RETURN_ERROR(store_indices(token_buffer_, method.token_type, n, token_at, tokens) &&
                               store_indices(position_buffer_, method.position_type, n_positions,
                                             position_at, &positions),
                           InvalidArgument,
                           "A token or position does not fit the int32 inputs of '%s'",
                           method.name.c_str());
  auto token_tensor =
      from_blob(token_buffer_.data(), {1, static_cast<int32_t>(count)}, method.token_type);
  auto position_tensor =
      from_blob(position_buffer_.data(), {static_cast<int32_t>(n_positions)}, method.position_type);
  auto outputs = module_->execute(method.name, {EValue(*token_tensor), EValue(*position_tensor)});
  if (!outputs.ok()) {
    ET_LOG(Error, "'%s' failed on %lld tokens at position %lld", method.name.c_str(),
           static_cast<long long>(count), static_cast<long long>(start_pos));
    return outputs.error();
  }
  ET_CHECK_OR_RETURN_ERROR(!outputs->empty(), InvalidState, "'%s' returned nothing",
                           method.name.c_str());
  auto row = last_logits_row((*outputs)[0], info_.vocab_size, method.name);
  ET_CHECK_OK_OR_RETURN_ERROR(row.error());
  const auto sample_start = Clock::now();
  const int32_t token = sample_row(sampler, *row, (*outputs)[0].toTensor().scalar_type());
  stats_.sampling_seconds += seconds_since(sample_start);
  ET_CHECK_OR_RETURN_ERROR(token >= 0, InvalidState,
                           "Every logit '%s' returned is NaN (or of an unknown type)",
                           method.name.c_str());
  return static_cast<uint64_t>(token);
}

Result<uint64_t> TokenRunner::prefill(const std::vector<uint64_t>& prompt, int64_t start_pos,
                                      Sampler& sampler) {
  const MethodSignature& p = info_.prefill;
  const int64_t total = static_cast<int64_t>(prompt.size());
  int64_t done = 0;
  uint64_t next = 0;
  while (done < total) {
    const int64_t left = total - done;
    const MethodSignature* method = &p;
    int64_t chunk = std::min(left, p.max_tokens);
    if (!p.dynamic_tokens && chunk != p.max_tokens) {
      // A static prefill takes exactly max_tokens: the rest goes one by one.
      method = &info_.decode;
      chunk = 1;
    }
    auto token = step(*method, prompt.data() + done, chunk, start_pos + done, sampler);
    ET_CHECK_OK_OR_RETURN_ERROR(token.error());
    next = *token;
    done += chunk;
  }
  return next;
}

Error TokenRunner::check_prompt(const std::vector<uint64_t>& prompt, int64_t start_pos) const {
  ET_CHECK_OR_RETURN_ERROR(!prompt.empty(), InvalidArgument, "The prompt has no tokens");
  ET_CHECK_OR_RETURN_ERROR(start_pos >= 0, InvalidArgument, "Negative start position %lld",
                           static_cast<long long>(start_pos));
  for (uint64_t t : prompt) {
    ET_CHECK_OR_RETURN_ERROR(t < static_cast<uint64_t>(info_.vocab_size), InvalidArgument,
                             "Prompt token %llu is outside the vocabulary (%lld tokens)",
                             static_cast<unsigned long long>(t),
                             static_cast<long long>(info_.vocab_size));
  }
  const int64_t end = start_pos + static_cast<int64_t>(prompt.size());
  ET_CHECK_OR_RETURN_ERROR(
      info_.max_context_len < 0 || end <= info_.max_context_len, InvalidArgument,
      "%zu prompt tokens from position %lld do not fit the context of %lld", prompt.size(),
      static_cast<long long>(start_pos), static_cast<long long>(info_.max_context_len));
  return Error::Ok;
}

Error TokenRunner::generate(const std::vector<uint64_t>& prompt, const GenerationConfig& config,
                            std::function<void(uint64_t)> token_callback,
                            std::function<void(const Stats&)> stats_callback) {
  return generate_from_pos(prompt, 0, config, std::move(token_callback), std::move(stats_callback));
}

Error TokenRunner::generate_from_pos(const std::vector<uint64_t>& prompt, int64_t start_pos,
                                     const GenerationConfig& config,
                                     std::function<void(uint64_t)> token_callback,
                                     std::function<void(const Stats&)> stats_callback) {
  ET_CHECK_OK_OR_RETURN_ERROR(load());
  ET_CHECK_OK_OR_RETURN_ERROR(check_prompt(prompt, start_pos));
  const bool unbounded = info_.max_context_len < 0 && config.seq_len < 0;
  ET_CHECK_OR_RETURN_ERROR(!unbounded || config.max_new_tokens >= 0, InvalidArgument,
                           "The program does not give its context length: set "
                           "max_new_tokens, seq_len or the runner's max_context_len");
  const int64_t room = info_.max_context_len < 0 ? std::numeric_limits<int32_t>::max()
                                                 : info_.max_context_len - start_pos;
  const int32_t max_new = config.resolve_max_new_tokens(
      static_cast<int32_t>(std::min<int64_t>(room, std::numeric_limits<int32_t>::max())),
      static_cast<int32_t>(prompt.size()));
  ET_CHECK_OR_RETURN_ERROR(max_new > 0, InvalidArgument,
                           "No token to generate: %zu prompt tokens, max_new_tokens %d, "
                           "seq_len %d, context %lld",
                           prompt.size(), config.max_new_tokens, config.seq_len,
                           static_cast<long long>(info_.max_context_len));
  const std::vector<uint64_t>& stops =
      config.stop_tokens.empty() ? info_.eos_ids : config.stop_tokens;
  auto emit = [&](uint64_t token) {
    if (token_callback && !config.warming) {
      token_callback(token);
    }
  };
  const long load_start = stats_.model_load_start_ms, load_end = stats_.model_load_end_ms;
  stats_.reset();
  stats_.model_load_start_ms = load_start;
  stats_.model_load_end_ms = load_end;
  stats_.num_prompt_tokens = static_cast<int64_t>(prompt.size());
  stats_.inference_start_ms = time_in_ms();
  stop_requested_ = false;
  if (config.echo) {
    std::for_each(prompt.begin(), prompt.end(), emit);
  }
  Sampler sampler(static_cast<int32_t>(info_.vocab_size), config.temperature, config.topp,
                  config.seed, config.topk);
  const auto prefill_start = Clock::now();
  auto token = prefill(prompt, start_pos, sampler);
  ET_CHECK_OK_OR_RETURN_ERROR(token.error());
  stats_.prefill_seconds = seconds_since(prefill_start);
  stats_.prompt_eval_end_ms = stats_.first_token_ms = time_in_ms();
  position_ = start_pos + static_cast<int64_t>(prompt.size());
  uint64_t current = *token;
  stats_.num_generated_tokens = 1;
  emit(current);
  while (stats_.num_generated_tokens < max_new && !stop_requested_ &&
         std::find(stops.begin(), stops.end(), current) == stops.end()) {
    const auto step_start = Clock::now();
    auto next = step(info_.decode, &current, 1, position_, sampler);
    ET_CHECK_OK_OR_RETURN_ERROR(next.error());
    stats_.decode_seconds += seconds_since(step_start);
    ++stats_.num_decode_steps;
    ++position_;
    current = *next;
    ++stats_.num_generated_tokens;
    emit(current);
  }
  stats_.inference_end_ms = time_in_ms();
  stats_.aggregate_sampling_time_ms = static_cast<long>(stats_.sampling_seconds * 1000);
  if (stats_callback && !config.warming) {
    stats_callback(stats_);
  }
  return Error::Ok;
}

} // namespace llm
} // namespace extension
} // namespace executorch
