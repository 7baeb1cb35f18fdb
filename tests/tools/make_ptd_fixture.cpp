// Writes a program whose weights live outside it, for the --ptd tests:
//   DIR/external.pte  forward(x: float32[2,2]) = x + w + b
//   DIR/w.ptd         "w" = [1, 2, 3, 4]
//   DIR/b.ptd         "b" = [10, 20, 30, 40]
// Ones in, with both files, give [12, 23, 34, 45]. Also, for other cases:
//   DIR/delegate.pte  forward(x) runs one delegate for "NoSuchBackend"
//   DIR/cuda_delegate.pte  the same for "CudaBackend" (native code)
//   DIR/scalar.pte    forward(x: float32[2], n: Int = 2) = x + n * x
//   DIR/big.pte       forward(x: float32[100]) = x + x
//   DIR/huge.pte      forward() returns a 1 GiB planned uint8 tensor nothing
//                     writes; big_input(x: float32[2^28], not planned) = x
//   DIR/huge8g.pte    forward() the same with 8 GiB
//   DIR/unplanned.pte nothing planned: dataless(x: float32[2^28]) adds x to
//                     itself into a tensor nothing gives data (cannot run);
//                     add(x: float32[4]) = x + x into an unplanned output;
//                     big_add(x: float32[2^28]) the same at 1 GiB

#include <cstdio>
#include <string>
#include <vector>

#include "pte_writer.h"

using namespace ptewriter;

namespace {

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    std::perror(path.c_str());
    return false;
  }
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

TensorDesc float22() {
  TensorDesc t;
  t.sizes = {2, 2};
  t.dim_order = {0, 1};
  return t;
}

TensorDesc planned(uint64_t offset) {
  TensorDesc t = float22();
  t.mem_id = 1;
  t.mem_offset = offset;
  return t;
}

TensorDesc external(const char* key) {
  TensorDesc t = float22();
  t.has_extra_info = true;
  t.external = true;
  t.fqn = key;
  return t;
}

