// Opening what executorch-run is given: the program (or the demo program)
// and the .ptd data files, merged into one named data map.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/extension/named_data_map/merged_data_map.h>
#include <executorch/runtime/core/data_loader.h>
#include <executorch/runtime/executor/program.h>

namespace et_run {

// The model path given, or the installed demo program ($EXECUTORCH_DEMO_PTE
// overrides it).
std::string resolve_model(const std::string& model);

// A memory-mapped loader for path; `what` names it in errors ("model").
std::unique_ptr<::executorch::runtime::DataLoader> open_file(const std::string& path,
                                                             const char* what);

// Loads and fully verifies a program.
::executorch::runtime::Program load_program(::executorch::runtime::DataLoader* loader,
                                            const std::string& path);

std::vector<std::string> method_names(const ::executorch::runtime::Program& program);
std::string join(const std::vector<std::string>& names);

// The .ptd files as one named data map (nullptr when there are none).
class DataFiles {
 public:
  explicit DataFiles(const std::vector<std::string>& paths);
  const ::executorch::runtime::NamedDataMap* map() const { return map_; }

 private:
  std::vector<std::unique_ptr<::executorch::runtime::DataLoader>> loaders_;
  std::vector<std::unique_ptr<::executorch::extension::FlatTensorDataMap>> files_;
  std::optional<::executorch::extension::merged_data_map::MergedDataMap> merged_;
  const ::executorch::runtime::NamedDataMap* map_ = nullptr;
};

} // namespace et_run
