// executorch-run: load a .pte program, run one method on generated or given
// inputs, and print its outputs and timing; or describe a program (--info)
// or the registered backends (--backends).
//
// Every failure ends in exactly one line on stderr,
//   executorch-run: error: Error::<Name>: <what was wrong>
// and a small non-zero exit status; runtime aborts are turned into that line
// too, so the tool never dies by a signal on bad input.

#include <CLI/CLI.hpp>

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/data_loader.h>
#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/core/portable_type/bfloat16.h>
#include <executorch/runtime/core/portable_type/half.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/method_meta.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/abort.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/runtime.h>

#include <executorch/extension/data_loader/mmap_data_loader.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/extension/memory_allocator/memory_budget.h>
#include <executorch/extension/memory_allocator/planned_memory.h>

#include "backend_option_args.h"
#include "executorch_run_config.h"

namespace {

namespace rt = ::executorch::runtime;
using ::executorch::aten::ScalarType;
using rt::Error;
using rt::EValue;
using rt::Result;
using rt::Tag;
using ::executorch::extension::HostBuffer;
using ::executorch::extension::MemoryBudget;
using ::executorch::extension::PlannedMemory;

constexpr const char* kProg = "executorch-run";
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;
constexpr int kExitCrash = 70;

// ---------------------------------------------------------------------------
// Errors and the runtime log

bool g_verbose = false;
// Error-level lines the runtime logged since the last clear; the first one is
// usually the most specific (the caller's summary line comes after it).
std::vector<std::string> g_log_errors;
// The last error or fatal line, kept in a fixed buffer for the abort path.
char g_last_log[512];

void log_sink(rt::LogLevel level, const char* filename, const char* function,
              size_t line, const char* message, size_t length) {
  (void)function;
  if (level >= rt::LogLevel::Error) {
    std::string msg(message, length);
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) {
      msg.pop_back();
    }
    if (g_log_errors.size() < 64) {
      g_log_errors.push_back(msg);
    }
    std::snprintf(g_last_log, sizeof(g_last_log), "%s", msg.c_str());
  }
  if (g_verbose) {
    const char* base = std::strrchr(filename, '/');
    static const char* const kLevels = "DIEF";
    const auto li = static_cast<size_t>(level);
    std::fprintf(stderr, "%s: runtime %c %s:%zu] %.*s\n", kProg,
                 li < 4 ? kLevels[li] : '?',
                 base != nullptr ? base + 1 : filename, line,
                 static_cast<int>(length), message);
  }
}

// Writes the one error line without touching the heap (abort/signal path).
[[noreturn]] void crash_exit(const char* what) {
  char buf[768];
  int n;
  if (g_last_log[0] != '\0') {
    n = std::snprintf(buf, sizeof(buf), "%s: error: Error::Internal: %s: %s\n",
                      kProg, what, g_last_log);
  } else {
    n = std::snprintf(buf, sizeof(buf), "%s: error: Error::Internal: %s\n",
                      kProg, what);
  }
  if (n > 0) {
    const size_t len = std::min(static_cast<size_t>(n), sizeof(buf) - 1);
    ssize_t w = ::write(STDERR_FILENO, buf, len);
    (void)w;
  }
  ::_exit(kExitCrash);
}

void abort_handler() { crash_exit("the runtime aborted"); }

void signal_handler(int sig) {
  const char* what = "crashed";
  switch (sig) {
    case SIGSEGV: what = "crashed (SIGSEGV)"; break;
    case SIGBUS: what = "crashed (SIGBUS)"; break;
    case SIGFPE: what = "crashed (SIGFPE)"; break;
    case SIGABRT: what = "aborted (SIGABRT)"; break;
    case SIGILL: what = "crashed (SIGILL)"; break;
    default: break;
  }
  crash_exit(what);
}

void install_crash_handlers() {
  rt::set_abort_handler(abort_handler);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof(sa));
  sa.sa_handler = signal_handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL}) {
    sigaction(sig, &sa, nullptr);
  }
}

// A failure on its way to main: the runtime error code and the message.
struct Failure {
  Error code;
  std::string message;
  int exit_code = kExitError;
};

std::string vformat(const char* fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  const int n = std::vsnprintf(nullptr, 0, fmt, ap2);
  va_end(ap2);
  if (n <= 0) {
    return std::string();
  }
  std::string s(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(&s[0], s.size(), fmt, ap);
  s.resize(static_cast<size_t>(n));
  return s;
}

[[noreturn]] ET_PRINTFLIKE(2, 3) void fail(Error code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Failure f{code, vformat(fmt, ap)};
  va_end(ap);
  throw f;
}

// Like fail(), but appends the most specific runtime log line captured since
// the operation began, when there is one.
[[noreturn]] ET_PRINTFLIKE(2, 3) void fail_rt(Error code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Failure f{code, vformat(fmt, ap)};
  va_end(ap);
  if (!g_log_errors.empty()) {
    f.message += ": ";
    f.message += g_log_errors.front();
  }
  throw f;
}

const char* error_name(Error e) { return rt::to_string(e); }

// ---------------------------------------------------------------------------
// Data loading


std::unique_ptr<rt::DataLoader> open_file(const std::string& path, const char* what) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    fail(Error::AccessFailed, "cannot open %s '%s': %s", what, path.c_str(),
         std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) {
    fail(Error::AccessFailed, "cannot open %s '%s': is a directory", what,
         path.c_str());
  }
  g_log_errors.clear();
  using ::executorch::extension::MmapDataLoader;
  auto loader = MmapDataLoader::from(path.c_str(),
                                     MmapDataLoader::MlockConfig::NoMlock);
  if (!loader.ok()) {
    fail_rt(loader.error(), "cannot open %s '%s'", what, path.c_str());
  }
  return std::make_unique<MmapDataLoader>(std::move(loader.get()));
}

