// Test helper: writes bundled programs (.bpte) with the FlatBuffers builder
// over our generated schema, around any program bytes, including malformed
// variants the reader must reject.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bundled_program_generated.h"

namespace bundle_writer {

struct Value {
  enum class Kind { Tensor, Int, Bool, Double, None } kind = Kind::None;
  int8_t dtype = 6; // Float
  std::vector<int32_t> sizes;
  std::vector<uint8_t> data;
  std::vector<uint8_t> dim_order;
  bool write_dim_order = true;
  int64_t i = 0;
  bool b = false;
  double d = 0;
};

inline Value floats(std::vector<int32_t> sizes, const std::vector<float>& v) {
  Value t;
  t.kind = Value::Kind::Tensor;
  t.sizes = std::move(sizes);
  t.data.resize(v.size() * sizeof(float));
  if (!v.empty()) std::memcpy(t.data.data(), v.data(), t.data.size());
  for (size_t i = 0; i < t.sizes.size(); ++i) t.dim_order.push_back(static_cast<uint8_t>(i));
  return t;
}

inline Value int_value(int64_t x) {
  Value v;
  v.kind = Value::Kind::Int;
  v.i = x;
  return v;
}

struct Case {
  std::vector<Value> inputs;
  std::vector<Value> expected;
};

struct Suite {
  std::string method = "forward";
  std::vector<Case> cases;
};

inline flatbuffers::Offset<bundled_program_flatbuffer::Value> write_value(
    flatbuffers::FlatBufferBuilder& fbb, const Value& v) {
  namespace fb = bundled_program_flatbuffer;
  switch (v.kind) {
    case Value::Kind::Tensor: {
      auto sizes = fbb.CreateVector(v.sizes);
      fbb.ForceVectorAlignment(v.data.size(), 1, 16);
      auto data = fbb.CreateVector(v.data);
      flatbuffers::Offset<flatbuffers::Vector<uint8_t>> order;
      if (v.write_dim_order) order = fbb.CreateVector(v.dim_order);
      auto t = fb::CreateTensor(fbb, static_cast<executorch_flatbuffer::ScalarType>(v.dtype), sizes,
                                data, order);
      return fb::CreateValue(fbb, fb::ValueUnion::Tensor, t.Union());
    }
    case Value::Kind::Int:
      return fb::CreateValue(fbb, fb::ValueUnion::Int, fb::CreateInt(fbb, v.i).Union());
    case Value::Kind::Bool:
      return fb::CreateValue(fbb, fb::ValueUnion::Bool, fb::CreateBool(fbb, v.b).Union());
    case Value::Kind::Double:
      return fb::CreateValue(fbb, fb::ValueUnion::Double, fb::CreateDouble(fbb, v.d).Union());
    case Value::Kind::None:
      break;
  }
  return fb::CreateValue(fbb);
}

inline std::vector<uint8_t> write(const std::vector<uint8_t>& program,
                                  const std::vector<Suite>& suites) {
  namespace fb = bundled_program_flatbuffer;
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::BundledMethodTestSuite>> suite_offsets;
  for (const Suite& s : suites) {
    std::vector<flatbuffers::Offset<fb::BundledMethodTestCase>> cases;
    for (const Case& c : s.cases) {
      std::vector<flatbuffers::Offset<fb::Value>> in, out;
      for (const Value& v : c.inputs) in.push_back(write_value(fbb, v));
      for (const Value& v : c.expected) out.push_back(write_value(fbb, v));
      auto inv = fbb.CreateVector(in);
      auto outv = fbb.CreateVector(out);
      cases.push_back(fb::CreateBundledMethodTestCase(fbb, inv, outv));
    }
    auto name = fbb.CreateString(s.method);
    auto casev = fbb.CreateVector(cases);
    suite_offsets.push_back(fb::CreateBundledMethodTestSuite(fbb, name, casev));
  }
  auto suitev = fbb.CreateVector(suite_offsets);
  fbb.ForceVectorAlignment(program.size(), 1, 32);
  auto prog = fbb.CreateVector(program);
  fb::FinishBundledProgramBuffer(fbb, fb::CreateBundledProgram(fbb, 0, suitev, prog));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

inline std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

inline std::string conformance_path(const char* name) {
  const char* dir = std::getenv("ET_CONFORMANCE_DIR");
  return std::string(dir != nullptr ? dir : ET_CONFORMANCE_DIR_DEFAULT) + "/" + name;
}

// add.pte (tests/data): forward(a: float[1], b: float[1]) = a + b.
inline Case add_case(float a, float b, float sum) {
  return Case{{floats({1}, {a}), floats({1}, {b})}, {floats({1}, {sum})}};
}

} // namespace bundle_writer
