// A backend plugin for backend_plugins_test: registers PLUGIN_BACKEND_NAME
// when loaded, like the CUDA backend, and exports the plugin ABI it was
// built for (PLUGIN_ABI), registering only when the runtime has the same.
// Built without PLUGIN_ABI it is an ordinary library that registers nothing.
#include <cstdint>

#include <executorch/runtime/backend/backend_plugins.h>
#include <executorch/runtime/backend/interface.h>

namespace {

using executorch::runtime::ArrayRef;
using executorch::runtime::BackendExecutionContext;
using executorch::runtime::BackendInitContext;
using executorch::runtime::CompileSpec;
using executorch::runtime::DelegateHandle;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::Result;
using executorch::runtime::Span;

class TestPluginBackend final : public executorch::runtime::BackendInterface {
 public:
  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext&, FreeableBuffer*,
                               ArrayRef<CompileSpec>) const override {
    return Error::NotSupported;
  }
  Error execute(BackendExecutionContext&, DelegateHandle*, Span<EValue*>) const override {
    return Error::NotSupported;
  }
};

#ifdef PLUGIN_ABI
TestPluginBackend backend_instance;

struct Registrar {
  Registrar() {
    if (executorch::runtime::backend_plugin_abi_version() == PLUGIN_ABI) {
      (void)executorch::runtime::register_backend({PLUGIN_BACKEND_NAME, &backend_instance});
    }
  }
};
Registrar registrar;
#endif

} // namespace

#ifdef PLUGIN_ABI
extern "C" __attribute__((visibility("default"))) const uint32_t executorch_backend_plugin_abi =
    PLUGIN_ABI;
#endif
