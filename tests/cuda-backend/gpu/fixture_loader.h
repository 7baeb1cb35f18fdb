// A CUDA fixture (tests/models/cuda/<name>/: model.pte, aoti_cuda_blob.ptd,
// input<i>.bin, output<i>.bin) read for driving CudaBackend directly: the
// delegate's processed bytes and compile specs, every named blob of the
// .pte and the .ptd, the method's I/O shapes, the inputs and the reference
// outputs. Shared by the GPU suite and bench/gpu_bench.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/executor/program.h>

#include "gpu_test_util.h"
#include "program_generated.h"

namespace gpu_test {

namespace rt = executorch::runtime;
using executorch::aten::ScalarType;

inline uint64_t rd64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

class MapNamedData final : public rt::NamedDataMap {
 public:
  std::map<std::string, std::vector<uint8_t>> blobs;
  rt::Result<const rt::TensorLayout> get_tensor_layout(std::string_view) const override {
    return rt::Error::NotFound;
  }
  rt::Result<rt::FreeableBuffer> get_data(std::string_view key) const override {
    auto it = blobs.find(std::string(key));
    if (it == blobs.end()) return rt::Error::NotFound;
    return rt::FreeableBuffer(it->second.data(), it->second.size(), nullptr);
  }
  rt::Error load_data_into(std::string_view, void*, size_t) const override {
    return rt::Error::NotImplemented;
  }
  rt::Result<uint32_t> get_num_keys() const override { return uint32_t(blobs.size()); }
  rt::Result<const char*> get_key(uint32_t) const override { return rt::Error::NotImplemented; }
};

struct IoSpec {
  ScalarType dtype;
  std::vector<int32_t> sizes;
  // 0 for a dtype the runtime does not know (the size check then fails).
  size_t nbytes() const {
    size_t n = executorch::runtime::elementSizeOrZero(dtype);
    for (int32_t s : sizes) n *= size_t(s);
    return n;
  }
  size_t numel() const {
    size_t n = 1;
    for (int32_t s : sizes) n *= size_t(s);
    return n;
  }
};

struct Fixture {
  std::string dir;
  std::string method; // the plan to read; empty: the program's first
  std::vector<uint8_t> pte;
  MapNamedData ndm;
  std::vector<uint8_t> processed;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> specs;
  std::vector<IoSpec> ins, outs;
  std::vector<std::vector<uint8_t>> in_data;
  std::vector<std::vector<float>> ref;
  double tol = 1e-4;
  rt::DelegateHandle* handle = nullptr;
};

// Copies every blob of `from` into `to`; false (with a message) on an error.
inline bool copy_named_data(const rt::NamedDataMap& from, MapNamedData& to) {
  auto n = from.get_num_keys();
  EXPECT(n.ok(), "get_num_keys failed");
  if (!n.ok()) return false;
  for (uint32_t i = 0; i < n.get(); ++i) {
    auto key = from.get_key(i);
    auto data = key.ok() ? from.get_data(key.get()) : rt::Result<rt::FreeableBuffer>(key.error());
    EXPECT(data.ok(), "named data %u: cannot read it", i);
    if (!data.ok()) return false;
    const auto* p = static_cast<const uint8_t*>(data->data());
    to.blobs[key.get()] = std::vector<uint8_t>(p, p + data->size());
  }
  return true;
}

inline bool load_fixture(Fixture& fx) {
  fx.pte = read_file(fx.dir + "/model.pte");
  if (fx.pte.size() < 64) return false;
  const uint8_t* b = fx.pte.data();
  uint64_t seg_base = std::memcmp(b + 8, "eh00", 4) == 0 ? rd64(b + 24) : 0;
  auto* prog = executorch_flatbuffer::GetProgram(b);
  const executorch_flatbuffer::ExecutionPlan* plan = prog->execution_plan()->Get(0);
  for (auto* p : *prog->execution_plan()) {
    if (!fx.method.empty() && p->name()->str() == fx.method) plan = p;
  }
  EXPECT(fx.method.empty() || plan->name()->str() == fx.method, "%s: no method %s", fx.dir.c_str(),
         fx.method.c_str());
  if (!fx.method.empty() && plan->name()->str() != fx.method) return false;
  auto* del = plan->delegates()->Get(0);
  EXPECT(del->id()->str() == "CudaBackend", "delegate id %s", del->id()->c_str());
  // Our exporter stores the processed bytes inline, upstream's in a segment.
  const auto* where = del->processed();
  if (where->location() == executorch_flatbuffer::DataLocation::SEGMENT) {
    const auto* seg = prog->segments()->Get(where->index());
    const uint8_t* p = b + seg_base + seg->offset();
    fx.processed.assign(p, p + seg->size());
  } else {
    auto* inl = prog->backend_delegate_data()->Get(where->index())->data();
    fx.processed.assign(inl->begin(), inl->end());
  }
  for (auto* cs : *del->compile_specs()) {
    fx.specs.emplace_back(cs->key()->str(),
                          std::vector<uint8_t>(cs->value()->begin(), cs->value()->end()));
  }
  // The named blobs of the .pte and of the .ptd, read by the runtime's own
  // Program and FlatTensorDataMap (so the file layouts live in one place).
  executorch::extension::BufferDataLoader pte_loader(fx.pte.data(), fx.pte.size());
  auto program = rt::Program::load(&pte_loader);
  EXPECT(program.ok(), "%s/model.pte: Program::load failed", fx.dir.c_str());
  if (!program.ok()) return false;
  auto pte_data = program->get_named_data_map();
  if (pte_data.ok() && !copy_named_data(*pte_data.get(), fx.ndm)) return false;
  std::vector<uint8_t> ptd = read_file(fx.dir + "/aoti_cuda_blob.ptd");
  if (!ptd.empty()) {
    executorch::extension::BufferDataLoader ptd_loader(ptd.data(), ptd.size());
    auto ptd_map = executorch::extension::FlatTensorDataMap::load(&ptd_loader);
    EXPECT(ptd_map.ok(), "%s/aoti_cuda_blob.ptd: FlatTensorDataMap::load failed", fx.dir.c_str());
    if (!ptd_map.ok() || !copy_named_data(ptd_map.get(), fx.ndm)) return false;
  }
  auto spec_of = [&](int idx) {
    auto* t = plan->values()->Get(idx)->val_as_Tensor();
    IoSpec s;
    s.dtype = static_cast<ScalarType>(t->scalar_type());
    s.sizes.assign(t->sizes()->begin(), t->sizes()->end());
    return s;
  };
  for (int i : *plan->inputs()) fx.ins.push_back(spec_of(i));
  for (int i : *plan->outputs()) fx.outs.push_back(spec_of(i));
  for (size_t i = 0; i < fx.ins.size(); ++i) {
    fx.in_data.push_back(read_file(fx.dir + "/input" + std::to_string(i) + ".bin"));
    EXPECT(fx.in_data.back().size() == fx.ins[i].nbytes(), "%s input%zu size", fx.dir.c_str(), i);
    if (fx.ins[i].dtype == ScalarType::BFloat16) fx.tol = 2e-2;
  }
  for (size_t i = 0; i < fx.outs.size(); ++i) {
    std::vector<float> r =
        gpu_test::read_reference(fx.dir + "/output" + std::to_string(i) + ".bin");
    EXPECT(r.size() == fx.outs[i].numel(), "%s output%zu size", fx.dir.c_str(), i);
    fx.ref.push_back(std::move(r));
  }
  return true;
}

} // namespace gpu_test
