// Physical core count from Linux's sysfs topology, within the affinity mask
// and the cgroup CPU quota.
#include <executorch/extension/threadpool/cpuinfo_utils.h>

#include "extension/threadpool/cpu_quota.h"

#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <set>
#include <string>

namespace executorch {
namespace extension {
namespace cpuinfo {
namespace {

// The first line of a small sysfs file, or "" when it cannot be read.
std::string read_line(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return "";
  char buf[256];
  std::string line = std::fgets(buf, sizeof(buf), f) != nullptr ? buf : "";
  std::fclose(f);
  return line;
}

} // namespace

namespace {

uint32_t cores_in_affinity() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<uint32_t>(n) : 1;
  }
  // A core is the set of logical CPUs that share it (thread_siblings_list);
  // CPUs whose topology cannot be read count as cores of their own.
  std::set<std::string> cores;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &mask)) continue;
    const std::string base = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    const std::string package = read_line(base + "physical_package_id");
    const std::string siblings = read_line(base + "thread_siblings_list");
    cores.insert(siblings.empty() ? "cpu" + std::to_string(cpu) : package + "/" + siblings);
  }
  return cores.empty() ? 1 : static_cast<uint32_t>(cores.size());
}

} // namespace

uint32_t get_num_performant_cores() {
  const uint32_t cores = cores_in_affinity();
  const uint32_t quota = cgroup_cpu_limit();
  return quota > 0 && quota < cores ? quota : cores;
}

} // namespace cpuinfo
} // namespace extension
} // namespace executorch
