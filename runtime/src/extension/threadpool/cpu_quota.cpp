#include "extension/threadpool/cpu_quota.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace executorch {
namespace extension {
namespace cpuinfo {
namespace {

// ceil(quota / period) when both are positive, else 0 (no limit).
uint32_t cpus_of(long long quota, long long period) {
  if (quota <= 0 || period <= 0) return 0;
  const long long cpus = (quota + period - 1) / period;
  return cpus > 0xffff ? 0xffff : static_cast<uint32_t>(cpus);
}

// The v2 cgroup path of the process ("0::/path"), or "".
std::string v2_path(const std::string& proc_self_cgroup) {
  std::ifstream f(proc_self_cgroup);
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("0::", 0) == 0) return line.substr(3);
  }
  return "";
}

// cpu.max of one v2 cgroup directory; false when it cannot be read.
bool read_cpu_max(const std::string& dir, uint32_t* cpus) {
  std::ifstream f(dir + "/cpu.max");
  std::string quota;
  long long period = 0;
  if (!(f >> quota >> period)) return false;
  *cpus = quota == "max" ? 0 : cpus_of(std::atoll(quota.c_str()), period);
  return true;
}

bool read_number(const std::string& path, long long* v) {
  std::ifstream f(path);
  return static_cast<bool>(f >> *v);
}

} // namespace

uint32_t cgroup_cpu_limit(const std::string& cgroup_root, const std::string& proc_self_cgroup) {
  uint32_t cpus = 0;
  const std::string own = v2_path(proc_self_cgroup);
  if ((!own.empty() && own != "/" && read_cpu_max(cgroup_root + own, &cpus)) ||
      read_cpu_max(cgroup_root, &cpus)) {
    return cpus;
  }
  long long quota = 0, period = 0;
  if (read_number(cgroup_root + "/cpu/cpu.cfs_quota_us", &quota) &&
      read_number(cgroup_root + "/cpu/cpu.cfs_period_us", &period)) {
    return cpus_of(quota, period);
  }
  return 0;
}

} // namespace cpuinfo
} // namespace extension
} // namespace executorch
