// CPU facts for sizing thread pools (upstream's extension/threadpool API).
#pragma once

#include <cstdint>

#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {
namespace cpuinfo {

// Physical cores this process may run on (hyper-threads of one core count
// once; cores outside the CPU affinity mask do not count), and no more than
// its cgroup's CPU quota allows (a container's --cpus, rounded up); at
// least 1.
EXECUTORCH_API uint32_t get_num_performant_cores();

} // namespace cpuinfo
} // namespace extension
} // namespace executorch

namespace torch {
namespace executorch {
namespace cpuinfo { // upstream's deprecated alias
using ::executorch::extension::cpuinfo::get_num_performant_cores;
} // namespace cpuinfo
} // namespace executorch
} // namespace torch
