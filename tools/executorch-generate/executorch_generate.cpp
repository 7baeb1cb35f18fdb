// executorch-generate: generate tokens with a decoder LLM program (.pte):
// prefill a prompt of token ids (or text, with a SentencePiece model), then
// decode greedily or by sampling, printing ids (or text) as they come and,
// on request, prefill and decode rates. The loop is libexecutorch's
// TokenRunner; this file is the command line around it.
//
// Every failure ends in exactly one line on stderr,
//   executorch-generate: error: Error::<Name>: <what was wrong>
// and exit status 1 (2 for a bad command line).

#include <CLI/CLI.hpp>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <executorch/extension/llm/runner/token_runner.h>
#include <executorch/extension/module/module.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/runtime.h>

#include "backend_option_args.h"
#include "executorch_generate_config.h"
#include "plugins.h"
#include "tokenizer.h"

namespace {

namespace rt = ::executorch::runtime;
namespace llm = ::executorch::extension::llm;
using ::executorch::extension::Module;
using rt::Error;

constexpr const char* kProg = "executorch-generate";
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

struct Options {
  std::string model;
  std::vector<std::string> ptd;
  std::string prompt;
  std::string text;
  std::string tokenizer;
  bool no_bos = false;
  int32_t max_new_tokens = 32;
  float temperature = 0.f;
  float top_p = 1.f;
  int32_t top_k = 0;
  uint64_t seed = 0;
  std::vector<uint64_t> stop;
  int64_t max_context = -1;
  std::string prefill_method;
  std::string decode_method;
  std::vector<std::string> backend_options;
  bool echo = false;
  int warmup = 0;
  int runs = 1;
  bool json = false;
  bool stats = false;
  bool no_plugins = false;
  bool verbose = false;
};

// ---------------------------------------------------------------------------
// Errors: the first runtime error line logged during an operation is
// appended to the tool's own message.

bool g_verbose = false;
std::string g_first_log_error;

void log_sink(rt::LogLevel level, const char* filename, const char*, size_t line,
              const char* message, size_t length) {
  std::string msg(message, length);
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) {
    msg.pop_back();
  }
  if (level >= rt::LogLevel::Error && g_first_log_error.empty()) {
    g_first_log_error = msg;
  }
  if (g_verbose) {
    const char* base = std::strrchr(filename, '/');
    std::fprintf(stderr, "%s: runtime %s:%zu] %s\n", kProg, base != nullptr ? base + 1 : filename,
                 line, msg.c_str());
  }
}

struct Failure {
  Error code;
  std::string message;
  int exit_code = kExitError;
};

[[noreturn]] void fail(Error code, const std::string& what, bool with_log = true) {
  Failure f{code, what};
  if (with_log && !g_first_log_error.empty()) {
    f.message += ": " + g_first_log_error;
  }
  throw f;
}

void check(Error e, const std::string& what) {
  if (e != Error::Ok) {
    fail(e, what);
  }
}

// ---------------------------------------------------------------------------
// Inputs

std::vector<uint64_t> parse_ids(const std::string& s) {
  std::vector<uint64_t> ids;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == ',' || s[i] == ' ') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < s.size() && s[end] >= '0' && s[end] <= '9') {
      ++end;
    }
    if (end == i || end - i > 19) {
      throw Failure{Error::InvalidArgument,
                    "--prompt: '" + s + "' is not a list of token ids (e.g. 1,15,27)", kExitUsage};
    }
    ids.push_back(std::stoull(s.substr(i, end - i)));
    i = end;
  }
  return ids;
}

