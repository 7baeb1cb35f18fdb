// pytree's FunctionRef: the non-owning callable reference traverse() takes.
// Upstream keeps a second copy of the class for pytree; here it is the
// runtime's FunctionRef under pytree's name, so the two are one type.
#pragma once

#include <executorch/runtime/core/function_ref.h>

namespace executorch {
namespace extension {
namespace pytree {

template <typename Fn>
using FunctionRef = ::executorch::runtime::FunctionRef<Fn>;

} // namespace pytree
} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace pytree {
using ::executorch::extension::pytree::FunctionRef;
} // namespace pytree
} // namespace executor
} // namespace torch
