// Optional backend libraries executorch-run loads at start, and what it
// knows about a backend. Kept apart so the library's backend discovery can
// replace the hard-coded list in one place.
#pragma once

namespace et_run {

// dlopens the optional backend libraries (the CUDA backend); a library
// that is not installed is skipped (a note with --verbose).
void load_plugins();

struct BackendState {
  bool registered;
  bool available;
};
BackendState backend_state(const char* name);

} // namespace et_run