// Looks each key up in several data maps in turn (the first that has it
// wins), so tensors may be spread across several .ptd files.
class MergedDataMap final : public rt::NamedDataMap {
 public:
  void add(const rt::NamedDataMap* map) { maps_.push_back(map); }

  Result<const rt::TensorLayout> get_tensor_layout(std::string_view key) const override {
    for (const auto* m : maps_) {
      auto r = m->get_tensor_layout(key);
      // Rebuilt rather than moved: Result<const T> is not move-constructible.
      if (r.ok()) {
        return r.get();
      }
      if (r.error() != Error::NotFound) {
        return r.error();
      }
    }
    return Error::NotFound;
  }
  Result<rt::FreeableBuffer> get_data(std::string_view key) const override {
    for (const auto* m : maps_) {
      auto r = m->get_data(key);
      if (r.ok() || r.error() != Error::NotFound) {
        return r;
      }
    }
    return Error::NotFound;
  }
  Error load_data_into(std::string_view key, void* buffer, size_t size) const override {
    for (const auto* m : maps_) {
      const Error e = m->load_data_into(key, buffer, size);
      if (e != Error::NotFound) {
        return e;
      }
    }
    return Error::NotFound;
  }
  Result<uint32_t> get_num_keys() const override {
    uint32_t total = 0;
    for (const auto* m : maps_) {
      auto n = m->get_num_keys();
      if (!n.ok()) {
        return n.error();
      }
      total += n.get();
    }
    return total;
  }
  Result<const char*> get_key(uint32_t index) const override {
    for (const auto* m : maps_) {
      auto n = m->get_num_keys();
      if (!n.ok()) {
        return n.error();
      }
      if (index < n.get()) {
        return m->get_key(index);
      }
      index -= n.get();
    }
    return Error::InvalidArgument;
  }

 private:
  std::vector<const rt::NamedDataMap*> maps_;
};

// ---------------------------------------------------------------------------
// Plugins and backends

void load_plugins(bool enabled) {
  if (!enabled) {
    return;
  }
  for (const char* soname : {"libexecutorch_cuda_backend.so.1"}) {
    void* h = ::dlopen(soname, RTLD_NOW | RTLD_GLOBAL);
    if (g_verbose) {
      if (h == nullptr) {
        const char* err = ::dlerror();
        std::fprintf(stderr, "%s: note: plugin %s not loaded: %s\n", kProg,
                     soname, err != nullptr ? err : "unknown error");
      } else {
        std::fprintf(stderr, "%s: note: loaded plugin %s\n", kProg, soname);
      }
    }
    // The handle is kept open for the life of the process on purpose.
  }
}

struct BackendState {
  bool registered;
  bool available;
};

BackendState backend_state(const char* name) {
  rt::BackendInterface* b = rt::get_backend_class(name);
  if (b == nullptr) {
    return {false, false};
  }
  return {true, b->is_available()};
}

// ---------------------------------------------------------------------------
// Formatting helpers

const char* dtype_name(ScalarType t) { return rt::toString(t); }

std::string shape_string(const int32_t* sizes, size_t n) {
  std::string s = "[";
  for (size_t i = 0; i < n; ++i) {
    if (i != 0) {
      s += ", ";
    }
    s += std::to_string(sizes[i]);
  }
  s += "]";
  return s;
}

const char* tag_name(Tag t) {
  switch (t) {
    case Tag::None: return "None";
    case Tag::Tensor: return "Tensor";
    case Tag::String: return "String";
    case Tag::Double: return "Double";
    case Tag::Int: return "Int";
    case Tag::Bool: return "Bool";
    case Tag::ListBool: return "ListBool";
    case Tag::ListDouble: return "ListDouble";
    case Tag::ListInt: return "ListInt";
    case Tag::ListTensor: return "ListTensor";
    case Tag::ListScalar: return "ListScalar";
    case Tag::ListOptionalTensor: return "ListOptionalTensor";
  }
  return "Unknown";
}

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::string fmt_double(double v, bool json) {
  if (std::isnan(v)) {
    return json ? "null" : "nan";
  }
  if (std::isinf(v)) {
    return json ? "null" : (v > 0 ? "inf" : "-inf");
  }
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

std::string fmt_double17(double v, bool json) {
  if (!std::isfinite(v)) {
    return fmt_double(v, json);
  }
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

// One element of a tensor as text, or "" when the dtype is not printable.
bool format_element(ScalarType t, const void* data, size_t i, bool json,
                    std::string* out) {
  char buf[40];
  switch (t) {
    case ScalarType::Float:
      *out = fmt_double(static_cast<const float*>(data)[i], json);
      return true;
    case ScalarType::Double:
      *out = fmt_double17(static_cast<const double*>(data)[i], json);
      return true;
    case ScalarType::Half:
      *out = fmt_double(static_cast<float>(
          static_cast<const ::executorch::aten::Half*>(data)[i]), json);
      return true;
    case ScalarType::BFloat16:
      *out = fmt_double(static_cast<float>(
          static_cast<const ::executorch::aten::BFloat16*>(data)[i]), json);
      return true;
    case ScalarType::Bool:
      *out = static_cast<const uint8_t*>(data)[i] != 0 ? "true" : "false";
      return true;
    case ScalarType::Byte:
      std::snprintf(buf, sizeof(buf), "%u", static_cast<const uint8_t*>(data)[i]);
      break;
    case ScalarType::Char:
      std::snprintf(buf, sizeof(buf), "%d", static_cast<const int8_t*>(data)[i]);
      break;
    case ScalarType::Short:
      std::snprintf(buf, sizeof(buf), "%d", static_cast<const int16_t*>(data)[i]);
      break;
    case ScalarType::Int:
      std::snprintf(buf, sizeof(buf), "%" PRId32, static_cast<const int32_t*>(data)[i]);
      break;
    case ScalarType::Long:
      std::snprintf(buf, sizeof(buf), "%" PRId64, static_cast<const int64_t*>(data)[i]);
      break;
    case ScalarType::UInt16:
      std::snprintf(buf, sizeof(buf), "%u", static_cast<const uint16_t*>(data)[i]);
      break;
    case ScalarType::UInt32:
      std::snprintf(buf, sizeof(buf), "%" PRIu32, static_cast<const uint32_t*>(data)[i]);
      break;
    case ScalarType::UInt64:
      std::snprintf(buf, sizeof(buf), "%" PRIu64, static_cast<const uint64_t*>(data)[i]);
      break;
    default:
      return false;
  }
  *out = buf;
  return true;
}

// ---------------------------------------------------------------------------
// Inputs

struct InputTensor {
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  HostBuffer data;
  std::unique_ptr<::executorch::aten::TensorImpl> impl;
};

bool is_integral_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: case ScalarType::Char: case ScalarType::Short:
    case ScalarType::Int: case ScalarType::Long: case ScalarType::UInt16:
    case ScalarType::UInt32: case ScalarType::UInt64:
      return true;
    default:
      return false;
  }
}

