#include "aoti/trace.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "aoti/tensor_obj.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

bool trace_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("EXECUTORCH_AOTI_TRACE");
    return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
  }();
  return on;
}

double trace_clock_us() {
  static const auto t0 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

namespace {
std::mutex& live_mu() {
  static std::mutex* m = new std::mutex();
  return *m;
}
std::unordered_set<const TensorObj*>& live_set() {
  static auto* s = new std::unordered_set<const TensorObj*>();
  return *s;
}
std::string ints(const Dims& v) {
  std::string r = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) r += ",";
    r += std::to_string(v[i]);
  }
  return r + "]";
}
} // namespace

void trace_live_add(const TensorObj* t) {
  if (!trace_enabled() || t == nullptr) return;
  std::lock_guard<std::mutex> lk(live_mu());
  live_set().insert(t);
}
void trace_live_remove(const TensorObj* t) {
  if (!trace_enabled() || t == nullptr) return;
  std::lock_guard<std::mutex> lk(live_mu());
  live_set().erase(t);
}
bool trace_is_live(const TensorObj* t) {
  std::lock_guard<std::mutex> lk(live_mu());
  return live_set().count(t) != 0;
}

std::string describe(const TensorObj* t) {
  if (t == nullptr) return "null";
  char buf[160];
  if (!trace_is_live(t)) {
    std::snprintf(buf, sizeof(buf), "%p(NOT-LIVE)", static_cast<const void*>(t));
    return buf;
  }
  std::snprintf(
      buf, sizeof(buf), "%p{st=%p base=%p nbytes=%zu own=%d refs=%lld dt=%d dev=%d off=%lld ",
      static_cast<const void*>(t), static_cast<const void*>(t->storage),
      t->storage ? t->storage->data : nullptr, t->storage ? t->storage->nbytes : size_t{0},
      t->storage ? int(t->storage->owned) : -1,
      t->storage ? static_cast<long long>(t->storage->refs.load()) : -1LL, t->dtype, t->device_type,
      static_cast<long long>(t->offset));
  return std::string(buf) + "sz=" + ints(t->sizes) + " str=" + ints(t->strides) + "}";
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
