#include "decoder_signature.h"

#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {
namespace llm {
namespace internal {

using ::executorch::aten::ScalarType;
using ::executorch::aten::TensorShapeDynamism;
using ::executorch::ET_RUNTIME_NAMESPACE::MethodMeta;
using ::executorch::runtime::Error;
using ::executorch::runtime::EValue;
using ::executorch::runtime::Result;
using ::executorch::runtime::Tag;
using ::executorch::runtime::TensorInfo;

namespace {

bool is_index_type(ScalarType t) { return t == ScalarType::Long || t == ScalarType::Int; }

bool is_logits_type(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Half || t == ScalarType::BFloat16 ||
         t == ScalarType::Double;
}

// Whether the loaded method's tokens input may take fewer tokens than its
// bound. The planned input tensor carries the dynamism the exporter wrote.
Result<bool> tokens_input_is_dynamic(Module& module, const std::string& method) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  auto loaded = module.method(method);
  if (!loaded.ok()) {
    return loaded.error();
  }
  const EValue& tokens = (*loaded)->get_input(0);
#pragma GCC diagnostic pop
  ET_CHECK_OR_RETURN_ERROR(tokens.isTensor(), NotSupported,
                           "Input 0 (tokens) of '%s' is not a tensor", method.c_str());
  return tokens.toTensor().shape_dynamism() != TensorShapeDynamism::STATIC;
}

Result<TensorInfo> index_input(const MethodMeta& meta, size_t i, const std::string& method,
                               const char* what) {
  auto tag = meta.input_tag(i);
  ET_CHECK_OK_OR_RETURN_ERROR(tag.error());
  ET_CHECK_OR_RETURN_ERROR(*tag == Tag::Tensor, NotSupported,
                           "Input %zu (%s) of '%s' is not a tensor", i, what, method.c_str());
  auto info = meta.input_tensor_meta(i);
  ET_CHECK_OK_OR_RETURN_ERROR(info.error());
  ET_CHECK_OR_RETURN_ERROR(is_index_type(info->scalar_type()), NotSupported,
                           "Input %zu (%s) of '%s' is %s; int64 or int32 expected", i, what,
                           method.c_str(), ::executorch::runtime::toString(info->scalar_type()));
  return info;
}

} // namespace

Result<MethodSignature> read_signature(Module& module, const std::string& method,
                                       int enable_dynamic_shape) {
  auto meta = module.method_meta(method);
  if (!meta.ok()) {
    ET_LOG(Error, "The program has no method '%s'", method.c_str());
    return meta.error();
  }
  ET_CHECK_OR_RETURN_ERROR(meta->num_inputs() == 2, NotSupported,
                           "Method '%s' takes %zu inputs; a decoder takes (tokens, input_pos)",
                           method.c_str(), meta->num_inputs());
  auto tokens = index_input(*meta, 0, method, "tokens");
  ET_CHECK_OK_OR_RETURN_ERROR(tokens.error());
  auto positions = index_input(*meta, 1, method, "input_pos");
  ET_CHECK_OK_OR_RETURN_ERROR(positions.error());
  const auto ts = tokens->sizes();
  const auto ps = positions->sizes();
  ET_CHECK_OR_RETURN_ERROR(ts.size() == 2 && ts[0] == 1 && ts[1] >= 1, NotSupported,
                           "Tokens input of '%s' has %zu dims; [1, T] expected", method.c_str(),
                           ts.size());
  ET_CHECK_OR_RETURN_ERROR(ps.size() == 1 && (ps[0] == 1 || ps[0] == ts[1]), NotSupported,
                           "input_pos of '%s' must be [1] or [T] (T = %d tokens)", method.c_str(),
                           int(ts[1]));
  MethodSignature sig;
  sig.name = method;
  sig.token_type = tokens->scalar_type();
  sig.position_type = positions->scalar_type();
  sig.max_tokens = ts[1];
  sig.positions_per_token = ps[0] == ts[1] && ts[1] > 1;
  if (sig.max_tokens > 1) {
    if (enable_dynamic_shape >= 0) {
      sig.dynamic_tokens = enable_dynamic_shape != 0;
    } else {
      auto dynamic = tokens_input_is_dynamic(module, method);
      ET_CHECK_OK_OR_RETURN_ERROR(dynamic.error());
      sig.dynamic_tokens = *dynamic;
    }
  }
  return sig;
}

Error read_logits(Module& module, const std::string& method, int64_t* vocab_size,
                  ScalarType* type) {
  auto meta = module.method_meta(method);
  ET_CHECK_OK_OR_RETURN_ERROR(meta.error());
  ET_CHECK_OR_RETURN_ERROR(meta->num_outputs() >= 1, NotSupported,
                           "Method '%s' returns nothing; logits expected", method.c_str());
  auto tag = meta->output_tag(0);
  ET_CHECK_OK_OR_RETURN_ERROR(tag.error());
  ET_CHECK_OR_RETURN_ERROR(*tag == Tag::Tensor, NotSupported,
                           "Output 0 of '%s' is not a tensor; logits expected", method.c_str());
  auto info = meta->output_tensor_meta(0);
  ET_CHECK_OK_OR_RETURN_ERROR(info.error());
  ET_CHECK_OR_RETURN_ERROR(is_logits_type(info->scalar_type()), NotSupported,
                           "Logits of '%s' are %s; a floating-point type expected", method.c_str(),
                           ::executorch::runtime::toString(info->scalar_type()));
  const auto sizes = info->sizes();
  ET_CHECK_OR_RETURN_ERROR(sizes.size() >= 1 && sizes.size() <= 3 && sizes[sizes.size() - 1] > 0,
                           NotSupported,
                           "Logits of '%s' have %zu dims; [1, T, V], [T, V] "
                           "or [1, V] expected",
                           method.c_str(), sizes.size());
  *vocab_size = sizes[sizes.size() - 1];
  *type = info->scalar_type();
  return Error::Ok;
}

Result<std::vector<int64_t>> read_int_metadata(Module& module, const std::string& method) {
  auto outputs = module.execute(method);
  if (!outputs.ok()) {
    ET_LOG(Error, "Cannot run the metadata method '%s'", method.c_str());
    return outputs.error();
  }
  std::vector<int64_t> values;
  for (const EValue& v : *outputs) {
    ET_CHECK_OR_RETURN_ERROR(v.isInt() || v.isBool(), NotSupported,
                             "Metadata method '%s' returns something other than integers",
                             method.c_str());
    values.push_back(v.isInt() ? v.toInt() : int64_t(v.toBool()));
  }
  return values;
}

Result<int64_t> read_int_metadata_or(Module& module, const std::unordered_set<std::string>& methods,
                                     std::initializer_list<const char*> names, int64_t fallback) {
  for (const char* name : names) {
    if (methods.count(name) == 0) {
      continue;
    }
    auto values = read_int_metadata(module, name);
    ET_CHECK_OK_OR_RETURN_ERROR(values.error());
    ET_CHECK_OR_RETURN_ERROR(values->size() == 1, NotSupported,
                             "Metadata method '%s' returns %zu values; one expected", name,
                             values->size());
    return (*values)[0];
  }
  return fallback;
}

} // namespace internal
} // namespace llm
} // namespace extension
} // namespace executorch