bool is_float_dtype(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double ||
         t == ScalarType::Half || t == ScalarType::BFloat16;
}

// Stores v (given as double or as an integer) into element i.
void store_element(ScalarType t, void* data, size_t i, double dv, int64_t iv,
                   bool is_int) {
  const double d = is_int ? static_cast<double>(iv) : dv;
  const int64_t n = is_int ? iv : static_cast<int64_t>(dv);
  switch (t) {
    case ScalarType::Float: static_cast<float*>(data)[i] = static_cast<float>(d); break;
    case ScalarType::Double: static_cast<double*>(data)[i] = d; break;
    case ScalarType::Half:
      static_cast<::executorch::aten::Half*>(data)[i] =
          ::executorch::aten::Half(static_cast<float>(d));
      break;
    case ScalarType::BFloat16:
      static_cast<::executorch::aten::BFloat16*>(data)[i] =
          ::executorch::aten::BFloat16(static_cast<float>(d));
      break;
    case ScalarType::Bool: static_cast<uint8_t*>(data)[i] = d != 0 ? 1 : 0; break;
    case ScalarType::Byte: static_cast<uint8_t*>(data)[i] = static_cast<uint8_t>(n); break;
    case ScalarType::Char: static_cast<int8_t*>(data)[i] = static_cast<int8_t>(n); break;
    case ScalarType::Short: static_cast<int16_t*>(data)[i] = static_cast<int16_t>(n); break;
    case ScalarType::Int: static_cast<int32_t*>(data)[i] = static_cast<int32_t>(n); break;
    case ScalarType::Long: static_cast<int64_t*>(data)[i] = n; break;
    case ScalarType::UInt16: static_cast<uint16_t*>(data)[i] = static_cast<uint16_t>(n); break;
    case ScalarType::UInt32: static_cast<uint32_t*>(data)[i] = static_cast<uint32_t>(n); break;
    case ScalarType::UInt64: static_cast<uint64_t*>(data)[i] = static_cast<uint64_t>(n); break;
    default: break;
  }
}

bool dtype_fillable(ScalarType t) {
  return is_float_dtype(t) || is_integral_dtype(t) || t == ScalarType::Bool;
}

std::string trim(std::string s) {
  const char* ws = " \t";
  const size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) {
    return std::string();
  }
  const size_t e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

// Parses one list element for dtype t. Integers are read exactly.
bool parse_value(const std::string& text, ScalarType t, double* dv, int64_t* iv,
                 bool* is_int) {
  const std::string s = trim(text);
  if (s.empty()) {
    return false;
  }
  if (t == ScalarType::Bool) {
    if (s == "true" || s == "True") { *iv = 1; *is_int = true; return true; }
    if (s == "false" || s == "False") { *iv = 0; *is_int = true; return true; }
  }
  char* end = nullptr;
  errno = 0;
  if (is_integral_dtype(t) || t == ScalarType::Bool) {
    const long long v = std::strtoll(s.c_str(), &end, 0);
    if (errno == 0 && end != nullptr && *end == '\0') {
      *iv = v;
      *is_int = true;
      return true;
    }
    if (t == ScalarType::UInt64) {
      errno = 0;
      const unsigned long long u = std::strtoull(s.c_str(), &end, 0);
      if (errno == 0 && end != nullptr && *end == '\0') {
        *iv = static_cast<int64_t>(u);
        *is_int = true;
        return true;
      }
    }
    return false;
  }
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end == nullptr || *end != '\0' || errno == ERANGE) {
    return false;
  }
  *dv = v;
  *is_int = false;
  return true;
}

