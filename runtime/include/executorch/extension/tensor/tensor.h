// The tensor extension: TensorPtr, its makers, and TensorAccessor.
#pragma once

#include <executorch/extension/tensor/tensor_accessor.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/extension/tensor/tensor_ptr_maker.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
