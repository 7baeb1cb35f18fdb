// Replays a corpus fixture (tests/models/corpus/<flow>/<name>/, made by
// tools/export/make_corpus.py with upstream's exporter): loads model.pte
// (and every *.ptd beside it) through Module, runs the calls listed in
// calls.txt in order in one process (a KV cache carries over from call to
// call), and compares every output with PyTorch's eager output.
//
//   corpus_runner FIXTURE_DIR [BACKEND]
// Exit status: 0 all outputs match, 1 a mismatch or an error, 77 BACKEND
// (the delegate the program needs, e.g. CudaBackend) is not available here.
#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/platform/runtime.h>

using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::extension::Module;
using executorch::extension::TensorPtr;
using executorch::runtime::Error;
using executorch::runtime::EValue;

namespace {

struct TensorFile {
  ScalarType type = ScalarType::Float;
  std::vector<executorch::aten::SizesType> sizes;
  std::string file;
};

struct Call {
  std::string method;
  std::vector<TensorFile> ins, outs;
};

struct Fixture {
  double tolerance = 1e-4;
  std::vector<Call> calls;
};

bool parse_dtype(const std::string& s, ScalarType* t) {
  static const std::pair<const char*, ScalarType> kTypes[] = {
      {"f32", ScalarType::Float},  {"f16", ScalarType::Half}, {"bf16", ScalarType::BFloat16},
      {"f64", ScalarType::Double}, {"i64", ScalarType::Long}, {"i32", ScalarType::Int},
      {"i16", ScalarType::Short},  {"i8", ScalarType::Char},  {"u8", ScalarType::Byte},
      {"bool", ScalarType::Bool}};
  for (const auto& [name, type] : kTypes) {
    if (s == name) {
      *t = type;
      return true;
    }
  }
  return false;
}

bool parse_dims(const std::string& s, std::vector<executorch::aten::SizesType>* out) {
  out->clear();
  if (s == "-") return true; // a 0-dim tensor
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) {
      return false;
    }
    out->push_back(static_cast<executorch::aten::SizesType>(std::stol(part)));
  }
  return true;
}

bool parse_calls(const std::string& path, Fixture* fx) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return false;
  }
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    std::istringstream ls(line);
    std::string kind;
    if (!(ls >> kind) || kind[0] == '#') continue;
    bool ok = true;
    if (kind == "tolerance") {
      ok = static_cast<bool>(ls >> fx->tolerance);
    } else if (kind == "call") {
      fx->calls.emplace_back();
      ok = static_cast<bool>(ls >> fx->calls.back().method);
    } else if ((kind == "in" || kind == "out") && !fx->calls.empty()) {
      std::string dtype, dims;
      TensorFile tf;
      ok = (ls >> dtype >> dims >> tf.file) && parse_dtype(dtype, &tf.type) &&
           parse_dims(dims, &tf.sizes);
      (kind == "in" ? fx->calls.back().ins : fx->calls.back().outs).push_back(tf);
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "%s:%d: cannot parse '%s'\n", path.c_str(), no, line.c_str());
      return false;
    }
  }
  return !fx->calls.empty();
}

bool read_bytes(const std::string& path, std::vector<uint8_t>* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out->assign(std::istreambuf_iterator<char>(f), {});
  return true;
}

size_t numel_of(const std::vector<executorch::aten::SizesType>& sizes) {
  size_t n = 1;
  for (auto s : sizes) n *= static_cast<size_t>(s);
  return n;
}

// Element i of a buffer of the given dtype, as a double.
double element(const void* data, ScalarType t, size_t i) {
  switch (t) {
    case ScalarType::Float:
      return static_cast<const float*>(data)[i];
    case ScalarType::Double:
      return static_cast<const double*>(data)[i];
    case ScalarType::Half:
      return static_cast<float>(static_cast<const executorch::aten::Half*>(data)[i]);
    case ScalarType::BFloat16:
      return static_cast<float>(static_cast<const executorch::aten::BFloat16*>(data)[i]);
    case ScalarType::Long:
      return static_cast<double>(static_cast<const int64_t*>(data)[i]);
    case ScalarType::Int:
      return static_cast<const int32_t*>(data)[i];
    case ScalarType::Short:
      return static_cast<const int16_t*>(data)[i];
    case ScalarType::Char:
      return static_cast<const int8_t*>(data)[i];
    case ScalarType::Byte:
      return static_cast<const uint8_t*>(data)[i];
    case ScalarType::Bool:
      return static_cast<const uint8_t*>(data)[i] != 0 ? 1 : 0;
    default:
      return std::nan("");
  }
}

bool is_float(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half ||
         t == ScalarType::BFloat16;
}

