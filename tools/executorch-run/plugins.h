// Backend libraries the tools load at start (shared by executorch-run and
// executorch-generate), and what they know about a backend.
#pragma once

namespace et_run {

// Loads the backend plugins the library finds (EXECUTORCH_BACKEND_PATH,
// then <libdir>/executorch/backends), then, if no plugin provided it, the
// CUDA backend by its soname. Nothing found is not an error (a CPU program
// needs no plugin); with `verbose`, "<prog>: note:" lines say what happened.
void load_plugins(const char* prog, bool verbose);

struct BackendState {
  bool registered;
  bool available;
};
BackendState backend_state(const char* name);

} // namespace et_run
