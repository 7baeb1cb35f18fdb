// Writes the bomb set: small hostile .pte/.ptd files, one or more per class
// of issue 15 (out-of-bounds strides, retyping moves, memory and time chosen
// by the file, undefined behaviour from file bytes), into DIR. Each file is
// named <class>-<variant>.pte; a .ptd that goes with one has the same stem.
// bomb_set.py runs executorch-run on every file and reports the figures.
//
// usage: make_bombs DIR
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "pte_writer.h"

using namespace ptewriter;

namespace {

using Bytes = std::vector<uint8_t>;

bool write_file(const std::string& path, const Bytes& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    std::perror(path.c_str());
    return false;
  }
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

TensorDesc tensor(Dtype dtype, std::vector<int32_t> sizes, uint32_t mem_id = 0, uint64_t offset = 0,
                  std::vector<uint8_t> dim_order = {}) {
  TensorDesc t;
  t.scalar_type = int8_t(dtype);
  t.sizes = std::move(sizes);
  t.dim_order = std::move(dim_order);
  t.mem_id = mem_id;
  t.mem_offset = offset;
  return t;
}

ProgramDesc one(MethodDesc m) {
  ProgramDesc p;
  p.methods = {std::move(m)};
  return p;
}

// x -> op -> out with planned tensors of `sizes` (out in `out_order`).
ProgramDesc clone(std::vector<int32_t> sizes, std::vector<uint8_t> out_order, uint64_t in_offset,
                  int64_t buffer) {
  MethodDesc m;
  int32_t in = m.add_value(ValueDesc::Tensor(tensor(Dtype::Float, sizes, 1, in_offset)));
  int32_t none = m.add_value(ValueDesc::Null());
  int32_t out = m.add_value(ValueDesc::Tensor(tensor(Dtype::Float, sizes, 1, 0, out_order)));
  m.inputs = {in};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, buffer};
  m.add_operator("aten::clone", "out");
  m.chains[0] = {InstructionDesc::Kernel(0, {in, none, out, out})};
  return one(m);
}

// Class 1: strides or offsets beyond the kernels' index types.
void strides(std::vector<std::pair<std::string, ProgramDesc>>* out) {
  out->emplace_back("stride-clone_issue",
                    clone({32768, 65536, 2}, {2, 0, 1}, uint64_t(1) << 34, int64_t(1) << 36));
  out->emplace_back("stride-zero_size", clone({0, 1 << 20, 1 << 20}, {}, 0, 64));
  out->emplace_back("stride-rank16", clone(std::vector<int32_t>(16, 4), {}, 0, 1 << 30));
  out->emplace_back("stride-bytes_2_65", clone({INT32_MAX, INT32_MAX, 2}, {}, 0, int64_t(1) << 40));
  ProgramDesc p = clone({2}, {}, 0, 16);
  p.methods[0].values[0].tensor.mem_offset = UINT64_MAX - 4;
  out->emplace_back("stride-offset_wrap", p);
}