void fill_input(const std::string& spec, size_t index, ScalarType t,
                size_t numel, size_t nbytes, uint8_t* data) {
  if (spec == "ones" || spec == "zeros") {
    const double v = spec == "ones" ? 1.0 : 0.0;
    for (size_t i = 0; i < numel; ++i) {
      store_element(t, data, i, v, static_cast<int64_t>(v), false);
    }
    return;
  }
  if (spec.rfind("random", 0) == 0 &&
      (spec.size() == 6 || spec[6] == ':')) {
    uint64_t seed = 1;
    if (spec.size() > 6) {
      const std::string s = spec.substr(7);
      char* end = nullptr;
      errno = 0;
      seed = std::strtoull(s.c_str(), &end, 0);
      if (s.empty() || errno != 0 || *end != '\0') {
        fail(Error::InvalidArgument, "input %zu: bad random seed in '%s'",
             index, spec.c_str());
      }
    }
    // Each input gets its own stream so equal shapes get different data.
    std::mt19937_64 gen(seed + index);
    if (is_float_dtype(t)) {
      std::uniform_real_distribution<double> dist(0.0, 1.0);
      for (size_t i = 0; i < numel; ++i) {
        store_element(t, data, i, dist(gen), 0, false);
      }
    } else {
      const int64_t hi = t == ScalarType::Bool ? 1 : 9;
      std::uniform_int_distribution<int64_t> dist(0, hi);
      for (size_t i = 0; i < numel; ++i) {
        store_element(t, data, i, 0, dist(gen), true);
      }
    }
    return;
  }
  if (!spec.empty() && spec[0] == '@') {
    const std::string path = spec.substr(1);
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
      fail(Error::AccessFailed, "input %zu: cannot open '%s': %s", index,
           path.c_str(), std::strerror(errno));
    }
    const std::streamoff size = in.tellg();
    if (size < 0 || static_cast<uint64_t>(size) != nbytes) {
      fail(Error::InvalidArgument,
           "input %zu: '%s' holds %lld bytes, the %s input needs %zu", index,
           path.c_str(), static_cast<long long>(size), dtype_name(t), nbytes);
    }
    in.seekg(0);
    if (nbytes != 0 &&
        !in.read(reinterpret_cast<char*>(data), static_cast<std::streamsize>(nbytes))) {
      fail(Error::AccessFailed, "input %zu: cannot read '%s'", index, path.c_str());
    }
    return;
  }
  // A comma-separated list of values, one per element.
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    const size_t comma = spec.find(',', start);
    items.push_back(spec.substr(start, comma == std::string::npos ? std::string::npos
                                                                  : comma - start));
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  std::vector<std::pair<double, int64_t>> values;
  std::vector<bool> ints;
  for (const auto& item : items) {
    double dv = 0;
    int64_t iv = 0;
    bool is_int = false;
    if (!parse_value(item, t, &dv, &iv, &is_int)) {
      fail(Error::InvalidArgument,
           "input %zu: '%s' is not ones, zeros, random[:SEED], @FILE or a "
           "list of %s values",
           index, spec.c_str(), dtype_name(t));
    }
    values.emplace_back(dv, iv);
    ints.push_back(is_int);
  }
  if (values.size() != numel) {
    fail(Error::InvalidArgument,
         "input %zu: %zu value(s) given, the %s input has %zu element(s)",
         index, values.size(), dtype_name(t), numel);
  }
  for (size_t i = 0; i < numel; ++i) {
    store_element(t, data, i, values[i].first, values[i].second, ints[i]);
  }
}

// ---------------------------------------------------------------------------
// Options

struct Options {
  std::string model;
  std::vector<std::string> ptd;
  std::string method;
  std::vector<std::string> inputs;
  int iterations = 1;
  bool json = false;
  bool info = false;
  bool backends = false;
  bool verbose = false;
  bool no_plugins = false;
  bool all_values = false;
  std::vector<std::string> backend_options;
  size_t memory_limit = MemoryBudget::default_limit();
};

std::string resolve_model(const Options& o) {
  if (!o.model.empty()) {
    return o.model;
  }
  const char* env = std::getenv("EXECUTORCH_DEMO_PTE");
  std::string path = (env != nullptr && env[0] != '\0') ? env : EXECUTORCH_RUN_DEMO_PTE;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    fail(Error::AccessFailed,
         "no model given and the demo program '%s' is missing: %s",
         path.c_str(), std::strerror(errno));
  }
  if (g_verbose) {
    std::fprintf(stderr, "%s: note: running the demo program %s\n", kProg,
                 path.c_str());
  }
  return path;
}

rt::Program load_program(rt::DataLoader* loader, const std::string& path) {
  g_log_errors.clear();
  auto program = rt::Program::load(loader, rt::Program::Verification::InternalConsistency);
  if (!program.ok()) {
    fail_rt(program.error(), "cannot load program '%s'", path.c_str());
  }
  return std::move(program.get());
}

std::vector<std::string> method_names(const rt::Program& program) {
  std::vector<std::string> names;
  for (size_t i = 0; i < program.num_methods(); ++i) {
    auto n = program.get_method_name(i);
    if (n.ok()) {
      names.emplace_back(n.get());
    }
  }
  return names;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    s += (i ? ", " : "") + v[i];
  }
  return s;
}

// ---------------------------------------------------------------------------
// --backends and --info

int cmd_backends(const Options& o) {
  const size_t n = rt::get_num_registered_backends();
  if (o.json) {
    std::printf("{\"backends\":[");
  } else if (n == 0) {
    std::printf("no backends registered\n");
  }
  for (size_t i = 0; i < n; ++i) {
    auto name = rt::get_backend_name(i);
    if (!name.ok()) {
      continue;
    }
    const BackendState s = backend_state(name.get());
    if (o.json) {
      std::printf("%s{\"name\":\"%s\",\"available\":%s}", i ? "," : "",
                  json_escape(name.get()).c_str(), s.available ? "true" : "false");
    } else {
      std::printf("%-24s %s\n", name.get(), s.available ? "available" : "not available");
    }
  }
  if (o.json) {
    std::printf("]}\n");
  }
  return 0;
}

