#include "aoti/private_shim.h"

#include <elf.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {
namespace {

constexpr size_t kPrefixLength = sizeof(kModelShimPrefix) - 1;

// Bytes [offset, offset + size) of the file.
struct Range {
  uint64_t offset = 0;
  uint64_t size = 0;
};

bool fits(const Range& r, size_t file_size) {
  return r.offset <= file_size && r.size <= file_size - r.offset;
}

template <typename T>
T read_at(const unsigned char* so, uint64_t offset) {
  T value;
  std::memcpy(&value, so + offset, sizeof(T));
  return value;
}

// The tables the rewrite reads: the dynamic symbols, their names and the
// dynamic section (whose library and path entries name strings too).
struct DynamicTables {
  Range symbols;
  Range strings;
  Range dynamic;
};

bool read_section_headers(const unsigned char* so, size_t size, std::vector<Elf64_Shdr>* out,
                          std::string* why) {
  if (size < sizeof(Elf64_Ehdr) || std::memcmp(so, ELFMAG, SELFMAG) != 0) {
    *why = "not an ELF file";
    return false;
  }
  const auto eh = read_at<Elf64_Ehdr>(so, 0);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    *why = "not a 64-bit little-endian ELF file";
    return false;
  }
  if (eh.e_shnum == 0 || eh.e_shentsize != sizeof(Elf64_Shdr)) {
    *why = "no section headers of the ELF64 size";
    return false;
  }
  const Range headers{eh.e_shoff, uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr)};
  if (!fits(headers, size)) {
    *why = "section headers lie outside the file";
    return false;
  }
  out->resize(eh.e_shnum);
  for (size_t i = 0; i < out->size(); ++i) {
    (*out)[i] = read_at<Elf64_Shdr>(so, headers.offset + i * sizeof(Elf64_Shdr));
  }
  return true;
}

bool find_tables(const unsigned char* so, size_t size, DynamicTables* t, std::string* why) {
  std::vector<Elf64_Shdr> sections;
  if (!read_section_headers(so, size, &sections, why)) return false;
  const Elf64_Shdr* symbols = nullptr;
  const Elf64_Shdr* dynamic = nullptr;
  for (const Elf64_Shdr& s : sections) {
    if (s.sh_type == SHT_DYNSYM && symbols == nullptr) symbols = &s;
    if (s.sh_type == SHT_DYNAMIC && dynamic == nullptr) dynamic = &s;
  }
  if (symbols == nullptr) {
    *why = "no dynamic symbol table";
    return false;
  }
  if (symbols->sh_entsize != sizeof(Elf64_Sym) || symbols->sh_size % sizeof(Elf64_Sym) != 0 ||
      symbols->sh_link >= sections.size() || sections[symbols->sh_link].sh_type != SHT_STRTAB) {
    *why = "malformed dynamic symbol table";
    return false;
  }
  const Elf64_Shdr& strings = sections[symbols->sh_link];
  t->symbols = {symbols->sh_offset, symbols->sh_size};
  t->strings = {strings.sh_offset, strings.sh_size};
  if (dynamic != nullptr) {
    if (dynamic->sh_entsize != sizeof(Elf64_Dyn) || dynamic->sh_link != symbols->sh_link) {
      *why = "malformed dynamic section";
      return false;
    }
    t->dynamic = {dynamic->sh_offset, dynamic->sh_size - dynamic->sh_size % sizeof(Elf64_Dyn)};
  }
  if (!fits(t->symbols, size) || !fits(t->strings, size) || !fits(t->dynamic, size)) {
    *why = "a dynamic table lies outside the file";
    return false;
  }
  return true;
}

// The name at `offset` of the string table, or nullptr when it does not
// start and end (NUL) inside it.
const char* name_at(const unsigned char* so, const Range& strings, uint64_t offset) {
  if (offset >= strings.size) return nullptr;
  const auto* start = reinterpret_cast<const char*>(so + strings.offset + offset);
  const size_t left = static_cast<size_t>(strings.size - offset);
  return std::memchr(start, '\0', left) != nullptr ? start : nullptr;
}

bool is_string_tag(int64_t tag) {
  return tag == DT_NEEDED || tag == DT_SONAME || tag == DT_RPATH || tag == DT_RUNPATH ||
         tag == DT_AUXILIARY || tag == DT_FILTER;
}

// Sorts the names to rewrite (`targets`) from every other string the tables
// use (`others`), by string table offset.
bool classify_names(const unsigned char* so, const DynamicTables& t, std::vector<uint64_t>* targets,
                    std::vector<uint64_t>* others, std::string* why) {
  const uint64_t count = t.symbols.size / sizeof(Elf64_Sym);
  for (uint64_t i = 1; i < count; ++i) {
    const auto sym = read_at<Elf64_Sym>(so, t.symbols.offset + i * sizeof(Elf64_Sym));
    if (sym.st_name == 0) continue;
    const char* name = name_at(so, t.strings, sym.st_name);
    if (name == nullptr) {
      *why = "dynamic symbol " + std::to_string(i) + " has no terminated name";
      return false;
    }
    const unsigned bind = ELF64_ST_BIND(sym.st_info);
    const bool imported = sym.st_shndx == SHN_UNDEF && (bind == STB_GLOBAL || bind == STB_WEAK);
    if (imported && std::strncmp(name, kModelShimPrefix, kPrefixLength) == 0) {
      targets->push_back(sym.st_name);
    } else {
      others->push_back(sym.st_name);
    }
  }
  for (uint64_t off = 0; off < t.dynamic.size; off += sizeof(Elf64_Dyn)) {
    const auto dyn = read_at<Elf64_Dyn>(so, t.dynamic.offset + off);
    if (dyn.d_tag == DT_NULL) break;
    if (is_string_tag(dyn.d_tag)) others->push_back(dyn.d_un.d_val);
  }
  return true;
}

// True when another string starts within the bytes a target's prefix takes
// (the linker may store a name as the tail of a longer one).
bool shares_bytes(const std::vector<uint64_t>& targets, std::vector<uint64_t> others) {
  std::sort(others.begin(), others.end());
  for (uint64_t t : targets) {
    auto it = std::lower_bound(others.begin(), others.end(), t);
    if (it != others.end() && *it < t + kPrefixLength) return true;
  }
  return false;
}

} // namespace

bool bind_shim_privately(unsigned char* so, size_t size, size_t* renamed, std::string* why) {
  DynamicTables tables;
  if (so == nullptr || !find_tables(so, size, &tables, why)) {
    if (so == nullptr) *why = "no file";
    return false;
  }
  std::vector<uint64_t> targets, others;
  if (!classify_names(so, tables, &targets, &others, why)) return false;
  if (shares_bytes(targets, others)) {
    *why = "an aoti_torch_* name shares its bytes with another name";
    return false;
  }
  for (uint64_t t : targets) {
    std::memcpy(so + tables.strings.offset + t, kPrivateShimPrefix, kPrefixLength);
  }
  *renamed = targets.size();
  return true;
}

std::string model_facing_name(const std::string& symbol) {
  if (symbol.compare(0, kPrefixLength, kPrivateShimPrefix) != 0) return symbol;
  return kModelShimPrefix + symbol.substr(kPrefixLength);
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
