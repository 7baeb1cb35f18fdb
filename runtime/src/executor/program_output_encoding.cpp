// Program::get_output_flattening_encoding: the pytree spec of a method's
// outputs, as the exporter wrote it.
#include <executorch/runtime/executor/program.h>

#include <cstring>

#include "executor/program_state.h"

namespace executorch {
namespace runtime {

Result<const char*> Program::get_output_flattening_encoding(const char* method_name) const {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Program used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(method_name != nullptr, InvalidArgument, "Null method name");
  const auto* plans = state_->fb->execution_plan();
  for (uint32_t i = 0; i < plans->size(); ++i) {
    const auto* plan = plans->Get(i);
    if (std::strcmp(plan->name()->c_str(), method_name) != 0) {
      continue;
    }
    const auto* meta = plan->container_meta_type();
    ET_CHECK_OR_RETURN_ERROR(meta != nullptr && meta->encoded_out_str() != nullptr, InvalidProgram,
                             "Method '%s' has no output flattening encoding", method_name);
    return meta->encoded_out_str()->c_str();
  }
  ET_LOG(Error, "No method named '%s' in the program", method_name);
  return Error::InvalidArgument;
}

} // namespace runtime
} // namespace executorch
