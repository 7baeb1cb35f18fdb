// Written the way the upstream Module tutorial does it: Module + from_blob /
// make_tensor_ptr + forward. Runs add.pte and checks 3.5 + -1.25 = 2.25.
// Only public headers.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

using namespace ::executorch::extension;

int main(int argc, char** argv) {
  std::string path;
  if (argc > 1) {
    path = argv[1];
  } else {
    const char* dir = std::getenv("ET_CONFORMANCE_DIR");
    path = std::string(dir ? dir : ET_CONFORMANCE_DIR_DEFAULT) + "/add.pte";
  }

  // Create a Module.
  Module module(path);

  // Wrap the input data with a Tensor.
  float input[1] = {3.5f};
  auto tensor = from_blob(input, {1});
  auto other = make_tensor_ptr({1}, {-1.25f});

  // Perform an inference.
  const auto result = module.forward({tensor, other});

  // Check for success or failure.
  if (result.ok()) {
    // Retrieve the output data.
    const auto output = result->at(0).toTensor().const_data_ptr<float>();
    std::cout << "forward: 3.5 + -1.25 = " << output[0] << std::endl;
    return output[0] == 2.25f ? 0 : 1;
  }
  std::cerr << "forward failed: 0x" << std::hex << (uint32_t)result.error() << std::endl;

  // The torch::executor spelling of the same Module must work as well.
  torch::executor::Module legacy(path, Module::LoadMode::Mmap);
  (void)legacy.is_loaded();
  return 1;
}
