// An application in the style of upstream's Module and TensorPtr tutorials:
// Module, method metadata, make_tensor_ptr/from_blob, forward, execute,
// set_input and get_output. Usage: module_tensor_app ADD.pte
#include <cstdio>
#include <string>
#include <vector>

#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>

using namespace ::executorch::extension;
using executorch::aten::ScalarType;
using executorch::runtime::Error;
using executorch::runtime::EValue;

namespace {

bool near(float a, float b) { return a - b < 1e-6f && b - a < 1e-6f; }

int fail(const char* what) {
  std::fprintf(stderr, "module_tensor_app: %s\n", what);
  return 1;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) return fail("usage: module_tensor_app ADD.pte");
  Module module(argv[1]);
  if (module.load() != Error::Ok) return fail("load failed");

  const auto method_names = module.method_names();
  if (!method_names.ok() || method_names->count("forward") != 1) return fail("no forward");
  const auto meta = module.method_meta("forward");
  if (!meta.ok() || meta->num_inputs() != 2) return fail("unexpected method meta");
  const auto input_meta = meta->input_tensor_meta(0);
  if (!input_meta.ok() || input_meta->scalar_type() != ScalarType::Float) {
    return fail("unexpected input meta");
  }

  // from_blob views caller data; make_tensor_ptr owns a copy.
  float a_data[1] = {3.5f};
  auto a = from_blob(a_data, {1});
  auto b = make_tensor_ptr({1}, {-1.25f});
  const auto result = module.forward({a, b});
  if (!result.ok()) return fail("forward failed");
  if (!near(result->at(0).toTensor().const_data_ptr<float>()[0], 2.25f)) {
    return fail("forward gave a wrong sum");
  }

  // Inputs set one at a time, then execute by name.
  // The Module keeps the EValues, which refer to the tensors: keep them alive.
  auto c = make_tensor_ptr(std::vector<float>{10.f});
  auto c_copy = clone_tensor_ptr(c);
  if (module.set_input(c, 0) != Error::Ok) return fail("set_input 0");
  if (module.set_input(EValue(c_copy), 1) != Error::Ok) return fail("set_input 1");
  const auto executed = module.execute("forward");
  if (!executed.ok() || !near(executed->at(0).toTensor().const_data_ptr<float>()[0], 20.f)) {
    return fail("execute gave a wrong sum");
  }
  const auto out = module.get_output();
  if (!out.ok() || !out->isTensor()) return fail("get_output");

  // Scalar-filled makers and a typed view.
  auto ones = ones_like(a);
  auto fives = full({1}, 5.f);
  const auto sum = module.forward({ones, fives});
  if (!sum.ok() || !near(sum->at(0).toTensor().const_data_ptr<float>()[0], 6.f)) {
    return fail("forward of ones + 5 failed");
  }
  std::printf("module_tensor_app: ok\n");
  return 0;
}
