// --backends: the registered backends and whether each is available.
#include <cstdio>

#include <executorch/runtime/backend/interface.h>

#include "errors.h"
#include "format.h"
#include "options.h"
#include "plugins.h"

namespace et_run {

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

} // namespace et_run