void print_tensor_meta(const char* kind, size_t i, const rt::MethodMeta& meta,
                       bool input) {
  auto tag = input ? meta.input_tag(i) : meta.output_tag(i);
  if (!tag.ok()) {
    std::printf("    %s %zu: <error %s>\n", kind, i, error_name(tag.error()));
    return;
  }
  if (tag.get() != Tag::Tensor) {
    std::printf("    %s %zu: %s\n", kind, i, tag_name(tag.get()));
    return;
  }
  auto ti = input ? meta.input_tensor_meta(i) : meta.output_tensor_meta(i);
  if (!ti.ok()) {
    std::printf("    %s %zu: Tensor <error %s>\n", kind, i, error_name(ti.error()));
    return;
  }
  const auto sizes = ti->sizes();
  std::printf("    %s %zu: Tensor %s %s%s\n", kind, i,
              dtype_name(ti->scalar_type()),
              shape_string(sizes.data(), sizes.size()).c_str(),
              ti->is_memory_planned() ? "" : " (not planned)");
}

int cmd_info(const Options& o) {
  const std::string path = resolve_model(o);
  auto loader = open_file(path, "model");
  rt::Program program = load_program(loader.get(), path);
  const auto names = method_names(program);
  std::printf("program: %s\n", path.c_str());
  std::printf("methods: %zu\n", names.size());
  for (const auto& name : names) {
    g_log_errors.clear();
    auto meta = program.method_meta(name.c_str());
    if (!meta.ok()) {
      fail_rt(meta.error(), "cannot read method '%s' of '%s'", name.c_str(),
              path.c_str());
    }
    const rt::MethodMeta& m = meta.get();
    std::printf("method %s\n", name.c_str());
    std::printf("  inputs: %zu\n", m.num_inputs());
    for (size_t i = 0; i < m.num_inputs(); ++i) {
      print_tensor_meta("input", i, m, true);
    }
    std::printf("  outputs: %zu\n", m.num_outputs());
    for (size_t i = 0; i < m.num_outputs(); ++i) {
      print_tensor_meta("output", i, m, false);
    }
    std::printf("  operators: %zu\n", m.num_operators());
    for (size_t i = 0; i < m.num_operators(); ++i) {
      auto op = m.get_operator_name(i);
      auto ov = m.get_operator_overload(i);
      const char* on = op.ok() ? op.get() : "?";
      const char* oo = ov.ok() ? ov.get() : "";
      std::printf("    %s%s%s\n", on, oo[0] != '\0' ? "." : "", oo);
    }
    std::printf("  delegates: %zu\n", m.num_backends());
    for (size_t i = 0; i < m.num_backends(); ++i) {
      auto b = m.get_backend_name(i);
      if (!b.ok()) {
        std::printf("    <error %s>\n", error_name(b.error()));
        continue;
      }
      const BackendState s = backend_state(b.get());
      std::printf("    %s: %s\n", b.get(),
                  !s.registered ? "not registered"
                                : (s.available ? "registered, available"
                                               : "registered, not available"));
    }
    std::printf("  planned buffers: %zu\n", m.num_memory_planned_buffers());
    for (size_t i = 0; i < m.num_memory_planned_buffers(); ++i) {
      auto sz = m.memory_planned_buffer_size(i);
      if (sz.ok()) {
        std::printf("    %zu: %" PRId64 " bytes\n", i, sz.get());
      }
    }
  }
  return 0;
}

// ---------------------------------------------------------------------------
// Running a method

// Text output shows the first and last kEdge elements of a longer tensor,
// as torch does; JSON shows every element up to kJsonAll. --all-values
// shows all of them. Only the elements shown are read (or copied from a
// device), so a huge output costs no more than a small one.
constexpr size_t kEdge = 8;
constexpr size_t kJsonAll = size_t(1) << 20;

// The elements [begin, end) of t as host bytes: t's own memory on the CPU,
// else a copy from its device.
const uint8_t* host_elements(const ::executorch::aten::Tensor& t, size_t index,
                             size_t begin, size_t end, std::vector<uint8_t>* copy) {
  const size_t esize = rt::elementSize(t.scalar_type());
  const auto* data = static_cast<const uint8_t*>(t.const_data_ptr()) + begin * esize;
  if (t.device().is_cpu()) {
    return data;
  }
  rt::DeviceAllocator* a = rt::get_device_allocator(t.device_type());
  if (a == nullptr) {
    fail(Error::NotFound, "output %zu is on %s and there is no allocator for it", index,
         rt::device_type_name(t.device_type()));
  }
  copy->resize((end - begin) * esize);
  g_log_errors.clear();
  const Error e = a->copy_device_to_host(copy->data(), data, copy->size(), t.device_index());
  if (e != Error::Ok) {
    fail_rt(e, "cannot copy output %zu from %s", index,
            rt::device_type_name(t.device_type()));
  }
  return copy->data();
}

// Formats elements [begin, end) of t into values.
void format_range(const ::executorch::aten::Tensor& t, size_t index, size_t begin,
                  size_t end, bool json, std::vector<std::string>* values) {
  std::vector<uint8_t> copy;
  const uint8_t* data = host_elements(t, index, begin, end, &copy);
  for (size_t i = 0; i < end - begin; ++i) {
    std::string s;
    if (!format_element(t.scalar_type(), data, i, json, &s)) {
      fail(Error::NotSupported, "output %zu: cannot print dtype %s", index,
           dtype_name(t.scalar_type()));
    }
    values->push_back(std::move(s));
  }
}

