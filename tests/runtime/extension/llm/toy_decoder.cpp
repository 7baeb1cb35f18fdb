#include "toy_decoder.h"

#include <algorithm>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/portable_type/bfloat16.h>
#include <executorch/runtime/core/portable_type/half.h>

#include "pte_writer.h"

namespace toy {

namespace {

using ptewriter::InstructionDesc;
using ptewriter::MethodDesc;
using ptewriter::ProgramDesc;
using ptewriter::TensorDesc;
using ptewriter::ValueDesc;

constexpr int8_t kInt = 3, kLong = 4, kHalf = 5, kFloat = 6, kBFloat16 = 15;

int8_t logits_code(LogitsType t) {
  return t == LogitsType::Half ? kHalf : t == LogitsType::BFloat16 ? kBFloat16 : kFloat;
}

size_t elem_size(int8_t code) {
  return code == kLong ? 8 : (code == kHalf || code == kBFloat16) ? 2 : 4;
}

// One method: every tensor planned in mem_id 1 one after the other, but the
// state, which sits at offset 0 of mem_id 2 in every method.
struct Method {
  MethodDesc m;
  uint64_t offset = 0;

  int32_t planned(int8_t code, std::vector<int32_t> sizes, bool dynamic) {
    TensorDesc t;
    t.scalar_type = code;
    size_t bytes = elem_size(code);
    for (int32_t s : sizes) bytes *= size_t(s);
    t.sizes = std::move(sizes);
    t.shape_dynamism = dynamic ? 1 : 0;
    t.mem_id = 1;
    t.mem_offset = offset;
    offset += (bytes + 15) / 16 * 16;
    return m.add_value(ValueDesc::Tensor(t));
  }
  int32_t state() {
    TensorDesc t;
    t.sizes = {1, kVocab};
    t.mem_id = 2;
    return m.add_value(ValueDesc::Tensor(t));
  }
  int32_t constant(std::vector<int32_t> sizes, uint32_t buffer) {
    TensorDesc t;
    t.sizes = std::move(sizes);
    t.data_buffer_idx = buffer;
    return m.add_value(ValueDesc::Tensor(t));
  }
  int32_t integer(int64_t v) { return m.add_value(ValueDesc::Int(v)); }
  int32_t boolean(bool v) { return m.add_value(ValueDesc::Bool(v)); }
  void call(const char* op, const char* overload, std::vector<int32_t> args) {
    int32_t k = -1;
    for (size_t j = 0; j < m.operators.size(); ++j) {
      if (m.operators[j].first == op && m.operators[j].second == overload) k = int32_t(j);
    }
    if (k < 0) k = m.add_operator(op, overload);
    m.chains[0].push_back(InstructionDesc::Kernel(k, std::move(args)));
  }
  void embedding(int32_t table, int32_t indices, int32_t out) {
    call("aten::embedding", "out",
         {table, indices, integer(-1), boolean(false), boolean(false), out, out});
  }
  void add(int32_t a, int32_t b, int32_t out) {
    call("aten::add", "out", {a, b, integer(1), out, out});
  }
};

MethodDesc decoder_method(const std::string& name, const Options& o, int32_t bound,
                          bool per_token) {
  Method b;
  b.m.name = name;
  const bool dynamic = bound > 1;
  const int8_t index = o.int32_inputs ? kInt : kLong;
  const int32_t tokens = b.planned(index, {1, bound}, dynamic);
  const int32_t pos = b.planned(index, {per_token ? bound : 1}, dynamic && per_token);
  const int32_t w = b.constant({kVocab, kVocab}, 1);
  const int32_t q_table = b.constant({kContext, kVocab}, 2);
  const int32_t e = b.planned(kFloat, {1, bound, kVocab}, dynamic);
  const int32_t q = b.planned(kFloat, {per_token ? bound : 1, kVocab}, dynamic && per_token);
  const int32_t a = b.planned(kFloat, {1, bound, kVocab}, dynamic);
  const int32_t logits = b.planned(kFloat, {1, bound, kVocab}, dynamic);
  const int32_t sum = b.planned(kFloat, {1, kVocab}, false);
  const int32_t penalty = b.planned(kFloat, {1, kVocab}, false);
  const int32_t state = b.state();
  b.embedding(w, tokens, e);
  b.embedding(q_table, pos, q);
  b.add(e, q, a);
  b.add(a, state, logits);
  const int32_t dims = b.m.add_value(ValueDesc::IntList({b.integer(1)}));
  b.call("aten::sum", "IntList_out",
         {e, dims, b.boolean(false), b.m.add_value(ValueDesc::Null()), sum, sum});
  b.call("aten::mul", "Scalar_out",
         {sum, b.m.add_value(ValueDesc::Double(kPenalty)), penalty, penalty});
  b.add(state, penalty, state);
  int32_t result = logits;
  std::vector<int32_t> shape = {1, bound, kVocab};
  if (o.logits == Logits::LastOnly) {
    shape = {1, kVocab};
    result = b.planned(kFloat, shape, false);
    b.call("aten::select_copy", "int_out", {logits, b.integer(1), b.integer(-1), result, result});
  }
  if (o.type != LogitsType::Float) {
    const int32_t converted = b.planned(logits_code(o.type), shape, dynamic && shape.size() == 3);
    b.call("aten::_to_copy", "out",
           {result, b.boolean(false), b.m.add_value(ValueDesc::Null()), converted, converted});
    result = converted;
  }
  b.m.inputs = {tokens, pos};
  b.m.outputs = {result};
  b.m.non_const_buffer_sizes = {0, int64_t(b.offset), int64_t(kVocab * sizeof(float))};
  return b.m;
}

// A constant method: no inputs, the values as outputs.
MethodDesc constant_method(const std::string& name, const std::vector<ValueDesc>& values) {
  MethodDesc m;
  m.name = name;
  for (const ValueDesc& v : values) {
    m.outputs.push_back(m.add_value(v));
  }
  return m;
}

std::vector<uint8_t> float_bytes(int32_t rows, float (*at)(int32_t, int32_t)) {
  std::vector<float> v;
  for (int32_t r = 0; r < rows; ++r) {
    for (int32_t c = 0; c < kVocab; ++c) v.push_back(at(r, c));
  }
  return ptewriter::bytes_of(v);
}

float round_trip(float v, LogitsType t) {
  if (t == LogitsType::Half) return float(::executorch::aten::Half(v));
  if (t == LogitsType::BFloat16) return float(::executorch::aten::BFloat16(v));
  return v;
}

} // namespace

namespace {
// A 32-bit integer hash: irregular tables without a random-number library.
uint32_t mix(uint32_t x) {
  x *= 0x9E3779B1u;
  x ^= x >> 15;
  x *= 0x85EBCA77u;
  x ^= x >> 13;
  return x;
}
} // namespace

// Multiples of 1/16 in [-1, 1).
float weight(int32_t row, int32_t col) {
  return float(int32_t(mix(uint32_t(row * 64 + col + 1)) >> 27) - 16) / 16.f;
}

float position(int32_t row, int32_t col) {
  return float(int32_t(mix(uint32_t(1000 + row * 64 + col)) >> 27) - 16) / 16.f;
}

std::vector<uint8_t> make_program(const Options& o) {
  ProgramDesc p;
  switch (o.layout) {
    case Layout::PrefillDecode:
      p.methods.push_back(decoder_method("prefill", o, kPrefillBound, true));
      p.methods.push_back(decoder_method("decode", o, 1, true));
      break;
    case Layout::ForwardDynamic:
      p.methods.push_back(decoder_method("forward", o, kPrefillBound, false));
      break;
    case Layout::ForwardStatic:
      p.methods.push_back(decoder_method("forward", o, 1, false));
      break;
  }
  if (o.metadata) {
    p.methods.push_back(constant_method("get_max_context_len", {ValueDesc::Int(kContext)}));
    p.methods.push_back(constant_method("enable_dynamic_shape",
                                        {ValueDesc::Bool(o.layout != Layout::ForwardStatic)}));
  }
  if (!o.eos_ids.empty()) {
    std::vector<ValueDesc> ids;
    for (int64_t id : o.eos_ids) ids.push_back(ValueDesc::Int(id));
    p.methods.push_back(constant_method("get_eos_ids", ids));
  }
  p.add_constant_segment({float_bytes(kVocab, weight), float_bytes(kContext, position)});
  return ptewriter::serialize(p);
}

std::vector<float> Reference::feed(const std::vector<uint64_t>& tokens,
                                   const std::vector<int64_t>& positions) {
  std::vector<float> last(kVocab);
  for (size_t i = 0; i < tokens.size(); ++i) {
    for (int32_t c = 0; c < kVocab; ++c) {
      const float v =
          weight(int32_t(tokens[i]), c) + position(int32_t(positions[i]), c) + state_[size_t(c)];
      last[size_t(c)] = round_trip(v, type_);
    }
  }
  for (uint64_t t : tokens) {
    for (int32_t c = 0; c < kVocab; ++c) state_[size_t(c)] += kPenalty * weight(int32_t(t), c);
  }
  return last;
}

namespace {
uint64_t argmax(const std::vector<float>& v) {
  return uint64_t(std::max_element(v.begin(), v.end()) - v.begin());
}
} // namespace

std::vector<uint64_t> reference_greedy(const Options& o, const std::vector<uint64_t>& prompt, int n,
                                       const std::vector<uint64_t>& stop) {
  Reference ref(o.type);
  const bool per_token = o.layout == Layout::PrefillDecode;
  const size_t chunk = o.layout == Layout::ForwardStatic ? 1 : size_t(kPrefillBound);
  std::vector<float> logits;
  int64_t pos = 0;
  for (size_t done = 0; done < prompt.size(); done += chunk) {
    const size_t count = std::min(chunk, prompt.size() - done);
    std::vector<uint64_t> part(prompt.begin() + long(done), prompt.begin() + long(done + count));
    std::vector<int64_t> positions;
    for (size_t i = 0; i < count; ++i) positions.push_back(per_token ? pos + int64_t(i) : pos);
    logits = ref.feed(part, positions);
    pos += int64_t(count);
  }
  std::vector<uint64_t> out;
  uint64_t token = argmax(logits);
  out.push_back(token);
  while (int(out.size()) < n && std::find(stop.begin(), stop.end(), token) == stop.end()) {
    logits = ref.feed({token}, {pos++});
    token = argmax(logits);
    out.push_back(token);
  }
  return out;
}

} // namespace toy
