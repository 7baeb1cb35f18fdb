#include "aoti/missing_symbol.h"

#include <cstring>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

namespace {

struct Introduced {
  const char* symbol;
  int version;
};

// CUDA entry points newer than 11.0 that compiled models may call.
constexpr Introduced kIntroduced[] = {
    {"cudaMallocAsync", 11020},
    {"cudaFreeAsync", 11020},
    {"cudaMallocFromPoolAsync", 11020},
    {"cudaLaunchKernelExC", 11080},
    {"cuLaunchKernelEx", 11080},
    {"cudaGraphInstantiateWithParams", 12000},
    {"cuLibraryLoadData", 12000},
    {"cuKernelGetFunction", 12000},
    {"cuTensorMapEncodeTiled", 12000},
    {"cudaStreamGetCaptureInfo_v3", 12030},
    {"cudaStreamBeginCaptureToGraph", 12030},
    {"cudaGetDriverEntryPointByVersion", 12050},
    {"cudaStreamGetDevice", 12080},
    {"cudaMemcpyBatchAsync", 12080},
};

} // namespace

std::string undefined_symbol(const char* text) {
  if (text == nullptr) return "";
  static const char kMarker[] = "undefined symbol: ";
  const char* at = std::strstr(text, kMarker);
  if (at == nullptr) return "";
  at += sizeof(kMarker) - 1;
  size_t n = 0;
  while (at[n] != '\0' && at[n] != ' ' && at[n] != ',' && at[n] != '\n' && at[n] != '\t' &&
         at[n] != '(') {
    ++n;
  }
  return std::string(at, n);
}

int first_cuda_version_with(const std::string& symbol) {
  for (const Introduced& i : kIntroduced) {
    if (symbol == i.symbol) return i.version;
  }
  return 0;
}

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string explain_missing_cuda_symbol(const std::string& symbol, int runtime_version,
                                        int driver_version) {
  const bool runtime = symbol.rfind("cuda", 0) == 0;
  const bool driver = !runtime && symbol.rfind("cu", 0) == 0 && symbol.size() > 2 &&
                      symbol[2] >= 'A' && symbol[2] <= 'Z';
  if (!runtime && !driver) return "";
  const int installed = runtime ? runtime_version : driver_version;
  std::string s = "the model needs the CUDA " + std::string(runtime ? "runtime" : "driver") +
                  " symbol " + symbol + ", which the installed " +
                  (runtime ? "libcudart" : "driver (libcuda.so.1)") + " " +
                  (installed > 0 ? cuda_version_text(installed) : "(version unknown)") + " lacks";
  const int needed = first_cuda_version_with(symbol);
  if (needed > 0) {
    s += "; it needs CUDA " + cuda_version_text(needed) + " or newer";
  } else {
    s += "; the model was compiled against a newer CUDA";
  }
  return s;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