// The elements of t to print; *elided counts those left out (text mode
// marks the gap with "...").
void tensor_values(const ::executorch::aten::Tensor& t, size_t index, bool json,
                   bool all, std::vector<std::string>* values, size_t* elided) {
  const size_t total = static_cast<size_t>(t.numel());
  if (total != 0 && t.const_data_ptr() == nullptr) {
    fail(Error::InvalidState, "output %zu has no data", index);
  }
  const bool whole = all || total <= 2 * kEdge + 4 || (json && total <= kJsonAll);
  if (whole) {
    format_range(t, index, 0, total, json, values);
    return;
  }
  format_range(t, index, 0, kEdge, json, values);
  if (!json) {
    values->emplace_back("...");
  }
  format_range(t, index, total - kEdge, total, json, values);
  *elided = total - 2 * kEdge;
}

void print_output(const EValue& v, size_t index, bool json, bool all, std::string* out) {
  std::string dtype;
  std::string shape = "[]";
  std::vector<std::string> values;
  size_t total = 0;
  size_t elided = 0;
  switch (v.tag) {
    case Tag::Tensor: {
      const auto& t = v.toTensor();
      dtype = dtype_name(t.scalar_type());
      const auto sizes = t.sizes();
      shape = shape_string(sizes.data(), sizes.size());
      total = static_cast<size_t>(t.numel());
      tensor_values(t, index, json, all, &values, &elided);
      break;
    }
    case Tag::Int:
      dtype = "Int";
      total = 1;
      values.push_back(std::to_string(v.toInt()));
      break;
    case Tag::Double:
      dtype = "Double";
      total = 1;
      values.push_back(fmt_double17(v.toDouble(), json));
      break;
    case Tag::Bool:
      dtype = "Bool";
      total = 1;
      values.emplace_back(v.toBool() ? "true" : "false");
      break;
    case Tag::None:
      dtype = "None";
      break;
    default:
      dtype = tag_name(v.tag);
      break;
  }
  if (json) {
    *out += "{\"dtype\":\"" + json_escape(dtype) + "\",\"shape\":";
    std::string js = shape;
    js.erase(std::remove(js.begin(), js.end(), ' '), js.end());
    *out += js + ",\"values\":[";
    for (size_t i = 0; i < values.size(); ++i) {
      *out += (i ? "," : "") + values[i];
    }
    *out += "]";
    if (elided != 0) {
      *out += ",\"elided\":" + std::to_string(elided);
    }
    *out += "}";
  } else {
    *out += "output " + std::to_string(index) + ": " + dtype + " " + shape;
    if (elided != 0) {
      *out += " (" + std::to_string(total) + " values)";
    }
    *out += "\n  [";
    for (size_t i = 0; i < values.size(); ++i) {
      *out += (i ? ", " : "") + values[i];
    }
    *out += "]\n";
  }
}

// One tensor for input i of the method, filled from its --input spec.
void make_input(const Options& o, const std::string& method_name, size_t i,
                const rt::TensorInfo& info, MemoryBudget* budget, InputTensor* t) {
  const ScalarType dtype = info.scalar_type();
  if (!dtype_fillable(dtype)) {
    fail(Error::NotSupported, "method '%s': input %zu has dtype %s, which "
         "this tool cannot fill", method_name.c_str(), i, dtype_name(dtype));
  }
  const auto sizes = info.sizes();
  const auto dim_order = info.dim_order();
  t->sizes.assign(sizes.begin(), sizes.end());
  t->dim_order.assign(dim_order.begin(), dim_order.end());
  size_t numel = 1;
  size_t nbytes = rt::elementSize(dtype);
  for (int32_t s : t->sizes) {
    if (s < 0 || __builtin_mul_overflow(numel, static_cast<size_t>(s), &numel) ||
        __builtin_mul_overflow(nbytes, static_cast<size_t>(s), &nbytes)) {
      fail(Error::InvalidProgram, "method '%s': input %zu has a bad shape %s",
           method_name.c_str(), i, shape_string(t->sizes.data(), t->sizes.size()).c_str());
    }
  }
  char what[64];
  std::snprintf(what, sizeof(what), "input %zu", i);
  g_log_errors.clear();
  auto data = HostBuffer::allocate(nbytes, budget, what);
  if (!data.ok()) {
    fail_rt(data.error(), "method '%s': cannot allocate input %zu", method_name.c_str(), i);
  }
  t->data = std::move(data.get());
  const std::string spec = o.inputs.empty() ? std::string("ones")
                           : o.inputs.size() == 1 ? o.inputs[0] : o.inputs[i];
  fill_input(spec, i, dtype, numel, nbytes, t->data.data());
  t->impl = std::make_unique<::executorch::aten::TensorImpl>(
      dtype, static_cast<ssize_t>(t->sizes.size()), t->sizes.data(), t->data.data(),
      t->dim_order.empty() ? nullptr : t->dim_order.data());
}

