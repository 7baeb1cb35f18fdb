// The command line of executorch-run (parsed in main.cpp) and its three
// commands: run a method (cmd_run.cpp), describe a program (cmd_info.cpp),
// list the backends (cmd_backends.cpp). Each returns the exit status or
// throws a Failure (errors.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace et_run {

struct Options {
  std::string model;
  std::vector<std::string> ptd;
  std::string method;
  std::vector<std::string> inputs;
  int iterations = 1;
  bool json = false;
  bool all_values = false;
  bool info = false;
  bool backends = false;
  bool verbose = false;
  bool no_plugins = false;
  bool refuse_native_code = false;
  std::vector<std::string> backend_options;
  size_t memory_limit = 0; // set by main(): --memory-limit or the default
  uint32_t threads = 0;    // set by main(): --threads; 0 keeps the pool's default size
};

int cmd_run(const Options& o);
int cmd_info(const Options& o);
int cmd_backends(const Options& o);

} // namespace et_run
