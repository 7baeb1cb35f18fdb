// The method list of the "enable_cuda_graph_for_method" option (upstream's
// name): method names separated by commas, each trimmed of surrounding
// spaces; empty entries are skipped, so "" names no method.
#pragma once

#include <string_view>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/result.h>

namespace executorch {
namespace backends {
namespace cuda {

// InvalidArgument when `list` holds a control character (a NUL, a line
// break, ...); the log line names `what` (where the list came from) and the
// byte's offset.
runtime::Error check_method_list(std::string_view list, const char* what);

// The method list an option's value holds (at most kMaxOptionValueLength
// bytes, NUL-terminated within them), checked by check_method_list;
// InvalidArgument naming `what` when it is not terminated or not a list.
runtime::Result<std::string_view> method_list_text(const char* text, const char* what);

// Whether `method` is one of `list`'s entries (an empty name never is).
bool method_listed(std::string_view list, std::string_view method);

} // namespace cuda
} // namespace backends
} // namespace executorch