// The values to set as the method's inputs. Tensor inputs get memory (charged
// to the budget) filled from their specs; inputs that name the same value
// share one tensor when they share a spec, so a file listing one tensor a
// million times costs one buffer.
void build_inputs(const Options& o, const std::string& method_name, rt::Method& method,
                  const rt::MethodMeta& meta, MemoryBudget* budget,
                  std::vector<InputTensor>* tensors, std::vector<EValue>* values) {
  const size_t n_inputs = meta.num_inputs();
  if (o.inputs.size() > 1 && o.inputs.size() != n_inputs) {
    fail(Error::InvalidArgument,
         "%zu --input given, method '%s' takes %zu input(s) (give one per "
         "input, or one for all)",
         o.inputs.size(), method_name.c_str(), n_inputs);
  }
  tensors->resize(n_inputs);
  values->resize(n_inputs);
  std::map<const EValue*, size_t> first_of_slot;
  for (size_t i = 0; i < n_inputs; ++i) {
    auto tag = meta.input_tag(i);
    if (!tag.ok()) {
      fail(tag.error(), "method '%s': cannot read input %zu", method_name.c_str(), i);
    }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    const EValue& slot = method.get_input(i);
#pragma GCC diagnostic pop
    if (tag.get() != Tag::Tensor) {
      // Int/Double/Bool inputs are fixed at export: pass the traced value.
      (*values)[i] = slot;
      continue;
    }
    auto seen = first_of_slot.find(&slot);
    if (seen != first_of_slot.end() && o.inputs.size() <= 1) {
      (*values)[i] = (*values)[seen->second];
      continue;
    }
    first_of_slot.emplace(&slot, i);
    auto info = meta.input_tensor_meta(i);
    if (!info.ok()) {
      fail(info.error(), "method '%s': cannot read input %zu", method_name.c_str(), i);
    }
    make_input(o, method_name, i, info.get(), budget, &(*tensors)[i]);
    (*values)[i] = EValue(::executorch::aten::Tensor((*tensors)[i].impl.get()));
  }
}

