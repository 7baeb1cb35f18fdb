// Which delegates carry native code, and whether this process refuses them
// (native_code_policy.h).
#include <executorch/runtime/backend/native_code_policy.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

namespace {

std::atomic<bool> g_refuse{false};

struct NativeCodeBackend {
  const char* id;
  const char* what;
};

// The one list of backends whose delegate payload is native code. Decided
// by id rather than by a BackendInterface method, so upstream's virtual
// layout (and the plugin ABI) stays as it is. Add a backend here when its
// init loads or maps code from the program.
constexpr NativeCodeBackend kNativeCodeBackends[] = {
    // cuda-backend/: init dlopens the delegate's AOTInductor shared object.
    {"CudaBackend", "runs a shared object from the program when it is loaded"},
};

const NativeCodeBackend* find_native(const char* backend_id) {
  if (backend_id == nullptr) {
    return nullptr;
  }
  for (const auto& b : kNativeCodeBackends) {
    if (std::strcmp(b.id, backend_id) == 0) {
      return &b;
    }
  }
  return nullptr;
}

// Read at each call, so a test or a wrapper can set it late; unset, "" and
// "0" allow, anything else refuses (a typo must not silently allow).
bool env_refuses() {
  const char* v = std::getenv("EXECUTORCH_REFUSE_NATIVE_CODE");
  return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
}

} // namespace

void set_refuse_native_code(bool refuse) { g_refuse.store(refuse, std::memory_order_relaxed); }

bool refuses_native_code() { return g_refuse.load(std::memory_order_relaxed) || env_refuses(); }

bool backend_runs_native_code(const char* backend_id) { return find_native(backend_id) != nullptr; }

const char* backend_native_code_description(const char* backend_id) {
  const NativeCodeBackend* b = find_native(backend_id);
  return b == nullptr ? nullptr : b->what;
}

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
