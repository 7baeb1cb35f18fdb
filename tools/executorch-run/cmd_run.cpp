// Running a method: load it with planned memory under the memory limit,
// give it inputs, run it --iterations times and print its outputs and the
// time it took.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/extension/memory_allocator/planned_memory.h>
#include <executorch/extension/threadpool/threadpool.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/executor/method.h>

#include "backend_option_args.h"
#include "errors.h"
#include "format.h"
#include "inputs.h"
#include "options.h"
#include "outputs.h"
#include "program_files.h"

namespace et_run {

using ::executorch::extension::HostBuffer;
using ::executorch::extension::MallocMemoryAllocator;
using ::executorch::extension::MemoryBudget;
using ::executorch::extension::PlannedMemory;
using rt::Error;

namespace {

// --threads: the pool is resized before anything is loaded, so that no
// kernel or delegate holds the old one. The call is upstream's deprecated
// "unsafe" one because it swaps the pool under running work; nothing runs yet.
void set_pool_threads(uint32_t threads) {
  if (threads == 0) {
    return;
  }
  auto* pool = ::executorch::extension::threadpool::get_threadpool();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  const bool ok = pool->_unsafe_reset_threadpool(threads);
#pragma GCC diagnostic pop
  if (!ok) {
    fail(Error::Internal, "--threads %u: cannot create a thread pool of that size", threads);
  }
}

// --method, else forward, else the only method.
std::string pick_method(const rt::Program& program, const std::string& wanted,
                        const std::string& path) {
  const auto names = method_names(program);
  const bool has_forward = std::find(names.begin(), names.end(), "forward") != names.end();
  if (!wanted.empty()) {
    if (std::find(names.begin(), names.end(), wanted) == names.end()) {
      fail(Error::NotFound, "no method '%s' in '%s' (methods: %s)", wanted.c_str(), path.c_str(),
           join(names).c_str());
    }
    return wanted;
  }
  if (has_forward) {
    return "forward";
  }
  if (names.size() == 1) {
    return names.front();
  }
  if (names.empty()) {
    fail(Error::InvalidProgram, "'%s' has no methods", path.c_str());
  }
  fail(Error::InvalidArgument,
       "'%s' has no method 'forward'; pick one with --method "
       "(methods: %s)",
       path.c_str(), join(names).c_str());
}

// A loaded method and the memory it runs in.
struct LoadedMethod {
  std::unique_ptr<PlannedMemory> planned;
  MallocMemoryAllocator method_allocator;
  MallocMemoryAllocator temp_allocator;
  std::unique_ptr<rt::MemoryManager> memory;
  std::unique_ptr<rt::Method> method;
};

void load_method(const rt::Program& program, const std::string& name, const std::string& path,
                 const rt::NamedDataMap* data, BackendOptionArgs& backend_options,
                 MemoryBudget* budget, LoadedMethod* out) {
  clear_runtime_errors();
  auto meta = program.method_meta(name.c_str());
  if (!meta.ok()) {
    fail_rt(meta.error(), "cannot read method '%s' of '%s'", name.c_str(), path.c_str());
  }
  // Buffers on a device come from that device's registered allocator.
  auto planned = PlannedMemory::for_method(meta.get(), budget);
  if (!planned.ok()) {
    fail_rt(planned.error(), "cannot allocate the planned memory of method '%s'", name.c_str());
  }
  out->planned = std::move(planned.get());
  out->memory = std::make_unique<rt::MemoryManager>(
      &out->method_allocator, out->planned->allocator(), &out->temp_allocator);
  clear_runtime_errors();
  auto method =
      program.load_method(name.c_str(), out->memory.get(), nullptr, data, backend_options.map());
  if (!method.ok()) {
    fail_rt(method.error(), "cannot load method '%s' of '%s'", name.c_str(), path.c_str());
  }
  out->method = std::make_unique<rt::Method>(std::move(method.get()));
}

// Runs the method `iterations` times (inputs set before each run); returns
// each run's time in microseconds.
std::vector<double> run_timed(rt::Method& method, const Inputs& inputs, int iterations,
                              const std::string& name, const std::string& path) {
  std::vector<double> times_us;
  for (int it = 0; it < iterations; ++it) {
    for (size_t i = 0; i < inputs.values.size(); ++i) {
      clear_runtime_errors();
      const Error e = method.set_input(inputs.values[i], i);
      if (e != Error::Ok) {
        fail_rt(e, "method '%s': cannot set input %zu", name.c_str(), i);
      }
    }
    clear_runtime_errors();
    const auto t0 = std::chrono::steady_clock::now();
    const Error e = method.execute();
    const auto t1 = std::chrono::steady_clock::now();
    if (e != Error::Ok) {
      fail_rt(e, "method '%s' of '%s' failed", name.c_str(), path.c_str());
    }
    times_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  return times_us;
}

std::string format_report(rt::Method& method, const std::string& name, std::vector<double> times_us,
                          const Options& o, MemoryBudget* budget) {
  std::sort(times_us.begin(), times_us.end());
  const size_t n = times_us.size();
  const double median = n % 2 == 1 ? times_us[n / 2] : (times_us[n / 2 - 1] + times_us[n / 2]) / 2;
  const PrintOptions p{o.json, o.all_values};
  std::string out =
      o.json ? "{\"method\":\"" + json_escape(name) + "\",\"outputs\":[" : "method: " + name + "\n";
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    out += (o.json && i != 0 ? "," : "") + format_output(method.get_output(i), i, p, budget);
  }
  char timing[160];
  if (o.json) {
    std::snprintf(timing, sizeof(timing),
                  "],\"timing_us\":{\"min\":%.3f,\"median\":%.3f,\"iterations\":%d}}\n",
                  times_us.front(), median, o.iterations);
  } else {
    std::snprintf(timing, sizeof(timing), "timing: %d iteration(s), min %.3f us, median %.3f us\n",
                  o.iterations, times_us.front(), median);
  }
  return out + timing;
}

} // namespace

int cmd_run(const Options& o) {
  if (o.iterations < 1) {
    fail(Error::InvalidArgument, "--iterations must be at least 1 (got %d)", o.iterations);
  }
  BackendOptionArgs backend_options;
  for (const std::string& arg : o.backend_options) {
    std::string why;
    if (!backend_options.add(arg, &why)) {
      fail(Error::InvalidArgument, "--backend-option: %s", why.c_str());
    }
  }
  set_pool_threads(o.threads);
  const std::string path = resolve_model(o.model);
  auto loader = open_file(path, "model");
  rt::Program program = load_program(loader.get(), path);
  const DataFiles data(o.ptd);
  const std::string name = pick_method(program, o.method, path);
  MemoryBudget budget(o.memory_limit);
  LoadedMethod loaded;
  load_method(program, name, path, data.map(), backend_options, &budget, &loaded);
  std::vector<HostBuffer> output_buffers;
  provide_output_buffers(name, *loaded.method, &budget, &output_buffers);
  Inputs inputs;
  build_inputs(o.inputs, name, *loaded.method, &budget, &inputs);
  auto times_us = run_timed(*loaded.method, inputs, o.iterations, name, path);
  std::fputs(format_report(*loaded.method, name, std::move(times_us), o, &budget).c_str(), stdout);
  return 0;
}

} // namespace et_run