NamedTensorDesc named(const char* key, std::vector<float> v) {
  NamedTensorDesc t;
  t.key = key;
  t.sizes = {2, 2};
  t.data = bytes_of(v);
  return t;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  ProgramDesc p;
  MethodDesc m;
  const int32_t x = m.add_value(ValueDesc::Tensor(planned(0)));
  const int32_t w = m.add_value(ValueDesc::Tensor(external("w")));
  const int32_t b = m.add_value(ValueDesc::Tensor(external("b")));
  const int32_t tmp = m.add_value(ValueDesc::Tensor(planned(16)));
  const int32_t alpha = m.add_value(ValueDesc::Int(1));
  const int32_t out = m.add_value(ValueDesc::Tensor(planned(32)));
  const int32_t add = m.add_operator("aten::add", "out");
  m.chains = {{
      InstructionDesc::Kernel(add, {x, w, alpha, tmp, tmp}),
      InstructionDesc::Kernel(add, {tmp, b, alpha, out, out}),
  }};
  m.inputs = {x};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, 48};
  p.methods = {m};
  p.header_length = 0; // no segments: a plain FlatBuffer

  // A delegate nobody provides.
  ProgramDesc dp;
  {
    MethodDesc dm;
    const int32_t dx = dm.add_value(ValueDesc::Tensor(planned(0)));
    const int32_t dout = dm.add_value(ValueDesc::Tensor(planned(16)));
    DelegateDesc d;
    d.id = "NoSuchBackend";
    d.location = 0;
    d.index = 0;
    dm.delegates = {d};
    dm.chains = {{InstructionDesc::Delegate(0, {dx, dout})}};
    dm.inputs = {dx};
    dm.outputs = {dout};
    dm.non_const_buffer_sizes = {0, 32};
    dp.methods = {dm};
    dp.inline_delegate_data = {{1, 2, 3, 4}};
    dp.header_length = 0;
  }

  // The same delegate under the id of a native-code backend.
  ProgramDesc cp = dp;
  cp.methods[0].delegates[0].id = "CudaBackend";

  // A traced Int input used as add's alpha.
  ProgramDesc sp;
  {
    MethodDesc sm;
    TensorDesc t;
    t.sizes = {2};
    t.dim_order = {0};
    t.mem_id = 1;
    const int32_t sx = sm.add_value(ValueDesc::Tensor(t));
    const int32_t n = sm.add_value(ValueDesc::Int(2));
    t.mem_offset = 16;
    const int32_t sout = sm.add_value(ValueDesc::Tensor(t));
    const int32_t sadd = sm.add_operator("aten::add", "out");
    sm.chains = {{InstructionDesc::Kernel(sadd, {sx, sx, n, sout, sout})}};
    sm.inputs = {sx, n};
    sm.outputs = {sout};
    sm.non_const_buffer_sizes = {0, 32};
    sp.methods = {sm};
    sp.header_length = 0;
  }

  // A long output, for truncation.
  ProgramDesc bp;
  {
    MethodDesc bm;
    TensorDesc t;
    t.sizes = {100};
    t.dim_order = {0};
    t.mem_id = 1;
    const int32_t bx = bm.add_value(ValueDesc::Tensor(t));
    const int32_t one = bm.add_value(ValueDesc::Int(1));
    t.mem_offset = 400;
    const int32_t bout = bm.add_value(ValueDesc::Tensor(t));
    const int32_t badd = bm.add_operator("aten::add", "out");
    bm.chains = {{InstructionDesc::Kernel(badd, {bx, bx, one, bout, bout})}};
    bm.inputs = {bx};
    bm.outputs = {bout};
    bm.non_const_buffer_sizes = {0, 800};
    bp.methods = {bm};
    bp.header_length = 0;
  }

  // Huge but untouched memory, for the memory limit and the output printer.
  ProgramDesc hp;
  {
    MethodDesc hm;
    TensorDesc t;
    t.scalar_type = int8_t(Dtype::Byte);
    t.sizes = {32768, 32768};
    t.mem_id = 1;
    hm.outputs = {hm.add_value(ValueDesc::Tensor(t))};
    hm.non_const_buffer_sizes = {0, int64_t(1) << 30};
    MethodDesc im;
    im.name = "big_input";
    TensorDesc x;
    x.sizes = {int32_t(1) << 28};
    im.inputs = {im.add_value(ValueDesc::Tensor(x))};
    im.outputs = im.inputs;
    hp.methods = {hm, im};
  }

  // An 8 GiB planned buffer, over the tool's default limit (a file of its
  // own: a 32-bit host refuses it whole).
  ProgramDesc gp;
  {
    MethodDesc gm;
    TensorDesc t;
    t.scalar_type = int8_t(Dtype::Byte);
    t.sizes = {65536, 131072};
    t.mem_id = 1;
    gm.outputs = {gm.add_value(ValueDesc::Tensor(t))};
    gm.non_const_buffer_sizes = {0, int64_t(8) << 30};
    gp.methods = {gm};
  }

  // Unplanned tensors only: the caller (here, the tool) gives them data.
  ProgramDesc up;
  {
    // x + x into y; y is the output, or (dataless) an intermediate.
    auto unplanned_add = [](const char* name, int32_t n, bool y_is_output) {
      MethodDesc m;
      m.name = name;
      TensorDesc t;
      t.sizes = {n};
      const int32_t x = m.add_value(ValueDesc::Tensor(t));
      const int32_t alpha = m.add_value(ValueDesc::Int(1));
      const int32_t y = m.add_value(ValueDesc::Tensor(t));
      m.inputs = {x};
      m.outputs = {y_is_output ? y : x};
      const int32_t add = m.add_operator("aten::add", "out");
      m.chains = {{InstructionDesc::Kernel(add, {x, x, alpha, y, y})}};
      return m;
    };
    up.methods = {unplanned_add("dataless", int32_t(1) << 28, false), unplanned_add("add", 4, true),
                  unplanned_add("big_add", int32_t(1) << 28, true)};
  }

  const bool ok = write_file(dir + "/huge.pte", serialize(hp)) &&
                  write_file(dir + "/unplanned.pte", serialize(up)) &&
                  write_file(dir + "/huge8g.pte", serialize(gp)) &&
                  write_file(dir + "/delegate.pte", serialize(dp)) &&
                  write_file(dir + "/cuda_delegate.pte", serialize(cp)) &&
                  write_file(dir + "/scalar.pte", serialize(sp)) &&
                  write_file(dir + "/big.pte", serialize(bp)) &&
                  write_file(dir + "/external.pte", serialize(p)) &&
                  write_file(dir + "/w.ptd", serialize_flat_tensor({named("w", {1, 2, 3, 4})})) &&
                  write_file(dir + "/b.ptd", serialize_flat_tensor({named("b", {10, 20, 30, 40})}));
  return ok ? 0 : 1;
}
