// --backend-option BACKEND:KEY=VALUE for executorch-run: parsed into the
// runtime's LoadBackendOptionsMap (the options a delegate's init() sees as
// runtime specs). VALUE "true"/"false" is a bool, a decimal integer an int,
// anything else a string.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <executorch/runtime/backend/backend_options_map.h>
#include <executorch/runtime/backend/options.h>

class BackendOptionArgs {
 public:
  // Adds one "BACKEND:KEY=VALUE"; on a malformed argument returns false and
  // sets *why.
  bool add(const std::string& arg, std::string* why);
  // The map for Program::load_method, or nullptr when no option was given.
  // Valid while this object lives and no add() follows.
  const executorch::runtime::LoadBackendOptionsMap* map();

 private:
  struct PerBackend {
    std::string name;
    std::vector<executorch::runtime::BackendOption> options;
  };
  std::vector<PerBackend> backends_;
  executorch::runtime::LoadBackendOptionsMap map_;
};
