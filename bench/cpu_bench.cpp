// CPU benchmarks for libexecutorch (a small harness, no framework):
//   load:     Program::load + load_method time and VmRSS growth for programs
//             whose constant segment holds 1 MB, 64 MB and 512 MB, through
//             MmapDataLoader (NoMlock) and FileDataLoader.
//   overhead: Method::execute time for add.pte (1 kernel call) and for a
//             generated chain of 100 aten::add.out on [1] floats.
// Usage: cpu_bench [--quick] [--sizes-mb 1,64,512] [--tmpdir DIR] [ADD_PTE]
// Prints one table per part. Exit status 0 unless something failed to load
// or run (a missed target is reported, not failed).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/data_loader/mmap_data_loader.h>
#include <executorch/extension/memory_allocator/planned_memory.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>

#include "pte_writer.h"

using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::extension::FileDataLoader;
using executorch::extension::MmapDataLoader;
using executorch::runtime::DataLoader;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::HierarchicalAllocator;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::MemoryManager;
using executorch::runtime::Method;
using executorch::runtime::MethodMeta;
using executorch::runtime::Program;
using executorch::runtime::Result;
using executorch::runtime::Span;
using Clock = std::chrono::steady_clock;

namespace {

int g_failures = 0;

double now_ns() {
  return double(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
          .count());
}

// A "Name:   N kB" field of /proc/self/status (-1 when unreadable).
long status_kb(const char* field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(f, line)) {
    if (line.compare(0, n, field) == 0) return std::strtol(line.c_str() + n, nullptr, 10);
  }
  return -1;
}
long vm_rss_kb() { return status_kb("VmRSS:"); }
long rss_anon_kb() { return status_kb("RssAnon:"); }