// Class 2/3: moves that change a value's type, read back in every way.
void moves(std::vector<std::pair<std::string, ProgramDesc>>* out) {
  for (int target = 0; target < 4; ++target) {
    MethodDesc m;
    int32_t t = m.add_value(ValueDesc::Tensor(tensor(Dtype::Float, {2}, 1, 0)));
    int32_t n = m.add_value(ValueDesc::Int(3));
    int32_t t2 = m.add_value(ValueDesc::Tensor(tensor(Dtype::Float, {2}, 1, 16)));
    int32_t ints = m.add_value(ValueDesc::IntList({n}));
    int32_t tensors = m.add_value(ValueDesc::TensorList({t2}));
    int32_t opt = m.add_value(ValueDesc::OptionalTensorList({t2, -1}));
    m.non_const_buffer_sizes = {0, 32};
    const char* name = "";
    switch (target) {
      case 0:
        name = "move-tensor_into_int_input";
        m.inputs = {n};
        m.outputs = {n};
        m.chains[0] = {InstructionDesc::Move(t, n)};
        break;
      case 1:
        name = "move-tensor_into_intlist_item";
        m.outputs = {ints};
        m.chains[0] = {InstructionDesc::Move(t, n)};
        break;
      case 2:
        name = "move-int_into_tensorlist_item";
        m.outputs = {tensors};
        m.chains[0] = {InstructionDesc::Move(n, t2)};
        break;
      default:
        name = "move-list_into_optional_item";
        m.outputs = {opt};
        m.chains[0] = {InstructionDesc::Move(ints, t2)};
        break;
    }
    out->emplace_back(name, one(m));
  }
  // Allowed (same type), but the input slot then holds a constant: setting
  // the input again must not write into the file's bytes.
  ProgramDesc p;
  p.add_constant_segment({bytes_of(std::vector<float>{3, 4})});
  MethodDesc m;
  int32_t x = m.add_value(ValueDesc::Tensor(tensor(Dtype::Float, {2}, 1, 0)));
  TensorDesc c = tensor(Dtype::Float, {2});
  c.data_buffer_idx = 1;
  int32_t cv = m.add_value(ValueDesc::Tensor(c));
  m.non_const_buffer_sizes = {0, 16};
  m.inputs = {x};
  m.outputs = {x, cv};
  m.chains[0] = {InstructionDesc::Move(cv, x)};
  p.methods = {m};
  out->emplace_back("move-constant_into_input", p);
}

// A kernel writing into a constant (read-only mapped file pages).
void constants(std::vector<std::pair<std::string, ProgramDesc>>* out) {
  ProgramDesc p;
  p.add_constant_segment({bytes_of(std::vector<float>{3, 4})});
  MethodDesc m;
  int32_t x = m.add_value(ValueDesc::Tensor(tensor(Dtype::Float, {2}, 1, 0)));
  TensorDesc c = tensor(Dtype::Float, {2});
  c.data_buffer_idx = 1;
  int32_t cv = m.add_value(ValueDesc::Tensor(c));
  int32_t alpha = m.add_value(ValueDesc::Int(1));
  m.non_const_buffer_sizes = {0, 16};
  m.inputs = {x};
  m.outputs = {cv};
  m.add_operator("aten::add", "out");
  m.chains[0] = {InstructionDesc::Kernel(0, {x, x, alpha, cv, cv})};
  p.methods = {m};
  out->emplace_back("constant-kernel_writes_constant", p);
}

// Class 4: memory chosen by the file.
void memory(std::vector<std::pair<std::string, ProgramDesc>>* out) {
  MethodDesc big;
  big.outputs = {big.add_value(ValueDesc::Tensor(tensor(Dtype::Byte, {2, 1 << 30}, 1)))};
  big.non_const_buffer_sizes = {0, int64_t(2) << 30};
  out->emplace_back("memory-planned_2GiB_untouched", one(big));

  MethodDesc many;
  many.non_const_buffer_sizes.assign(4097, int64_t(64) << 20);
  out->emplace_back("memory-4096_buffers_of_64MiB", one(many));

  MethodDesc tb;
  tb.outputs = {tb.add_value(ValueDesc::Tensor(tensor(Dtype::Byte, {1 << 20, 1 << 20}, 1)))};
  tb.non_const_buffer_sizes = {0, int64_t(1) << 40};
  out->emplace_back("memory-planned_1TiB", one(tb));

  MethodDesc in;
  in.inputs = {in.add_value(ValueDesc::Tensor(tensor(Dtype::Float, {1 << 30})))};
  in.outputs = in.inputs;
  out->emplace_back("memory-input_4GiB", one(in));

  MethodDesc shared;
  int32_t v = shared.add_value(ValueDesc::Tensor(tensor(Dtype::Float, {4})));
  shared.inputs.assign(1 << 20, v);
  shared.outputs = {v};
  out->emplace_back("memory-1M_inputs_one_tensor", one(shared));
}