// Floating outputs: max |ours - ref| / max |ref| within the tolerance;
// integer and bool outputs: equal.
bool compare(const Tensor& got, const TensorFile& want, const std::vector<uint8_t>& ref,
             double tolerance, const std::string& what) {
  std::vector<executorch::aten::SizesType> got_sizes(got.sizes().begin(), got.sizes().end());
  if (got.scalar_type() != want.type || got_sizes != want.sizes) {
    std::printf("%s: dtype/shape differ from the reference\n", what.c_str());
    return false;
  }
  const size_t n = numel_of(want.sizes);
  if (ref.size() != n * executorch::runtime::elementSize(want.type)) {
    std::printf("%s: reference file has %zu bytes\n", what.c_str(), ref.size());
    return false;
  }
  double max_ref = 0, max_diff = 0;
  for (size_t i = 0; i < n; ++i) {
    const double r = element(ref.data(), want.type, i);
    const double g = element(got.const_data_ptr(), want.type, i);
    max_ref = std::max(max_ref, std::fabs(r));
    const double d = std::fabs(g - r);
    max_diff = std::isnan(d) ? INFINITY : std::max(max_diff, d);
  }
  const double rel = max_ref > 0 ? max_diff / max_ref : max_diff;
  const bool ok = is_float(want.type) ? rel <= tolerance : max_diff == 0;
  std::printf("%s: max rel err %.3g (tolerance %.3g) %s\n", what.c_str(), rel,
              is_float(want.type) ? tolerance : 0.0, ok ? "ok" : "MISMATCH");
  return ok;
}

std::vector<std::string> ptd_files(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".ptd") == 0) {
        out.push_back(dir + "/" + name);
      }
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Runs one call; returns 0 (match), 1 (mismatch or error) or 77 (skip).
bool backend_available(const char* name) {
  auto* backend = executorch::runtime::get_backend_class(name);
  return backend != nullptr && backend->is_available();
}

int run_call(Module& module, const std::string& dir, const Call& call, size_t index,
             double tolerance) {
  std::vector<TensorPtr> keep;
  std::vector<EValue> inputs;
  for (const auto& in : call.ins) {
    std::vector<uint8_t> bytes;
    if (!read_bytes(dir + "/" + in.file, &bytes)) {
      std::printf("cannot read %s\n", in.file.c_str());
      return 1;
    }
    keep.push_back(executorch::extension::make_tensor_ptr(in.sizes, std::move(bytes), in.type));
    inputs.emplace_back(keep.back());
  }
  auto result = module.execute(call.method, inputs);
  if (!result.ok()) {
    std::printf("call %zu (%s) failed: error 0x%x\n", index, call.method.c_str(),
                static_cast<unsigned>(result.error()));
    return 1;
  }
  const auto& outs = *result;
  if (outs.size() != call.outs.size()) {
    std::printf("call %zu (%s): %zu outputs, reference has %zu\n", index, call.method.c_str(),
                outs.size(), call.outs.size());
    return 1;
  }
  int rc = 0;
  for (size_t j = 0; j < outs.size(); ++j) {
    std::vector<uint8_t> ref;
    const std::string what =
        "call " + std::to_string(index) + " " + call.method + " output " + std::to_string(j);
    if (!outs[j].isTensor() || !read_bytes(dir + "/" + call.outs[j].file, &ref) ||
        !compare(outs[j].toTensor(), call.outs[j], ref, tolerance, what)) {
      rc = 1;
    }
  }
  return rc;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s FIXTURE_DIR [BACKEND]\n", argv[0]);
    return 2;
  }
  executorch::runtime::runtime_init();
  if (argc == 3 && !backend_available(argv[2])) {
    std::printf("%s is not available here: skipped\n", argv[2]);
    return 77;
  }
  const std::string dir = argv[1];
  Fixture fx;
  if (!parse_calls(dir + "/calls.txt", &fx)) return 1;
  // Methods of one CUDA program share their weights and KV cache (kept in
  // the AOTInductor models) as upstream's LLM runners ask for, before any
  // method is loaded.
  if (argc == 3 && std::strcmp(argv[2], "CudaBackend") == 0) {
    executorch::runtime::BackendOptions<1> share;
    if (share.set_option("weight_sharing_across_methods", true) != Error::Ok ||
        executorch::runtime::set_option("CudaBackend", share.view()) != Error::Ok) {
      std::printf("CudaBackend refused weight_sharing_across_methods\n");
      return 1;
    }
  }
  // share_memory_arenas: methods exported with share_mutable_buffers keep
  // their state (a KV cache) in one arena.
  Module module(dir + "/model.pte", ptd_files(dir), Module::LoadMode::File, nullptr, nullptr,
                nullptr, /*share_memory_arenas=*/true);
  int rc = 0;
  for (size_t i = 0; i < fx.calls.size(); ++i) {
    rc |= run_call(module, dir, fx.calls[i], i, fx.tolerance);
  }
  std::printf("%s: %s\n", dir.c_str(), rc == 0 ? "PASS" : "FAIL");
  return rc;
}
