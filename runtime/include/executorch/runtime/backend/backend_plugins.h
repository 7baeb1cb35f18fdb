// Backend plugins: shared libraries that register backends when they are
// loaded (the CUDA backend is one). An application that wants every
// installed backend calls load_backend_plugins() once at start-up instead
// of naming libraries; modelled on ggml's ggml_backend_load_all().
//
// Where plugins are looked for, in this order:
//   1. each directory of the EXECUTORCH_BACKEND_PATH environment variable
//      (colon-separated), for backends outside the system libdir;
//   2. backend_plugin_dir(): <libdir>/executorch/backends of the installed
//      runtime, where backend packages put a link to their library.
// Every "*.so" file there is a candidate. A plugin exports
//   extern "C" const uint32_t executorch_backend_plugin_abi;
// holding the kBackendPluginAbiVersion it was built against, and registers
// its backends only when that equals backend_plugin_abi_version(); the
// loader checks the same before it counts the plugin as loaded, and logs
// one line for each file it skips, saying why.
//
// Loading is idempotent: a library already in the process (linked, or
// loaded before under another path) is not initialized again, so each
// backend is registered once however it was reached.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

/// The plugin ABI of these headers: bumped when what a plugin relies on
/// (BackendInterface's layout, the registry calls) changes within a SONAME.
constexpr uint32_t kBackendPluginAbiVersion = 1;

/// The plugin ABI of the runtime library loaded in this process.
EXECUTORCH_API uint32_t backend_plugin_abi_version();

/// The installed plugin directory, <libdir>/executorch/backends.
EXECUTORCH_API const char* backend_plugin_dir();

/// Loads one plugin: a file path, or a bare library name (a SONAME) that
/// dlopen looks up on the loader path. Ok: loaded now or before. NotFound:
/// it cannot be opened (dlopen's message is logged: at Error for a path, at
/// Info for a bare name, since an optional backend may not be installed).
/// InvalidArgument: it is not a backend plugin (no
/// executorch_backend_plugin_abi). NotSupported: it was built for another
/// plugin ABI (and so registered nothing).
ET_NODISCARD EXECUTORCH_API Error load_backend_plugin(const char* path);

/// Loads every plugin found (see above) and returns how many are loaded.
EXECUTORCH_API size_t load_backend_plugins();

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
