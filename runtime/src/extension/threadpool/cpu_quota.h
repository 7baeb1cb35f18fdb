// The CPU bandwidth a cgroup grants the process (a container's --cpus), so
// that the default thread count does not exceed it: a pool sized to the
// host's cores under a 2-CPU quota is throttled, each split op waiting on
// threads that are not allowed to run.
//
// Internal to libexecutorch.
#pragma once

#include <cstdint>
#include <string>

namespace executorch {
namespace extension {
namespace cpuinfo {

// CPUs the quota allows, rounded up; 0 when there is no quota (or none can
// be read). cgroup v2 (cpu.max, "max" or "QUOTA PERIOD") under `cgroup_root`
// at the process's cgroup path from `proc_self_cgroup`, else at the root;
// then cgroup v1 (cpu/cpu.cfs_quota_us and cpu.cfs_period_us).
uint32_t cgroup_cpu_limit(const std::string& cgroup_root = "/sys/fs/cgroup",
                          const std::string& proc_self_cgroup = "/proc/self/cgroup");

} // namespace cpuinfo
} // namespace extension
} // namespace executorch
