// A model .so's aoti_torch_* imports bind to this backend's shim even when a
// library exporting the same names (libtorch's C shim; here a decoy linked
// into this test ahead of the backend) is in the global scope first, and
// the rewrite that makes it so refuses malformed files without touching
// them. No GPU needed: the calls are the shim's dtype constants.
#include "aoti/private_shim.h"
#include "aoti/shim.h"

#include <dlfcn.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

// In the decoy: calling it keeps the decoy NEEDED, so in the global scope.
extern "C" int decoy_libtorch_marker();

namespace {

using executorch::backends::cuda::aoti::bind_shim_privately;
using executorch::backends::cuda::aoti::model_facing_name;
using Bytes = std::vector<unsigned char>;

Bytes fake_model_bytes() {
  const char* path = std::getenv("FAKE_AOTI_MODEL");
  EXPECT_NE(path, nullptr) << "FAKE_AOTI_MODEL names the fake model .so";
  if (path == nullptr) return {};
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// dlopens `so` from an anonymous file, as the backend does. The descriptor
// stays open so that no later file gets the same /proc path.
void* open_bytes(const Bytes& so) {
  const int fd = memfd_create("private_shim_test", MFD_CLOEXEC);
  if (fd < 0 || write(fd, so.data(), so.size()) != static_cast<ssize_t>(so.size())) return nullptr;
  char path[64];
  std::snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

int32_t call(void* dl, const char* name) {
  auto* f = reinterpret_cast<int32_t (*)()>(dlsym(dl, name));
  EXPECT_NE(f, nullptr) << name << ": " << dlerror();
  return f != nullptr ? f() : -1;
}

template <typename T>
T read_at(const Bytes& b, size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

template <typename T>
void write_at(Bytes& b, size_t off, const T& v) {
  std::memcpy(b.data() + off, &v, sizeof(T));
}

size_t section_header_offset(const Bytes& b, size_t index) {
  return read_at<Elf64_Ehdr>(b, 0).e_shoff + index * sizeof(Elf64_Shdr);
}

// Index of the first section of `type`.
size_t section_index(const Bytes& b, uint32_t type) {
  const auto eh = read_at<Elf64_Ehdr>(b, 0);
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    if (read_at<Elf64_Shdr>(b, section_header_offset(b, i)).sh_type == type) return i;
  }
  ADD_FAILURE() << "no section of type " << type;
  return 0;
}

// Expects bind_shim_privately to refuse `so`, naming `reason`, unchanged.
void expect_refused(Bytes so, const std::string& reason) {
  const Bytes before = so;
  size_t renamed = 0;
  std::string why;
  EXPECT_FALSE(bind_shim_privately(so.data(), so.size(), &renamed, &why));
  EXPECT_NE(why.find(reason), std::string::npos) << why;
  EXPECT_EQ(so, before);
}

TEST(PrivateShim, LibtorchFirstInTheGlobalScopeWouldServeAnUnboundModel) {
  ASSERT_EQ(decoy_libtorch_marker(), 1);
  ASSERT_NE(dlsym(RTLD_DEFAULT, "aoti_torch_dtype_float32"), nullptr)
      << "the decoy must be in the global scope for this test to mean anything";
  void* dl = open_bytes(fake_model_bytes());
  ASSERT_NE(dl, nullptr) << dlerror();
  EXPECT_EQ(call(dl, "fake_model_float32_code"), 991);
}

TEST(PrivateShim, BoundModelCallsThisBackend) {
  Bytes so = fake_model_bytes();
  size_t renamed = 0;
  std::string why;
  ASSERT_TRUE(bind_shim_privately(so.data(), so.size(), &renamed, &why)) << why;
  EXPECT_EQ(renamed, 2u);
  void* dl = open_bytes(so);
  ASSERT_NE(dl, nullptr) << dlerror();
  EXPECT_EQ(call(dl, "fake_model_float32_code"), aoti_torch_dtype_float32());
  EXPECT_EQ(call(dl, "fake_model_bfloat16_code"), aoti_torch_dtype_bfloat16());
  EXPECT_NE(aoti_torch_dtype_float32(), 991);
}

TEST(PrivateShim, BindingTwiceRenamesNothingMore) {
  Bytes so = fake_model_bytes();
  size_t renamed = 0;
  std::string why;
  ASSERT_TRUE(bind_shim_privately(so.data(), so.size(), &renamed, &why)) << why;
  const Bytes once = so;
  ASSERT_TRUE(bind_shim_privately(so.data(), so.size(), &renamed, &why)) << why;
  EXPECT_EQ(renamed, 0u);
  EXPECT_EQ(so, once);
}

TEST(PrivateShim, RefusesWhatIsNotElf64LittleEndian) {
  Bytes so = fake_model_bytes();
  ASSERT_GT(so.size(), 64u);
  expect_refused(Bytes(so.begin(), so.begin() + 16), "not an ELF file");
  Bytes text(so.size(), 'x');
  expect_refused(text, "not an ELF file");
  Bytes elf32 = so;
  elf32[EI_CLASS] = ELFCLASS32;
  expect_refused(elf32, "64-bit little-endian");
  Bytes big = so;
  big[EI_DATA] = ELFDATA2MSB;
  expect_refused(big, "64-bit little-endian");
}

TEST(PrivateShim, RefusesTablesOutsideTheFile) {
  const Bytes so = fake_model_bytes();
  ASSERT_GT(so.size(), 64u);
  Bytes far = so;
  auto eh = read_at<Elf64_Ehdr>(far, 0);
  eh.e_shoff = UINT64_MAX - 8;
  write_at(far, 0, eh);
  expect_refused(far, "section headers lie outside");

  Bytes symbols = so;
  const size_t at = section_header_offset(symbols, section_index(symbols, SHT_DYNSYM));
  auto sh = read_at<Elf64_Shdr>(symbols, at);
  sh.sh_offset = symbols.size() - sizeof(Elf64_Sym);
  write_at(symbols, at, sh);
  expect_refused(symbols, "outside the file");

  Bytes link = so;
  sh = read_at<Elf64_Shdr>(link, at);
  sh.sh_link = 0xffff;
  write_at(link, at, sh);
  expect_refused(link, "malformed dynamic symbol table");
}

TEST(PrivateShim, RefusesAnUnterminatedOrOutOfRangeName) {
  Bytes so = fake_model_bytes();
  ASSERT_GT(so.size(), 64u);
  const auto symtab =
      read_at<Elf64_Shdr>(so, section_header_offset(so, section_index(so, SHT_DYNSYM)));
  const auto strtab = read_at<Elf64_Shdr>(so, section_header_offset(so, symtab.sh_link));
  auto sym = read_at<Elf64_Sym>(so, symtab.sh_offset + sizeof(Elf64_Sym));
  sym.st_name = static_cast<uint32_t>(strtab.sh_size);
  Bytes past = so;
  write_at(past, symtab.sh_offset + sizeof(Elf64_Sym), sym);
  expect_refused(past, "no terminated name");

  Bytes unterminated = so;
  unterminated[strtab.sh_offset + strtab.sh_size - 1] = 'x';
  sym = read_at<Elf64_Sym>(so, symtab.sh_offset + sizeof(Elf64_Sym));
  sym.st_name = static_cast<uint32_t>(strtab.sh_size - 1);
  write_at(unterminated, symtab.sh_offset + sizeof(Elf64_Sym), sym);
  expect_refused(unterminated, "no terminated name");
}

// Another name stored inside the bytes the rewrite would change (what a
// linker's string tail merging does): the file is refused, not corrupted.
TEST(PrivateShim, RefusesANameSharingTheRewrittenBytes) {
  Bytes so = fake_model_bytes();
  ASSERT_GT(so.size(), 64u);
  const auto symtab =
      read_at<Elf64_Shdr>(so, section_header_offset(so, section_index(so, SHT_DYNSYM)));
  const size_t count = symtab.sh_size / sizeof(Elf64_Sym);
  const auto strtab = read_at<Elf64_Shdr>(so, section_header_offset(so, symtab.sh_link));
  size_t shim = 0, other = 0;
  for (size_t i = 1; i < count; ++i) {
    const auto sym = read_at<Elf64_Sym>(so, symtab.sh_offset + i * sizeof(Elf64_Sym));
    const char* name = reinterpret_cast<const char*>(so.data() + strtab.sh_offset + sym.st_name);
    if (std::strncmp(name, "aoti_torch_", 11) == 0) shim = i;
    if (std::strcmp(name, "fake_model_float32_code") == 0) other = i;
  }
  ASSERT_NE(shim, 0u);
  ASSERT_NE(other, 0u);
  const auto target = read_at<Elf64_Sym>(so, symtab.sh_offset + shim * sizeof(Elf64_Sym));
  auto sym = read_at<Elf64_Sym>(so, symtab.sh_offset + other * sizeof(Elf64_Sym));
  sym.st_name = target.st_name + 5; // "torch_..."
  write_at(so, symtab.sh_offset + other * sizeof(Elf64_Sym), sym);
  expect_refused(so, "shares its bytes");
}

// Every prefix of the file: an Error or success, never a read past its end
// (the sanitizer builds check the "never").
TEST(PrivateShim, EveryTruncationIsHandled) {
  const Bytes so = fake_model_bytes();
  ASSERT_GT(so.size(), 64u);
  for (size_t n = 0; n < so.size(); n += (n < 4096 ? 1 : 61)) {
    Bytes cut(so.begin(), so.begin() + static_cast<std::ptrdiff_t>(n));
    size_t renamed = 0;
    std::string why;
    if (!bind_shim_privately(cut.data(), cut.size(), &renamed, &why)) {
      EXPECT_FALSE(why.empty());
    }
  }
}

TEST(PrivateShim, ModelFacingName) {
  EXPECT_EQ(model_facing_name("aoti_et_sh_cuda_mm_out"), "aoti_torch_cuda_mm_out");
  EXPECT_EQ(model_facing_name("aoti_torch_cuda_mm_out"), "aoti_torch_cuda_mm_out");
  EXPECT_EQ(model_facing_name("cudaLaunchKernelExC"), "cudaLaunchKernelExC");
  EXPECT_EQ(model_facing_name(""), "");
}

} // namespace
