// Writes a program whose weights live outside it, for the --ptd tests:
//   DIR/external.pte  forward(x: float32[2,2]) = x + w + b
//   DIR/w.ptd         "w" = [1, 2, 3, 4]
//   DIR/b.ptd         "b" = [10, 20, 30, 40]
// Ones in, with both files, give [12, 23, 34, 45].

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

}  // namespace

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
  p.header_length = 0;  // no segments: a plain FlatBuffer

  const bool ok =
      write_file(dir + "/external.pte", serialize(p)) &&
      write_file(dir + "/w.ptd", serialize_flat_tensor({named("w", {1, 2, 3, 4})})) &&
      write_file(dir + "/b.ptd", serialize_flat_tensor({named("b", {10, 20, 30, 40})}));
  return ok ? 0 : 1;
}