std::unique_ptr<llm::TokenRunner> make_runner(const Options& o, BackendOptionArgs& opts) {
  auto module = std::make_unique<Module>(o.model, o.ptd, Module::LoadMode::Mmap, nullptr, nullptr,
                                         nullptr, /*share_memory_arenas=*/true);
  for (const std::string& arg : o.backend_options) {
    std::string why;
    if (!opts.add(arg, &why)) {
      throw Failure{Error::InvalidArgument, "--backend-option: " + why, kExitUsage};
    }
  }
  g_first_log_error.clear();
  const Error loaded = opts.map() != nullptr ? module->load(*opts.map()) : module->load();
  check(loaded, "cannot load '" + o.model + "'");
  llm::TokenRunner::Options ro;
  ro.prefill_method = o.prefill_method;
  ro.decode_method = o.decode_method;
  ro.max_context_len = o.max_context;
  auto runner = std::make_unique<llm::TokenRunner>(std::move(module), ro);
  check(runner->load(), "'" + o.model + "' is not a program this tool can drive");
  return runner;
}

// ---------------------------------------------------------------------------
// Output

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string json_ids(const std::vector<uint64_t>& ids) {
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); ++i) {
    out += (i ? "," : "") + std::to_string(ids[i]);
  }
  return out + "]";
}

// Prints tokens as they come: ids separated by spaces, or the text they
// decode to (the new suffix of the whole decoded sequence, so pieces that
// join across tokens come out right).
class Printer {
 public:
  Printer(const Tokenizer* tokenizer, bool quiet) : tokenizer_(tokenizer), quiet_(quiet) {}
  void add(uint64_t id) {
    ids_.push_back(id);
    if (quiet_) {
      return;
    }
    if (tokenizer_ == nullptr) {
      std::printf("%s%" PRIu64, ids_.size() > 1 ? " " : "", id);
    } else {
      const std::string text = tokenizer_->decode(ids_);
      if (text.size() > printed_ && text.compare(0, printed_, text_, 0, printed_) == 0) {
        std::fputs(text.c_str() + printed_, stdout);
        printed_ = text.size();
      }
      text_ = text;
    }
    std::fflush(stdout);
  }
  void finish() {
    if (!quiet_) {
      std::fputc('\n', stdout);
    }
  }
  const std::vector<uint64_t>& ids() const { return ids_; }
  void clear() {
    ids_.clear();
    text_.clear();
    printed_ = 0;
  }

 private:
  const Tokenizer* tokenizer_;
  bool quiet_;
  std::vector<uint64_t> ids_;
  std::string text_;
  size_t printed_ = 0;
};

void print_stats_line(const llm::Stats& s) {
  std::fprintf(stderr,
               "%s: prefill %" PRId64 " tokens in %.3f ms (%.1f tokens/s); decode %" PRId64
               " tokens in %.3f ms (%.1f tokens/s)\n",
               kProg, s.num_prompt_tokens, s.prefill_seconds * 1e3, s.prefill_tokens_per_second(),
               s.num_decode_steps, s.decode_seconds * 1e3, s.decode_tokens_per_second());
}

// ---------------------------------------------------------------------------
// The command

std::vector<uint64_t> build_prompt(const Options& o, const Tokenizer* tokenizer) {
  if (!o.prompt.empty() && !o.text.empty()) {
    throw Failure{Error::InvalidArgument, "give --prompt or --text, not both", kExitUsage};
  }
  if (!o.text.empty()) {
    if (tokenizer == nullptr) {
      throw Failure{Error::InvalidArgument, "--text needs --tokenizer", kExitUsage};
    }
    std::vector<uint64_t> ids;
    if (!o.no_bos && tokenizer->bos_id() >= 0) {
      ids.push_back(static_cast<uint64_t>(tokenizer->bos_id()));
    }
    const auto body = tokenizer->encode(o.text);
    ids.insert(ids.end(), body.begin(), body.end());
    return ids;
  }
  if (o.prompt.empty()) {
    throw Failure{Error::InvalidArgument, "no prompt: give --prompt IDS or --text TEXT",
                  kExitUsage};
  }
  return parse_ids(o.prompt);
}