// Class 5: time chosen by the file.
void time_bombs(std::vector<std::pair<std::string, ProgramDesc>>* out) {
  MethodDesc loop;
  const int32_t n = 1 << 18; // 1 MiB of floats
  int32_t x = loop.add_value(ValueDesc::Tensor(tensor(Dtype::Float, {n}, 1, 0)));
  int32_t alpha = loop.add_value(ValueDesc::Int(1));
  int32_t y = loop.add_value(ValueDesc::Tensor(tensor(Dtype::Float, {n}, 1, 4 * n)));
  int32_t no = loop.add_value(ValueDesc::Bool(false));
  loop.non_const_buffer_sizes = {0, 8 * n};
  loop.outputs = {y};
  loop.add_operator("aten::add", "out");
  loop.chains[0] = {InstructionDesc::Kernel(0, {x, x, alpha, y, y}),
                    InstructionDesc::JumpFalse(no, 0)};
  out->emplace_back("time-jump_loop_1MiB_add", one(loop));

  MethodDesc spin;
  spin.chains[0] = {InstructionDesc::JumpFalse(spin.add_value(ValueDesc::Bool(false)), 0)};
  out->emplace_back("time-jump_loop_empty", one(spin));

  MethodDesc wide;
  wide.outputs = {wide.add_value(ValueDesc::Tensor(tensor(Dtype::Byte, {1 << 15, 1 << 15}, 1)))};
  wide.non_const_buffer_sizes = {0, int64_t(1) << 30};
  out->emplace_back("time-print_2_30_elements", one(wide));
}

// Class 6: undefined behaviour from file bytes.
void ub(std::vector<std::pair<std::string, ProgramDesc>>* out) {
  ProgramDesc p;
  p.add_constant_segment({{0x40, 0x00, 0xff, 0x02}});
  MethodDesc m;
  TensorDesc flags = tensor(Dtype::Bool, {4});
  flags.data_buffer_idx = 1;
  int32_t cond = m.add_value(ValueDesc::Tensor(flags));
  int32_t no = m.add_value(ValueDesc::Bool(false));
  int32_t none = m.add_value(ValueDesc::Null());
  int32_t f = m.add_value(ValueDesc::Tensor(tensor(Dtype::Float, {4}, 1, 0)));
  m.non_const_buffer_sizes = {0, 16};
  m.outputs = {cond, f};
  m.add_operator("aten::_to_copy", "out");
  m.chains[0] = {InstructionDesc::JumpFalse(cond, 1),
                 InstructionDesc::Kernel(0, {cond, no, none, f, f})};
  p.methods = {m};
  out->emplace_back("ub-bool_bytes", p);
}

// Files that need more than a ProgramDesc: edited headers, a .ptd.
bool raw_bombs(const std::string& dir) {
  ProgramDesc p;
  p.methods = {MethodDesc{}};
  Bytes header = serialize(p);
  const uint32_t length = 0xffffffffu;
  std::memcpy(header.data() + 12, &length, 4);
  bool ok = write_file(dir + "/header-eh00_length_wrap.pte", header);

  // 20k external tensors looked up in a .ptd: linearithmic, not quadratic.
  const int kTensors = 20000;
  MethodDesc m;
  std::vector<NamedTensorDesc> named;
  for (int i = 0; i < kTensors; ++i) {
    const std::string key = "w." + std::to_string((i * 7919) % kTensors);
    TensorDesc ext = tensor(Dtype::Float, {1});
    ext.has_extra_info = true;
    ext.external = true;
    ext.fqn = key;
    m.add_value(ValueDesc::Tensor(ext));
    named.push_back({key, int8_t(Dtype::Float), {1}, {}, bytes_of(std::vector<float>{1})});
  }
  ok = ok && write_file(dir + "/time-20k_external_tensors.pte", serialize(one(m))) &&
       write_file(dir + "/time-20k_external_tensors.ptd", serialize_flat_tensor(named));
  return ok;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<std::pair<std::string, ProgramDesc>> bombs;
  for (const auto& add :
       std::vector<std::function<void(std::vector<std::pair<std::string, ProgramDesc>>*)>>{
           strides, moves, constants, memory, time_bombs, ub}) {
    add(&bombs);
  }
  bool ok = raw_bombs(dir);
  for (const auto& b : bombs) {
    ok = ok && write_file(dir + "/" + b.first + ".pte", serialize(b.second));
  }
  std::printf("%zu\n", bombs.size() + 2);
  return ok ? 0 : 1;
}
