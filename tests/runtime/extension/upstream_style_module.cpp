// Written the way the upstream Module tutorial does it: Module + from_blob /
// make_tensor_ptr + forward. Runs add.pte and checks 3.5 + -1.25 = 2.25,
// then the same through the torch::executor::Module spelling. Only public
// headers.
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
  if (!result.ok()) {
    std::cerr << "forward failed: 0x" << std::hex << (uint32_t)result.error() << std::endl;
    return 1;
  }
  // Retrieve the output data.
  const auto output = result->at(0).toTensor().const_data_ptr<float>();
  std::cout << "forward: 3.5 + -1.25 = " << output[0] << std::endl;
  if (output[0] != 2.25f) {
    return 1;
  }

  // The torch::executor spelling of the same Module, mmapped, gives the same.
  torch::executor::Module legacy(path, Module::LoadMode::Mmap);
  const auto again = legacy.forward({tensor, other});
  if (!again.ok() || !legacy.is_loaded()) {
    std::cerr << "torch::executor::Module failed" << std::endl;
    return 1;
  }
  const float legacy_out = again->at(0).toTensor().const_data_ptr<float>()[0];
  std::cout << "torch::executor::Module: " << legacy_out << std::endl;
  return legacy_out == 2.25f ? 0 : 1;
}
