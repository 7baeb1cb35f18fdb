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

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/named_data_map.h>

#include "flat_tensor_generated.h"
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
  size_t nbytes() const {
    size_t n = dtype == ScalarType::Float ? 4 : 2;
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

inline bool load_fixture(Fixture& fx) {
  fx.pte = read_file(fx.dir + "/model.pte");
  if (fx.pte.size() < 64) return false;
  const uint8_t* b = fx.pte.data();
  uint64_t seg_base = std::memcmp(b + 8, "eh00", 4) == 0 ? rd64(b + 24) : 0;
  auto* prog = executorch_flatbuffer::GetProgram(b);
  auto* plan = prog->execution_plan()->Get(0);
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
  if (prog->named_data()) {
    for (auto* nd : *prog->named_data()) {
      auto* seg = prog->segments()->Get(nd->segment_index());
      const uint8_t* p = b + seg_base + seg->offset();
      fx.ndm.blobs[nd->key()->str()] = std::vector<uint8_t>(p, p + seg->size());
    }
  }
  std::vector<uint8_t> ptd = read_file(fx.dir + "/aoti_cuda_blob.ptd");
  if (ptd.size() >= 48 && std::memcmp(ptd.data() + 8, "FH01", 4) == 0) {
    uint64_t fb_off = rd64(ptd.data() + 16), sb = rd64(ptd.data() + 32);
    // The FlatBuffer stands alone at fb_off (our exporter) or is the file's
    // own prefix with the header inside it (upstream's).
    if (fb_off + 8 > ptd.size() || std::memcmp(ptd.data() + fb_off + 4, "FT01", 4) != 0) {
      fb_off = 0;
    }
    auto* ft = flat_tensor_flatbuffer::GetFlatTensor(ptd.data() + fb_off);
    if (ft->named_data()) {
      for (auto* nd : *ft->named_data()) {
        auto* seg = ft->segments()->Get(nd->segment_index());
        const uint8_t* p = ptd.data() + sb + seg->offset();
        fx.ndm.blobs[nd->key()->str()] = std::vector<uint8_t>(p, p + seg->size());
      }
    }
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
