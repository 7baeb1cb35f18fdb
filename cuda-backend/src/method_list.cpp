#include "method_list.h"

#include <cstring>

#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace backends {
namespace cuda {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

} // namespace

runtime::Error check_method_list(std::string_view list, const char* what) {
  for (size_t i = 0; i < list.size(); ++i) {
    const auto c = static_cast<unsigned char>(list[i]);
    ET_CHECK_OR_RETURN_ERROR(c >= 0x20 && c != 0x7f, InvalidArgument,
                             "CudaBackend: %s: byte %zu of the method list is the control "
                             "character 0x%02x (expected names separated by commas)",
                             what, i, static_cast<unsigned>(c));
  }
  return runtime::Error::Ok;
}

runtime::Result<std::string_view> method_list_text(const char* text, const char* what) {
  const size_t n = strnlen(text, runtime::kMaxOptionValueLength);
  ET_CHECK_OR_RETURN_ERROR(n < runtime::kMaxOptionValueLength, InvalidArgument,
                           "CudaBackend: %s is not NUL-terminated", what);
  const std::string_view list(text, n);
  const runtime::Error e = check_method_list(list, what);
  if (e != runtime::Error::Ok) return e;
  return list;
}

bool method_listed(std::string_view list, std::string_view method) {
  if (method.empty()) return false;
  while (true) {
    const size_t comma = list.find(',');
    if (trimmed(list.substr(0, comma)) == method) return true;
    if (comma == std::string_view::npos) return false;
    list.remove_prefix(comma + 1);
  }
}

} // namespace cuda
} // namespace backends
} // namespace executorch
