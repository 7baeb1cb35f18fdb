// executorch-run: load a .pte program, run one method on generated or given
// inputs, and print its outputs and timing (cmd_run.cpp); or describe a
// program (--info, cmd_info.cpp) or the registered backends (--backends,
// cmd_backends.cpp). Failures end in one stderr line (errors.h).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include <unistd.h>

#include <executorch/extension/memory_allocator/memory_budget.h>
#include <executorch/runtime/backend/native_code_policy.h>
#include <executorch/runtime/platform/build_info.h>
#include <executorch/runtime/platform/runtime.h>

#include "errors.h"
#include "executorch_run_config.h"
#include "options.h"
#include "plugins.h"

namespace {

using ::executorch::extension::MemoryBudget;
using namespace et_run;

constexpr long kMaxThreads = 4096;

// Option values main() checks itself, for an error line that names them.
struct RawOptions {
  std::string memory_limit;
  std::string threads;
  bool threads_given = false; // --threads "" is an error, not the default
};

void add_options(CLI::App& app, Options& o, RawOptions& raw) {
  app.add_option("MODEL", o.model, "The program to load (.pte); default: the demo program")
      ->type_name("");
  app.add_option("--ptd", o.ptd, "External tensor data (.ptd); may be repeated")
      ->allow_extra_args(false)
      ->type_name("FILE");
  app.add_option("--method", o.method, "Method to run (default: forward, or the only method)")
      ->type_name("NAME");
  app.add_option("--input", o.inputs,
                 "Input data: ones (default), zeros, random[:SEED], V1,V2,... "
                 "or @FILE (raw little-endian bytes). One per method input in "
                 "order; a single --input applies to all")
      ->allow_extra_args(false)
      ->type_name("SPEC");
  app.add_option("--iterations", o.iterations, "Times to run the method (default 1)")
      ->type_name("N");
  app.add_option("--backend-option", o.backend_options,
                 "A load-time option for a delegate, e.g. "
                 "CudaBackend:use_cuda_graph=true (true/false, an integer or a "
                 "string); may be repeated")
      ->allow_extra_args(false)
      ->type_name("B:K=V");
  app.add_option("--memory-limit", raw.memory_limit,
                 "The most memory the program may make this tool allocate for "
                 "planned buffers, inputs and outputs, e.g. 512M or 16G (default: "
                 "$EXECUTORCH_MEMORY_LIMIT, else half the physical memory, at most 4G)")
      ->type_name("SIZE");
  app.add_option("--threads", raw.threads,
                 "Threads of the CPU thread pool the kernels use, the caller "
                 "included (default: $EXECUTORCH_NUM_THREADS, else the physical cores)")
      ->type_name("N");
  app.add_flag("--json", o.json, "Print one JSON object instead of text");
  app.add_flag("--all-values", o.all_values,
               "Print every element of each output (by default text shows the "
               "first and last 8 of a longer tensor, JSON up to 1048576)");
  app.add_flag("--info", o.info,
               "Describe the program: methods, inputs, outputs, operators, delegates");
  app.add_flag("--backends", o.backends,
               "List the registered backends and whether each is available");
  app.add_flag("--no-plugins", o.no_plugins,
               "Do not dlopen optional backend libraries (the CUDA backend)");
  app.add_flag("--refuse-native-code", o.refuse_native_code,
               "Refuse programs whose delegates run native code from the file "
               "(CudaBackend); also $EXECUTORCH_REFUSE_NATIVE_CODE=1");
  app.add_flag("-v,--verbose", o.verbose, "Show the runtime's log and notes");
  app.set_version_flag("--version",
                       std::string(kProg) + " " + EXECUTORCH_RUN_VERSION + " (libexecutorch " +
                           ::executorch::runtime::build_version() + ")",
                       "Print the version and exit");
  app.get_formatter()->column_width(28);
}

// What a program may make the tool allocate when neither --memory-limit nor
// $EXECUTORCH_MEMORY_LIMIT says: half the physical memory, at most 4 GiB, so
// that a file declaring huge tensors fails with an Error rather than taking
// the machine. (The library's own default, for Module, is the physical
// memory.)
constexpr size_t kDefaultMemoryCap = size_t(4) << 30;

size_t default_memory_limit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  size_t physical = 0;
  if (pages <= 0 || page_size <= 0 ||
      __builtin_mul_overflow(size_t(pages), size_t(page_size), &physical)) {
    return kDefaultMemoryCap;
  }
  return std::min(physical / 2, kDefaultMemoryCap);
}

size_t memory_limit_of(const std::string& text) {
  std::string source = "--memory-limit";
  std::string value = text;
  if (value.empty()) {
    const char* env = std::getenv(MemoryBudget::kLimitEnv);
    if (env == nullptr || *env == '\0') {
      return default_memory_limit();
    }
    source = MemoryBudget::kLimitEnv;
    value = env;
  }
  auto limit = MemoryBudget::parse_size(value.c_str());
  if (!limit.ok()) {
    throw Failure{rt::Error::InvalidArgument,
                  source + ": '" + value + "' is not a size (e.g. 512M, 16G)", kExitUsage};
  }
  return limit.get();
}

// The bound is the library's for EXECUTORCH_NUM_THREADS.
uint32_t threads_of(const std::string& text, bool given) {
  if (!given) {
    return 0;
  }
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || text[0] < '0' || text[0] > '9' || errno != 0 || *end != '\0' || n < 1 ||
      n > kMaxThreads) {
    throw Failure{rt::Error::InvalidArgument,
                  "--threads: '" + text + "' is not a thread count (1 to " +
                      std::to_string(kMaxThreads) + ")",
                  kExitUsage};
  }
  return static_cast<uint32_t>(n);
}

int dispatch(Options& o, const RawOptions& raw) {
  o.memory_limit = memory_limit_of(raw.memory_limit);
  o.threads = threads_of(raw.threads, raw.threads_given);
  if (o.backends) {
    if (o.info || !o.model.empty()) {
      fail(rt::Error::InvalidArgument, "--backends takes no model and no --info");
    }
    return cmd_backends(o);
  }
  if (o.info) {
    if (o.json) {
      fail(rt::Error::NotSupported, "--info has no JSON form yet");
    }
    return cmd_info(o);
  }
  return cmd_run(o);
}

} // namespace

int main(int argc, char** argv) {
  install_crash_handlers();
  Options o;
  RawOptions raw;
  CLI::App app{
      "Run a method of an ExecuTorch program (.pte) and print its outputs and "
      "timing, describe a program (--info), or list the backends (--backends). "
      "With no MODEL, runs the bundled demo program.",
      kProg};
  add_options(app, o, raw);
  try {
    app.parse(argc, argv);
    raw.threads_given = app.count("--threads") > 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) { // --help, --version
      return app.exit(e);
    }
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    std::fprintf(stderr, "%s: error: %s: %s (see --help)\n", kProg,
                 rt::to_string(rt::Error::InvalidArgument), what.c_str());
    return kExitUsage;
  }
  rt::runtime_init();
  install_log_sink(o.verbose);
  if (o.refuse_native_code) {
    rt::set_refuse_native_code(true);
  }
  if (!o.no_plugins) {
    load_plugins(kProg, o.verbose);
  }
  try {
    return dispatch(o, raw);
  } catch (const Failure& f) {
    return print_error(f);
  } catch (const std::bad_alloc&) {
    return print_error({rt::Error::MemoryAllocationFailed, "out of memory"});
  } catch (const std::exception& e) {
    return print_error({rt::Error::Internal, e.what()});
  }
}