llm::GenerationConfig make_config(const Options& o, const llm::TokenRunner& runner,
                                  const Tokenizer* tokenizer) {
  llm::GenerationConfig c;
  c.echo = o.echo;
  c.max_new_tokens = o.max_new_tokens;
  c.temperature = o.temperature;
  c.topp = o.top_p;
  c.topk = o.top_k;
  c.seed = o.seed;
  c.stop_tokens = o.stop;
  if (c.stop_tokens.empty() && tokenizer != nullptr && tokenizer->eos_id() >= 0) {
    // The model's own end-of-sequence ids and the tokenizer's.
    c.stop_tokens = runner.model_info().eos_ids;
    c.stop_tokens.push_back(static_cast<uint64_t>(tokenizer->eos_id()));
  }
  return c;
}

int cmd_generate(const Options& o) {
  std::unique_ptr<Tokenizer> tokenizer;
  if (!o.tokenizer.empty()) {
    std::string why;
    tokenizer = Tokenizer::load(o.tokenizer, &why);
    if (tokenizer == nullptr) {
      fail(Error::NotSupported, why, false);
    }
  }
  const std::vector<uint64_t> prompt = build_prompt(o, tokenizer.get());
  BackendOptionArgs backend_options;
  auto runner = make_runner(o, backend_options);
  llm::GenerationConfig config = make_config(o, *runner, tokenizer.get());
  Printer printer(tokenizer.get(), o.json);
  std::vector<llm::Stats> runs;
  for (int i = 0; i < o.warmup + o.runs; ++i) {
    config.warming = i < o.warmup;
    const bool last = i + 1 == o.warmup + o.runs;
    printer.clear();
    Printer* sink = last ? &printer : nullptr;
    g_first_log_error.clear();
    check(runner->generate(prompt, config,
                           [sink](uint64_t t) {
                             if (sink) sink->add(t);
                           }),
          "generation failed");
    if (!config.warming) {
      runs.push_back(runner->stats());
    }
  }
  printer.finish();
  if (o.stats) {
    print_stats_line(runs.back());
  }
  if (o.json) {
    std::string line = "{\"prompt\":" + json_ids(prompt) + ",\"tokens\":" + json_ids(printer.ids());
    if (tokenizer != nullptr) {
      line += ",\"text\":" + json_string(tokenizer->decode(printer.ids()));
    }
    line += ",\"stats\":[";
    for (size_t i = 0; i < runs.size(); ++i) {
      line += (i ? "," : "") + llm::stats_to_json_string(runs[i]);
    }
    std::printf("%s]}\n", line.c_str());
  }
  return 0;
}

