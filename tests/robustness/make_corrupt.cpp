// Writes corrupted variants of the given .pte files (and of the writer-built
// seeds) into a directory, for the CLI robustness test.
// usage: make_corrupt OUTDIR MAX_FILES [input.pte...]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "untrusted_input/corrupt.h"
#include "untrusted_input/seed_programs.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUTDIR MAX_FILES [input.pte...]\n", argv[0]);
    return 2;
  }
  const std::string outdir = argv[1];
  const size_t max_files = std::strtoul(argv[2], nullptr, 10);
  std::vector<std::pair<std::string, std::vector<uint8_t>>> bases;
  for (int i = 3; i < argc; ++i) {
    std::ifstream f(argv[i], std::ios::binary);
    std::vector<uint8_t> b((std::istreambuf_iterator<char>(f)), {});
    if (!b.empty()) bases.emplace_back("in" + std::to_string(i - 3), b);
  }
  for (auto& p : et_fuzz::seed_programs()) bases.push_back(p);
  // Spread max_files over the bases, picking every k-th variant.
  size_t written = 0;
  const size_t per_base = max_files / bases.size() + 1;
  for (const auto& base : bases) {
    auto vs = et_fuzz::corruptions(base.second, 120, 7u, 60);
    const size_t stride = vs.size() / per_base + 1;
    for (size_t i = 0; i < vs.size() && written < max_files; i += stride) {
      std::ofstream o(outdir + "/" + base.first + "_" + vs[i].first + ".pte", std::ios::binary);
      o.write(reinterpret_cast<const char*>(vs[i].second.data()),
              static_cast<std::streamsize>(vs[i].second.size()));
      ++written;
    }
  }
  std::printf("%zu\n", written);
  return 0;
}