int cmd_run(const Options& o) {
  if (o.iterations < 1) {
    fail(Error::InvalidArgument, "--iterations must be at least 1 (got %d)",
         o.iterations);
  }
  BackendOptionArgs backend_options;
  for (const std::string& arg : o.backend_options) {
    std::string why;
    if (!backend_options.add(arg, &why)) {
      fail(Error::InvalidArgument, "--backend-option: %s", why.c_str());
    }
  }
  const std::string path = resolve_model(o);
  auto loader = open_file(path, "model");
  rt::Program program = load_program(loader.get(), path);

  // External data (.ptd), merged when there are several files.
  std::vector<std::unique_ptr<rt::DataLoader>> ptd_loaders;
  std::vector<std::unique_ptr<::executorch::extension::FlatTensorDataMap>> ptd_maps;
  MergedDataMap merged;
  const rt::NamedDataMap* data_map = nullptr;
  for (const auto& p : o.ptd) {
    ptd_loaders.push_back(open_file(p, "data file"));
    g_log_errors.clear();
    auto map = ::executorch::extension::FlatTensorDataMap::load(ptd_loaders.back().get());
    if (!map.ok()) {
      fail_rt(map.error(), "cannot load data file '%s'", p.c_str());
    }
    ptd_maps.push_back(std::make_unique<::executorch::extension::FlatTensorDataMap>(
        std::move(map.get())));
    merged.add(ptd_maps.back().get());
  }
  if (ptd_maps.size() == 1) {
    data_map = ptd_maps.front().get();
  } else if (ptd_maps.size() > 1) {
    data_map = &merged;
  }

  // Pick the method.
  const auto names = method_names(program);
  std::string method_name = o.method;
  if (method_name.empty()) {
    if (std::find(names.begin(), names.end(), "forward") != names.end()) {
      method_name = "forward";
    } else if (names.size() == 1) {
      method_name = names.front();
    } else if (names.empty()) {
      fail(Error::InvalidProgram, "'%s' has no methods", path.c_str());
    } else {
      fail(Error::InvalidArgument,
           "'%s' has no method 'forward'; pick one with --method (methods: %s)",
           path.c_str(), join(names).c_str());
    }
  } else if (std::find(names.begin(), names.end(), method_name) == names.end()) {
    fail(Error::NotFound, "no method '%s' in '%s' (methods: %s)",
         method_name.c_str(), path.c_str(), join(names).c_str());
  }

  g_log_errors.clear();
  auto meta_r = program.method_meta(method_name.c_str());
  if (!meta_r.ok()) {
    fail_rt(meta_r.error(), "cannot read method '%s' of '%s'",
            method_name.c_str(), path.c_str());
  }
  const rt::MethodMeta meta = meta_r.get();

  // Planned memory, sized from the method's metadata and charged to the
  // memory limit; buffers on a device come from that device's registered
  // allocator (the CUDA backend registers one).
  MemoryBudget budget(o.memory_limit);
  g_log_errors.clear();
  auto planned = PlannedMemory::for_method(meta, &budget);
  if (!planned.ok()) {
    fail_rt(planned.error(), "cannot allocate the planned memory of method '%s'",
            method_name.c_str());
  }
  ::executorch::extension::MallocMemoryAllocator method_allocator;
  ::executorch::extension::MallocMemoryAllocator temp_allocator;
  rt::MemoryManager memory_manager(&method_allocator, planned.get()->allocator(),
                                   &temp_allocator);

  g_log_errors.clear();
  auto method_r = program.load_method(method_name.c_str(), &memory_manager,
                                      nullptr, data_map, backend_options.map());
  if (!method_r.ok()) {
    fail_rt(method_r.error(), "cannot load method '%s' of '%s'",
            method_name.c_str(), path.c_str());
  }
  rt::Method method = std::move(method_r.get());

  // Inputs.
  const size_t n_inputs = meta.num_inputs();
  std::vector<InputTensor> tensors;
  std::vector<EValue> input_values;
  build_inputs(o, method_name, method, meta, &budget, &tensors, &input_values);

  // Run.
  std::vector<double> times_us;
  for (int it = 0; it < o.iterations; ++it) {
    for (size_t i = 0; i < n_inputs; ++i) {
      g_log_errors.clear();
      const Error e = method.set_input(input_values[i], i);
      if (e != Error::Ok) {
        fail_rt(e, "method '%s': cannot set input %zu", method_name.c_str(), i);
      }
    }
    g_log_errors.clear();
    const auto t0 = std::chrono::steady_clock::now();
    const Error e = method.execute();
    const auto t1 = std::chrono::steady_clock::now();
    if (e != Error::Ok) {
      fail_rt(e, "method '%s' of '%s' failed", method_name.c_str(), path.c_str());
    }
    times_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::vector<double> sorted = times_us;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  const double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const double min = sorted.front();

  // Outputs.
  std::string out;
  const size_t n_outputs = method.outputs_size();
  if (o.json) {
    out = "{\"method\":\"" + json_escape(method_name) + "\",\"outputs\":[";
  } else {
    out = "method: " + method_name + "\n";
  }
  for (size_t i = 0; i < n_outputs; ++i) {
    if (o.json && i != 0) {
      out += ",";
    }
    print_output(method.get_output(i), i, o.json, o.all_values, &out);
  }
  char timing[160];
  if (o.json) {
    std::snprintf(timing, sizeof(timing),
                  "],\"timing_us\":{\"min\":%.3f,\"median\":%.3f,\"iterations\":%d}}\n",
                  min, median, o.iterations);
  } else {
    std::snprintf(timing, sizeof(timing),
                  "timing: %d iteration(s), min %.3f us, median %.3f us\n",
                  o.iterations, min, median);
  }
  out += timing;
  std::fputs(out.c_str(), stdout);
  return 0;
}

int print_error(const Failure& f) {
  std::string msg = f.message;
  for (char& c : msg) {
    if (c == '\n' || c == '\r') {
      c = ' ';
    }
  }
  std::fprintf(stderr, "%s: error: %s: %s\n", kProg, error_name(f.code), msg.c_str());
  return f.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  install_crash_handlers();

  Options o;
  CLI::App app{
      "Run a method of an ExecuTorch program (.pte) and print its outputs and "
      "timing, describe a program (--info), or list the backends (--backends). "
      "With no MODEL, runs the bundled demo program.",
      kProg};
  app.add_option("MODEL", o.model, "The program to load (.pte); default: the demo program")
      ->type_name("");
  app.add_option("--ptd", o.ptd,
                 "External tensor data (.ptd); may be repeated")
      ->allow_extra_args(false)
      ->type_name("FILE");
  app.add_option("--method", o.method,
                 "Method to run (default: forward, or the only method)")
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
  app.add_flag("--json", o.json, "Print one JSON object instead of text");
  app.add_flag("--all-values", o.all_values,
               "Print every element of each output (by default text shows the "
               "first and last 8 of a longer tensor, JSON up to 1048576)");
  std::string memory_limit;
  app.add_option("--memory-limit", memory_limit,
                 "The most memory the program may make this tool allocate for "
                 "planned buffers and inputs, e.g. 512M or 16G (default: "
                 "$EXECUTORCH_MEMORY_LIMIT, else the physical memory)")
      ->type_name("SIZE");
  app.add_flag("--info", o.info,
               "Describe the program: methods, inputs, outputs, operators, delegates");
  app.add_flag("--backends", o.backends,
               "List the registered backends and whether each is available");
  app.add_flag("--no-plugins", o.no_plugins,
               "Do not dlopen optional backend libraries (the CUDA backend)");
  app.add_flag("-v,--verbose", o.verbose, "Show the runtime's log and notes");
  app.set_version_flag("--version", std::string(kProg) + " " + EXECUTORCH_RUN_VERSION,
                       "Print the version and exit");
  app.get_formatter()->column_width(28);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    for (char& c : what) {
      if (c == '\n') {
        c = ' ';
      }
    }
    std::fprintf(stderr, "%s: error: %s: %s (see --help)\n", kProg,
                 error_name(Error::InvalidArgument), what.c_str());
    return kExitUsage;
  }

  g_verbose = o.verbose;
  rt::runtime_init();
  rt::set_log_sink(log_sink);
  // Errors are always captured for the final line; the rest only with -v.
  rt::set_log_level(o.verbose ? rt::LogLevel::Debug : rt::LogLevel::Error);
  load_plugins(!o.no_plugins);

  try {
    if (!memory_limit.empty()) {
      auto limit = MemoryBudget::parse_size(memory_limit.c_str());
      if (!limit.ok()) {
        throw Failure{Error::InvalidArgument,
                      "--memory-limit: '" + memory_limit + "' is not a size (e.g. 512M, 16G)",
                      kExitUsage};
      }
      o.memory_limit = limit.get();
    }
    if (o.backends) {
      if (o.info || !o.model.empty()) {
        fail(Error::InvalidArgument, "--backends takes no model and no --info");
      }
      return cmd_backends(o);
    }
    if (o.info) {
      if (o.json) {
        fail(Error::NotSupported, "--info has no JSON form yet");
      }
      return cmd_info(o);
    }
    return cmd_run(o);
  } catch (const Failure& f) {
    return print_error(f);
  } catch (const std::bad_alloc&) {
    return print_error({Error::MemoryAllocationFailed, "out of memory"});
  } catch (const std::exception& e) {
    return print_error({Error::Internal, e.what()});
  }
}
