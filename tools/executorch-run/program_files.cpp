#include "program_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <executorch/extension/data_loader/mmap_data_loader.h>

#include "errors.h"
#include "executorch_run_config.h"

namespace et_run {

using ::executorch::extension::FlatTensorDataMap;
using ::executorch::extension::MmapDataLoader;
using ::executorch::extension::merged_data_map::MergedDataMap;
using rt::Error;

std::string resolve_model(const std::string& model) {
  if (!model.empty()) {
    return model;
  }
  const char* env = std::getenv("EXECUTORCH_DEMO_PTE");
  std::string path = (env != nullptr && env[0] != '\0') ? env : EXECUTORCH_RUN_DEMO_PTE;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    fail(Error::AccessFailed, "no model given and the demo program '%s' is missing: %s",
         path.c_str(), std::strerror(errno));
  }
  note("running the demo program %s", path.c_str());
  return path;
}

std::unique_ptr<rt::DataLoader> open_file(const std::string& path, const char* what) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    fail(Error::AccessFailed, "cannot open %s '%s': %s", what, path.c_str(), std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) {
    fail(Error::AccessFailed, "cannot open %s '%s': is a directory", what, path.c_str());
  }
  clear_runtime_errors();
  auto loader = MmapDataLoader::from(path.c_str(), MmapDataLoader::MlockConfig::NoMlock);
  if (!loader.ok()) {
    fail_rt(loader.error(), "cannot open %s '%s'", what, path.c_str());
  }
  return std::make_unique<MmapDataLoader>(std::move(loader.get()));
}

rt::Program load_program(rt::DataLoader* loader, const std::string& path) {
  clear_runtime_errors();
  auto program = rt::Program::load(loader, rt::Program::Verification::InternalConsistency);
  if (!program.ok()) {
    fail_rt(program.error(), "cannot load program '%s'", path.c_str());
  }
  return std::move(program.get());
}

std::vector<std::string> method_names(const rt::Program& program) {
  std::vector<std::string> names;
  for (size_t i = 0; i < program.num_methods(); ++i) {
    auto n = program.get_method_name(i);
    if (n.ok()) {
      names.emplace_back(n.get());
    }
  }
  return names;
}

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    s += (i ? ", " : "") + names[i];
  }
  return s;
}

DataFiles::DataFiles(const std::vector<std::string>& paths) {
  std::vector<const rt::NamedDataMap*> maps;
  for (const auto& p : paths) {
    loaders_.push_back(open_file(p, "data file"));
    clear_runtime_errors();
    auto map = FlatTensorDataMap::load(loaders_.back().get());
    if (!map.ok()) {
      fail_rt(map.error(), "cannot load data file '%s'", p.c_str());
    }
    files_.push_back(std::make_unique<FlatTensorDataMap>(std::move(map.get())));
    maps.push_back(files_.back().get());
  }
  if (maps.size() == 1) {
    map_ = maps.front();
  } else if (maps.size() > 1) {
    clear_runtime_errors();
    auto merged = MergedDataMap::load({maps.data(), maps.size()});
    if (!merged.ok()) {
      fail_rt(merged.error(), "cannot use the data files together (%s)", join(paths).c_str());
    }
    merged_.emplace(std::move(merged.get()));
    map_ = &*merged_;
  }
}

} // namespace et_run