void add_options(CLI::App& app, Options& o) {
  app.add_option("MODEL", o.model, "The decoder program (.pte)")->required()->type_name("");
  app.add_option("--ptd", o.ptd, "External tensor data (.ptd); may be repeated")
      ->allow_extra_args(false)
      ->type_name("FILE");
  app.add_option("-p,--prompt", o.prompt, "Prompt token ids, e.g. 1,15,27")->type_name("IDS");
  app.add_option("--text", o.text, "Prompt text (needs --tokenizer)")->type_name("TEXT");
  app.add_option("--tokenizer", o.tokenizer, "SentencePiece model: encode --text and print text")
      ->type_name("FILE");
  app.add_flag("--no-bos", o.no_bos, "Do not start a --text prompt with the BOS token");
  app.add_option("-n,--max-new-tokens", o.max_new_tokens,
                 "Tokens to generate, at most (default 32; -1: fill the context)")
      ->type_name("N");
  app.add_option("--temperature", o.temperature, "0 (default): greedy; else sample")
      ->type_name("T");
  app.add_option("--top-p", o.top_p, "Nucleus sampling mass, in (0, 1); 1: off (default)")
      ->type_name("P");
  app.add_option("--top-k", o.top_k, "Sample among the K most likely; 0: off (default)")
      ->type_name("K");
  app.add_option("--seed", o.seed, "Seed of the sampler (default 0)")->type_name("S");
  app.add_option("--stop", o.stop,
                 "Stop after this token id; may be repeated (default: the program's "
                 "get_eos_ids, and the tokenizer's EOS)")
      ->allow_extra_args(false)
      ->type_name("ID");
  app.add_option("--max-context", o.max_context, "Context length, when the program does not say")
      ->type_name("N");
  app.add_option("--prefill-method", o.prefill_method,
                 "Method for the prompt (default: prefill, else forward)")
      ->type_name("NAME");
  app.add_option("--decode-method", o.decode_method,
                 "Method for each new token (default: decode, else forward)")
      ->type_name("NAME");
  app.add_option("--backend-option", o.backend_options,
                 "A load-time option for a delegate, e.g. "
                 "CudaBackend:weight_sharing_across_methods=true; may be repeated")
      ->allow_extra_args(false)
      ->type_name("B:K=V");
  app.add_flag("--echo", o.echo, "Print the prompt before the generated tokens");
  app.add_option("--warmup", o.warmup, "Untimed generations first (default 0)")->type_name("N");
  app.add_option("--runs", o.runs, "Timed generations (default 1); the last is printed")
      ->type_name("N");
  app.add_flag("--stats", o.stats, "Print prefill and decode rates on stderr");
  app.add_flag("--json", o.json, "Print one JSON object: prompt, tokens, text, stats");
  app.add_flag("--no-plugins", o.no_plugins, "Do not load backend plugins (the CUDA backend)");
  app.add_flag("-v,--verbose", o.verbose, "Show the runtime's log");
}

// One line: rt::to_string() gives "Error::<Name>"; messages from libraries
// (SentencePiece) may hold line breaks.
int print_error(const Failure& f) {
  std::string message = f.message;
  for (char& c : message) {
    c = (c == '\n' || c == '\r') ? ' ' : c;
  }
  while (!message.empty() && message.back() == ' ') {
    message.pop_back();
  }
  std::fprintf(stderr, "%s: error: %s: %s\n", kProg, rt::to_string(f.code), message.c_str());
  return f.exit_code;
}

void check_ranges(const Options& o) {
  if (o.runs < 1 || o.warmup < 0) {
    throw Failure{Error::InvalidArgument, "--runs must be >= 1 and --warmup >= 0", kExitUsage};
  }
  if (o.max_new_tokens < -1 || o.top_k < 0 || !(o.temperature >= 0)) {
    throw Failure{Error::InvalidArgument,
                  "--max-new-tokens must be >= -1, --top-k >= 0, --temperature >= 0", kExitUsage};
  }
}

} // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "Generate tokens with a decoder LLM program (.pte): prefill the prompt, "
      "then decode greedily or by sampling; print ids, or text with a "
      "SentencePiece tokenizer" +
          std::string(Tokenizer::supported() ? "." : " (not in this build)."),
      kProg};
  add_options(app, o);
  app.set_version_flag("--version", std::string(kProg) + " " + EXECUTORCH_GENERATE_VERSION,
                       "Print the version and exit");
  app.get_formatter()->column_width(30);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    for (char& c : what) {
      c = c == '\n' ? ' ' : c;
    }
    return print_error({Error::InvalidArgument, what + " (see --help)", kExitUsage});
  }
  g_verbose = o.verbose;
  rt::runtime_init();
  rt::set_log_sink(log_sink);
  rt::set_log_level(o.verbose ? rt::LogLevel::Debug : rt::LogLevel::Error);
  if (!o.no_plugins) {
    et_run::load_plugins(kProg, g_verbose);
  }
  try {
    check_ranges(o);
    return cmd_generate(o);
  } catch (const Failure& f) {
    return print_error(f);
  } catch (const std::exception& e) {
    return print_error({Error::Internal, e.what()});
  }
}
