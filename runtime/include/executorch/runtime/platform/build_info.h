// What libexecutorch was built from (ours; upstream has no equivalent).
#pragma once

#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

// `git describe --always --dirty` of the source tree the library was built
// from ("v0.1.0-12-gabc1234", "abc1234-dirty"), or the project version when
// it was built from a release tarball without git metadata. Benchmarks and
// `executorch-run --version` print it so results name the exact commit.
EXECUTORCH_API const char* build_version();

} // namespace runtime
} // namespace executorch