// Baseline: pread the whole file into one aligned heap buffer (what any
// copying loader must at least do), in us.
double baseline_read_us(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return -1;
  std::fseek(f, 0, SEEK_END);
  size_t n = size_t(std::ftell(f));
  std::fclose(f);
  double t0 = now_ns();
  int fd = open(path.c_str(), O_RDONLY);
  void* buf = nullptr;
  if (fd < 0 || posix_memalign(&buf, 64, n ? n : 64) != 0) return -1;
  size_t done = 0;
  while (done < n) {
    ssize_t r = pread(fd, static_cast<char*>(buf) + done, n - done, off_t(done));
    if (r <= 0) break;
    done += size_t(r);
  }
  close(fd);
  double t1 = now_ns();
  std::free(buf);
  return done == n ? (t1 - t0) / 1e3 : -1;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Planned memory (the library's PlannedMemory, as Module and executorch-run
// use it) and the method allocator for one loaded method.
struct MethodMemory {
  std::unique_ptr<::executorch::extension::PlannedMemory> planned;
  std::unique_ptr<uint8_t[]> pool;
  std::unique_ptr<MemoryAllocator> method_allocator;
  std::unique_ptr<MemoryManager> manager;
  explicit MethodMemory(const MethodMeta& meta, size_t pool_size = 1 << 20) {
    auto p = ::executorch::extension::PlannedMemory::for_method(meta, nullptr);
    if (!p.ok()) {
      std::fprintf(stderr, "cannot allocate planned memory: error 0x%x\n",
                   static_cast<unsigned>(p.error()));
      std::exit(1);
    }
    planned = std::move(*p);
    pool.reset(new uint8_t[pool_size]);
    method_allocator.reset(new MemoryAllocator(uint32_t(pool_size), pool.get()));
    manager.reset(new MemoryManager(method_allocator.get(), planned->allocator()));
  }
};

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

// A program whose "forward" returns constant tensors totalling `bytes`
// (64 MB chunks, float), all in the constant segment.
std::vector<uint8_t> constants_program(size_t bytes) {
  using namespace ptewriter;
  const size_t chunk = size_t(64) << 20;
  ProgramDesc p;
  MethodDesc m;
  std::vector<std::vector<uint8_t>> tensors;
  for (size_t done = 0; done < bytes;) {
    size_t n = std::min(chunk, bytes - done);
    std::vector<uint8_t> data(n);
    for (size_t i = 0; i < n; i += 4096) data[i] = uint8_t(i >> 12); // non-zero pages
    tensors.push_back(std::move(data));
    TensorDesc t;
    t.sizes = {int32_t(n / 4)};
    t.data_buffer_idx = uint32_t(tensors.size());
    m.outputs.push_back(m.add_value(ValueDesc::Tensor(t)));
    done += n;
  }
  p.methods = {m};
  p.add_constant_segment(tensors);
  tensors.clear();
  return serialize(p);
}

ptewriter::TensorDesc planned_float1(uint64_t offset) {
  ptewriter::TensorDesc t;
  t.sizes = {1};
  t.mem_id = 1;
  t.mem_offset = offset;
  return t;
}

// x, y inputs; t1 = x + y, t(k+1) = t(k) + y, ..., output t(n).
std::vector<uint8_t> add_chain_program(int n) {
  using namespace ptewriter;
  ProgramDesc p;
  MethodDesc m;
  int32_t x = m.add_value(ValueDesc::Tensor(planned_float1(0)));
  int32_t y = m.add_value(ValueDesc::Tensor(planned_float1(16)));
  int32_t alpha = m.add_value(ValueDesc::Int(1));
  m.add_operator("aten::add", "out");
  int32_t prev = x;
  for (int i = 0; i < n; ++i) {
    int32_t out = m.add_value(ValueDesc::Tensor(planned_float1(uint64_t(32 + 16 * i))));
    m.chains[0].push_back(InstructionDesc::Kernel(0, {prev, y, alpha, out, out}));
    prev = out;
  }
  m.inputs = {x, y};
  m.outputs = {prev};
  m.non_const_buffer_sizes = {0, int64_t(32 + 16 * n)};
  p.methods = {m};
  return serialize(p);
}

// ------------------------------------------------------------------ load
struct LoadResult {
  double program_load_us = 0, load_method_us = 0, total_us = 0;
  long rss_delta_kb = 0, anon_delta_kb = 0;
  bool ok = false;
};

LoadResult load_once(const std::string& path, bool mmap) {
  LoadResult r;
  long rss0 = vm_rss_kb(), anon0 = rss_anon_kb();
  double t0 = now_ns();
  std::unique_ptr<DataLoader> loader;
  if (mmap) {
    auto l = MmapDataLoader::from(path.c_str(), MmapDataLoader::MlockConfig::NoMlock);
    if (!l.ok()) return r;
    loader.reset(new MmapDataLoader(std::move(*l)));
  } else {
    auto l = FileDataLoader::from(path.c_str());
    if (!l.ok()) return r;
    loader.reset(new FileDataLoader(std::move(*l)));
  }
  auto program = Program::load(loader.get());
  double t1 = now_ns();
  if (!program.ok()) return r;
  auto meta = program->method_meta("forward");
  if (!meta.ok()) return r;
  MethodMemory mem(*meta);
  double t2 = now_ns();
  auto method = program->load_method("forward", mem.manager.get());
  double t3 = now_ns();
  if (!method.ok()) return r;
  long rss1 = vm_rss_kb(), anon1 = rss_anon_kb();
  r.anon_delta_kb = anon1 - anon0;
  // Sanity: the first output is a constant whose first byte we wrote.
  const EValue& out = method->get_output(0);
  r.ok = out.isTensor() && out.toTensor().nbytes() > 0;
  r.program_load_us = (t1 - t0) / 1e3;
  r.load_method_us = (t3 - t2) / 1e3;
  r.total_us = r.program_load_us + r.load_method_us;
  r.rss_delta_kb = rss1 - rss0;
  return r;
}

void bench_load(const std::vector<size_t>& sizes_mb, const std::string& tmpdir, int reps) {
  std::printf("\n== load: Program::load + load_method (warm page cache; median of %d)\n", reps);
  std::printf("%-8s %-6s %14s %14s %14s %13s %13s\n", "consts", "loader", "Program::load",
              "load_method", "total", "VmRSS delta", "RssAnon delta");
  std::vector<std::pair<size_t, LoadResult>> mmap_results;
  for (size_t mb : sizes_mb) {
    std::string path = tmpdir + "/consts_" + std::to_string(mb) + "mb.pte";
    // Generate in a child so its buffers never count against our RSS.
    pid_t pid = fork();
    if (pid == 0) {
      _exit(write_file(path, constants_program(mb << 20)) ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      std::printf("%-8zu cannot write %s\n", mb, path.c_str());
      ++g_failures;
      continue;
    }
    for (bool mmap : {true, false}) {
      std::vector<double> pl, lm, tot;
      std::vector<double> rss, anon;
      bool ok = true;
      for (int i = 0; i < reps; ++i) {
        LoadResult r = load_once(path, mmap);
        ok = ok && r.ok;
        pl.push_back(r.program_load_us);
        lm.push_back(r.load_method_us);
        tot.push_back(r.total_us);
        rss.push_back(double(r.rss_delta_kb));
        anon.push_back(double(r.anon_delta_kb));
      }
      LoadResult m;
      m.program_load_us = median(pl);
      m.load_method_us = median(lm);
      m.total_us = median(tot);
      m.rss_delta_kb = long(median(rss));
      m.anon_delta_kb = long(median(anon));
      m.ok = ok;
      if (!ok) ++g_failures;
      char size[32];
      std::snprintf(size, sizeof size, "%zu MB", mb);
      std::printf("%-8s %-6s %11.1f us %11.1f us %11.1f us %10ld kB %10ld kB%s\n", size,
                  mmap ? "mmap" : "file", m.program_load_us, m.load_method_us, m.total_us,
                  m.rss_delta_kb, m.anon_delta_kb, ok ? "" : "  FAILED");
      if (mmap) mmap_results.emplace_back(mb, m);
    }
    {
      std::vector<double> b;
      for (int i = 0; i < reps; ++i) b.push_back(baseline_read_us(path));
      char size[32];
      std::snprintf(size, sizeof size, "%zu MB", mb);
      std::printf("%-8s %-6s %14s %14s %11.1f us   (baseline: pread of the whole file)\n", size,
                  "pread", "", "", median(b));
    }
    std::remove(path.c_str());
  }
  for (auto& [mb, r] : mmap_results) {
    if (mb != 512) continue;
    std::printf(
        "target mmap 512 MB: load < 1000 us: %s (%.1f us); extra RSS < 1024 kB: %s "
        "(VmRSS %ld kB, of which anonymous %ld kB)\n",
        r.total_us < 1000 ? "MET" : "MISSED", r.total_us, r.rss_delta_kb < 1024 ? "MET" : "MISSED",
        r.rss_delta_kb, r.anon_delta_kb);
  }
}

// ------------------------------------------------------------------ overhead
struct ExecResult {
  double ns = 0; // median per execute
  bool ok = false;
  float out = 0;
};

ExecResult time_execute(DataLoader* loader, int inner, int batches) {
  ExecResult r;
  auto program = Program::load(loader);
  if (!program.ok()) return r;
  auto meta = program->method_meta("forward");
  if (!meta.ok()) return r;
  MethodMemory mem(*meta);
  auto method = program->load_method("forward", mem.manager.get());
  if (!method.ok()) return r;
  float a[1] = {3.5f}, b[1] = {-1.25f};
  Tensor::SizesType sizes[1] = {1};
  Tensor::DimOrderType dim_order[1] = {0};
  TensorImpl ai(ScalarType::Float, 1, sizes, a, dim_order);
  TensorImpl bi(ScalarType::Float, 1, sizes, b, dim_order);
  if (method->set_input(EValue(Tensor(&ai)), 0) != Error::Ok ||
      method->set_input(EValue(Tensor(&bi)), 1) != Error::Ok)
    return r;
  for (int i = 0; i < 200; ++i) { // warm-up
    if (method->execute() != Error::Ok) return r;
  }
  std::vector<double> per;
  for (int bt = 0; bt < batches; ++bt) {
    double t0 = now_ns();
    Error e = Error::Ok;
    for (int i = 0; i < inner; ++i) e = method->execute();
    double t1 = now_ns();
    if (e != Error::Ok) return r;
    per.push_back((t1 - t0) / inner);
  }
  r.ns = median(per);
  r.out = method->get_output(0).toTensor().const_data_ptr<float>()[0];
  r.ok = true;
  return r;
}

void bench_overhead(const std::string& add_pte, const std::string& tmpdir, bool quick) {
  const int inner = quick ? 2000 : 20000, batches = quick ? 5 : 21;
  std::printf("\n== overhead: Method::execute (median of %d batches x %d executes)\n", batches,
              inner);
  std::printf("%-28s %8s %14s %16s\n", "program", "instrs", "ns/execute", "ns/instruction");
  ExecResult add;
  {
    auto l = FileDataLoader::from(add_pte.c_str());
    if (l.ok()) add = time_execute(&*l, inner, batches);
    if (!add.ok || add.out != 2.25f) {
      std::printf("%-28s FAILED (%s)\n", "add.pte", add_pte.c_str());
      ++g_failures;
      add.ok = false;
    } else {
      std::printf("%-28s %8d %14.1f %16.1f\n", "add.pte (conformance)", 1, add.ns, add.ns);
    }
  }
  const int n = 100;
  std::string path = tmpdir + "/add_chain_100.pte";
  ExecResult chain;
  if (write_file(path, add_chain_program(n))) {
    auto l = FileDataLoader::from(path.c_str());
    if (l.ok()) chain = time_execute(&*l, inner / 20 > 0 ? inner / 20 : 1, batches);
    std::remove(path.c_str());
  }
  // x + 100 y with x = 3.5, y = -1.25
  if (!chain.ok || chain.out != 3.5f - 125.0f) {
    std::printf("%-28s FAILED (out %g)\n", "add.out chain", double(chain.out));
    ++g_failures;
    return;
  }
  std::printf("%-28s %8d %14.1f %16.1f\n", "aten::add.out x100 on [1]", n, chain.ns, chain.ns / n);
  if (add.ok) {
    double marginal = (chain.ns - add.ns) / (n - 1);
    std::printf("marginal cost per instruction (chain - add.pte) / 99: %.1f ns\n", marginal);
  }
  std::printf("target < 100 ns/instruction (chain): %s (%.1f ns)\n",
              chain.ns / n < 100 ? "MET" : "MISSED", chain.ns / n);
}

} // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::vector<size_t> sizes{1, 64, 512};
  std::string tmpdir;
  std::string add_pte;
#ifdef ET_CONFORMANCE_DIR_DEFAULT
  add_pte = std::string(ET_CONFORMANCE_DIR_DEFAULT) + "/add.pte";
#endif
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--sizes-mb" && i + 1 < argc) {
      sizes.clear();
      for (const char* p = argv[++i]; *p;) {
        char* end;
        sizes.push_back(std::strtoul(p, &end, 10));
        p = *end ? end + 1 : end;
      }
    } else if (a == "--tmpdir" && i + 1 < argc) {
      tmpdir = argv[++i];
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: %s [--quick] [--sizes-mb 1,64,512] [--tmpdir DIR] [ADD_PTE]\n", argv[0]);
      return 0;
    } else {
      add_pte = a;
    }
  }
  executorch::runtime::runtime_init();
  bool own_tmp = tmpdir.empty();
  if (own_tmp) {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/et_bench.XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()) == nullptr) {
      std::perror("mkdtemp");
      return 1;
    }
    tmpdir = buf.data();
  }
  std::printf("cpu_bench%s: tmpdir %s\n", quick ? " (quick)" : "", tmpdir.c_str());
  bench_load(sizes, tmpdir, quick ? 3 : 7);
  bench_overhead(add_pte, tmpdir, quick);
  if (own_tmp) rmdir(tmpdir.c_str());
  std::printf("\n%s\n", g_failures ? "cpu_bench: FAILURES" : "cpu_bench: ok");
  return g_failures ? 1 : 0;
}
