// The active PAL table and the pal_*() dispatchers.
#include <executorch/runtime/platform/platform.h>

#include <cstdlib>
#include <mutex>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {
namespace {

// Constant-initialized (the loader fills in the addresses, resolving each to
// the application's definition when it has one), so it is valid before any
// static constructor, including one that calls register_pal().
PalImpl g_pal = {et_pal_init,
                 et_pal_abort,
                 et_pal_current_ticks,
                 et_pal_ticks_to_ns_multiplier,
                 et_pal_emit_log_message,
                 et_pal_allocate,
                 et_pal_free,
                 "libexecutorch"};
bool g_pal_registered = false;

std::mutex& registration_mutex() {
  static std::mutex m;
  return m;
}

// Entries are read on every log line; atomic loads and stores keep a
// concurrent register_pal() race-free without a lock on that path.
template <typename T>
T load(const T& entry) {
  return __atomic_load_n(&entry, __ATOMIC_ACQUIRE);
}
template <typename T>
void replace_if_set(T& entry, T value) {
  if (value != nullptr) {
    __atomic_store_n(&entry, value, __ATOMIC_RELEASE);
  }
}

} // namespace

PalImpl PalImpl::create(pal_emit_log_message_method emit_log_message, const char* source_filename) {
  return create(nullptr, nullptr, nullptr, nullptr, emit_log_message, nullptr, nullptr,
                source_filename);
}

PalImpl PalImpl::create(pal_init_method init, pal_abort_method abort,
                        pal_current_ticks_method current_ticks,
                        pal_ticks_to_ns_multiplier_method ticks_to_ns_multiplier,
                        pal_emit_log_message_method emit_log_message, pal_allocate_method allocate,
                        pal_free_method free, const char* source_filename) {
  return PalImpl{init,     abort, current_ticks,  ticks_to_ns_multiplier, emit_log_message,
                 allocate, free,  source_filename};
}

bool register_pal(PalImpl impl) {
  pal_init_method init = nullptr;
  {
    std::lock_guard<std::mutex> lock(registration_mutex());
    if (g_pal_registered) {
      ET_LOG(Info, "register_pal: %s replaces the PAL registered from %s",
             impl.source_filename != nullptr ? impl.source_filename : "(unnamed)",
             g_pal.source_filename != nullptr ? g_pal.source_filename : "(unnamed)");
    }
    g_pal_registered = true;
    replace_if_set(g_pal.abort, impl.abort);
    replace_if_set(g_pal.current_ticks, impl.current_ticks);
    replace_if_set(g_pal.ticks_to_ns_multiplier, impl.ticks_to_ns_multiplier);
    replace_if_set(g_pal.emit_log_message, impl.emit_log_message);
    replace_if_set(g_pal.allocate, impl.allocate);
    replace_if_set(g_pal.free, impl.free);
    replace_if_set(g_pal.init, impl.init);
    replace_if_set(g_pal.source_filename, impl.source_filename);
    init = impl.init;
  }
  // Outside the lock: an init that logs or registers again must not deadlock.
  if (init != nullptr) {
    init();
  }
  return true;
}

const PalImpl* get_pal_impl() { return &g_pal; }

void pal_init() { load(g_pal.init)(); }

void pal_abort() {
  load(g_pal.abort)();
  // A hook that returns breaks its contract; end the process anyway.
  std::abort();
}

et_timestamp_t pal_current_ticks() { return load(g_pal.current_ticks)(); }

et_tick_ratio_t pal_ticks_to_ns_multiplier() { return load(g_pal.ticks_to_ns_multiplier)(); }

void pal_emit_log_message(et_timestamp_t timestamp, et_pal_log_level_t level, const char* filename,
                          const char* function, size_t line, const char* message, size_t length) {
  load(g_pal.emit_log_message)(timestamp, level, filename, function, line, message, length);
}

void* pal_allocate(size_t size) { return load(g_pal.allocate)(size); }

void pal_free(void* ptr) { load(g_pal.free)(ptr); }

} // namespace runtime
} // namespace executorch
