#include "aoti/cublas_loader.h"

#include "aoti/optional_library.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

namespace {

#define AOTI_STR2(x) #x
#define AOTI_STR(x) AOTI_STR2(x)
// The major version of the toolkit built against (13: libcublas.so.13; a
// Debian 11.8 toolkit: libcublas.so.11).
constexpr const char* kLibName = "libcublas.so." AOTI_STR(CUBLAS_VER_MAJOR);

struct Loaded {
  CublasApi api;
  bool ok = false;
  char why[512] = {0};
};

Loaded load() {
  Loaded l;
  void* lib = open_optional_library(kLibName, "cuBLAS is needed for this matrix product", l.why,
                                    sizeof l.why);
  if (lib == nullptr) return l;
#define AOTI_CUBLAS_RESOLVE(name, type)                                        \
  l.api.name = reinterpret_cast<decltype(l.api.name)>(                         \
      resolve_optional_symbol(lib, kLibName, #name, "", l.why, sizeof l.why)); \
  if (l.api.name == nullptr) return l;
  AOTI_CUBLAS_FUNCTIONS(AOTI_CUBLAS_RESOLVE)
#undef AOTI_CUBLAS_RESOLVE
  l.ok = true;
  return l;
}

} // namespace

const CublasApi* cublas_api(const char** why) {
  static const Loaded l = load(); // thread-safe, once
  if (!l.ok) {
    if (why != nullptr) *why = l.why;
    return nullptr;
  }
  return &l.api;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
