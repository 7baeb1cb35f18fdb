// Links libexecutorch only: no CudaBackend registered; with a .pte argument,
// loads the program and prints its method count (exit 2 if it fails to load).
#include <cstdio>

#include <executorch/runtime/platform/runtime.h>

// The loader and executor headers come with the executor work; without them
// this program only checks the registry.
#if __has_include(<executorch/extension/data_loader/file_data_loader.h>) && \
    __has_include(<executorch/runtime/executor/program.h>)
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/runtime/executor/program.h>
#define HAVE_PROGRAM 1
#else
#define HAVE_PROGRAM 0
#endif

#include "count.h"

int main(int argc, char** argv) {
  executorch::runtime::runtime_init();
  if (cuda_backend_entries() != 0) {
    std::fprintf(stderr, "runtime_only: CudaBackend registered without the backend\n");
    return 1;
  }
  if (argc > 1) {
#if HAVE_PROGRAM
    auto loader = executorch::extension::FileDataLoader::from(argv[1]);
    if (!loader.ok()) {
      std::fprintf(stderr, "runtime_only: cannot open %s\n", argv[1]);
      return 2;
    }
    auto program = executorch::runtime::Program::load(&loader.get());
    if (!program.ok()) {
      std::fprintf(stderr, "runtime_only: %s did not load (error 0x%x)\n", argv[1],
                   static_cast<unsigned>(program.error()));
      return 2;
    }
    std::printf("runtime_only: %s has %zu method(s)\n", argv[1], program->num_methods());
#else
    std::fprintf(stderr, "runtime_only: built without the executor headers (%s)\n", argv[1]);
    return 2;
#endif
  }
  std::puts("runtime_only: ok");
  return 0;
}
