// Writes the writer-built seed corpora: OUTDIR/fuzz_program/*.pte,
// OUTDIR/fuzz_flat_tensor/*.ptd, OUTDIR/fuzz_cuda_payload/*; then STAMP.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "untrusted_input/seed_programs.h"

namespace {

bool write(const std::string& path, const std::vector<uint8_t>& b) {
  std::ofstream o(path, std::ios::binary);
  o.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  return static_cast<bool>(o);
}

std::vector<uint8_t> text(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s OUTDIR STAMP\n", argv[0]);
    return 2;
  }
  const std::string out = argv[1];
  mkdir(out.c_str(), 0755);
  for (const char* h : {"fuzz_program", "fuzz_flat_tensor", "fuzz_cuda_payload"}) {
    mkdir((out + "/" + h).c_str(), 0755);
  }
  bool ok = true;
  for (const auto& p : et_fuzz::seed_programs()) {
    ok &= write(out + "/fuzz_program/" + p.first + ".pte", p.second);
  }
  ok &= write(out + "/fuzz_flat_tensor/sample.ptd", et_fuzz::sample_ptd());
  ok &= write(out + "/fuzz_flat_tensor/one.ptd",
              et_fuzz::flat_tensor_file({{"w", et_fuzz::floats({1.0f})}}));
  ok &= write(out + "/fuzz_flat_tensor/empty.ptd", et_fuzz::flat_tensor_file({}));
  // CUDA payloads: processed \0\xff specs \0\xff named key \0\xff blob.
  const std::string sep("\0\xff", 2);
  ok &= write(out + "/fuzz_cuda_payload/keys_1_4",
              text("abc_so_blob\nabc_weights_blob" + sep +
                   "method_name=forward\ntarget_device=cuda:0" + sep + "abc_so_blob" + sep +
                   "\x7f"
                   "ELF\x02\x01\x01"));
  ok &= write(out + "/fuzz_cuda_payload/legacy_1_1",
              text(sep + "method_name=forward" + sep + "forward_so_blob" + sep + "xx"));
  ok &= write(out + "/fuzz_cuda_payload/no_specs", text("so\nweights"));
  ok &= write(argv[2], text("ok\n"));
  return ok ? 0 : 1;
}
