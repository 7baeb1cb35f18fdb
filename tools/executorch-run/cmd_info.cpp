// --info: a program's methods with their inputs, outputs, operators,
// delegates (whether each backend is here, whether it runs native code) and
// planned buffers.
#include <cinttypes>
#include <cstdio>
#include <string>

#include <executorch/runtime/backend/native_code_policy.h>
#include <executorch/runtime/executor/method_meta.h>
#include <executorch/runtime/kernel/builtin_kernels.h>

#include "errors.h"
#include "format.h"
#include "options.h"
#include "plugins.h"
#include "program_files.h"

namespace et_run {

using rt::Tag;

namespace {

void print_tensor_meta(const char* kind, size_t i, const rt::MethodMeta& meta, bool input) {
  auto tag = input ? meta.input_tag(i) : meta.output_tag(i);
  if (!tag.ok()) {
    std::printf("    %s %zu: <error %s>\n", kind, i, rt::to_string(tag.error()));
    return;
  }
  if (tag.get() != Tag::Tensor) {
    std::printf("    %s %zu: %s\n", kind, i, tag_name(tag.get()));
    return;
  }
  auto ti = input ? meta.input_tensor_meta(i) : meta.output_tensor_meta(i);
  if (!ti.ok()) {
    std::printf("    %s %zu: Tensor <error %s>\n", kind, i, rt::to_string(ti.error()));
    return;
  }
  const auto sizes = ti->sizes();
  std::printf("    %s %zu: Tensor %s %s%s\n", kind, i, dtype_name(ti->scalar_type()),
              shape_string(sizes.data(), sizes.size()).c_str(),
              ti->is_memory_planned() ? "" : " (not planned)");
}

// Which kernel serves an operator here: the optimized or the portable
// built-in one, one registered by the application or a library, or none.
const char* kernel_served(const char* op, const char* overload) {
  std::string full = op;
  if (overload[0] != '\0') full += std::string(".") + overload;
  const char* origin = rt::kernel_origin(full.c_str());
  return origin != nullptr ? origin : "no kernel";
}

void print_operators(const rt::MethodMeta& m) {
  std::printf("  operators: %zu\n", m.num_operators());
  for (size_t i = 0; i < m.num_operators(); ++i) {
    auto op = m.get_operator_name(i);
    auto ov = m.get_operator_overload(i);
    const char* on = op.ok() ? op.get() : "?";
    const char* oo = ov.ok() ? ov.get() : "";
    std::printf("    %s%s%s: %s\n", on, oo[0] != '\0' ? "." : "", oo, kernel_served(on, oo));
  }
}

// Whether loading the delegate runs code from the file: what a service that
// loads files it did not make needs to know (--refuse-native-code).
void print_native_code(const char* backend) {
  const char* what = rt::backend_native_code_description(backend);
  if (what == nullptr) {
    std::printf("      native code: no\n");
  } else {
    std::printf("      native code: yes (%s %s)%s\n", backend, what,
                rt::refuses_native_code() ? ", refused here" : "");
  }
}

void print_delegates(const rt::MethodMeta& m) {
  std::printf("  delegates: %zu\n", m.num_backends());
  for (size_t i = 0; i < m.num_backends(); ++i) {
    auto b = m.get_backend_name(i);
    if (!b.ok()) {
      std::printf("    <error %s>\n", rt::to_string(b.error()));
      continue;
    }
    const BackendState s = backend_state(b.get());
    std::printf("    %s: %s\n", b.get(),
                !s.registered
                    ? "not registered"
                    : (s.available ? "registered, available" : "registered, not available"));
    print_native_code(b.get());
  }
}

void print_method(const std::string& name, const rt::MethodMeta& m) {
  std::printf("method %s\n", name.c_str());
  std::printf("  inputs: %zu\n", m.num_inputs());
  for (size_t i = 0; i < m.num_inputs(); ++i) {
    print_tensor_meta("input", i, m, true);
  }
  std::printf("  outputs: %zu\n", m.num_outputs());
  for (size_t i = 0; i < m.num_outputs(); ++i) {
    print_tensor_meta("output", i, m, false);
  }
  print_operators(m);
  print_delegates(m);
  std::printf("  planned buffers: %zu\n", m.num_memory_planned_buffers());
  for (size_t i = 0; i < m.num_memory_planned_buffers(); ++i) {
    auto sz = m.memory_planned_buffer_size(i);
    if (sz.ok()) {
      std::printf("    %zu: %" PRId64 " bytes\n", i, sz.get());
    }
  }
}

} // namespace

int cmd_info(const Options& o) {
  const std::string path = resolve_model(o.model);
  auto loader = open_file(path, "model");
  rt::Program program = load_program(loader.get(), path);
  const auto names = method_names(program);
  std::printf("program: %s\n", path.c_str());
  std::printf("methods: %zu\n", names.size());
  for (const auto& name : names) {
    clear_runtime_errors();
    auto meta = program.method_meta(name.c_str());
    if (!meta.ok()) {
      fail_rt(meta.error(), "cannot read method '%s' of '%s'", name.c_str(), path.c_str());
    }
    print_method(name, meta.get());
  }
  return 0;
}

} // namespace et_run
