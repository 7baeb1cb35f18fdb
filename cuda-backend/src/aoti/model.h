// Loading an AOTInductor model .so from memory and driving its container API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/result.h>

#include "aoti/output_placement.h"
#include "aoti/shared_constants.h"
#include "aoti/weights_check.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

struct TensorObj;

using AOTIError = int32_t;
using ContainerHandle = void*;

struct ContainerApi {
  AOTIError (*create_with_device)(ContainerHandle*, size_t, const char*, const char*) = nullptr;
  AOTIError (*destroy)(ContainerHandle) = nullptr;
  AOTIError (*run)(ContainerHandle, TensorObj**, size_t, TensorObj**, size_t, void*,
                   void*) = nullptr;
  AOTIError (*num_inputs)(ContainerHandle, size_t*) = nullptr;
  AOTIError (*num_outputs)(ContainerHandle, size_t*) = nullptr;
  // Optional: a model without constants may lack them.
  AOTIError (*num_constants)(ContainerHandle, size_t*) = nullptr;
  AOTIError (*constant_name)(ContainerHandle, size_t, const char**) = nullptr;
  AOTIError (*constant_dtype)(ContainerHandle, size_t, int32_t*) = nullptr;
  AOTIError (*constant_data_size)(ContainerHandle, size_t, size_t*) = nullptr;
  AOTIError (*constant_from_folded)(ContainerHandle, size_t, bool*) = nullptr;
  AOTIError (*constant_original_fqn)(ContainerHandle, size_t, const char**) = nullptr;
  AOTIError (*update_constants_from_blob)(ContainerHandle, const uint8_t*) = nullptr;
  // (name, handle) pairs the container uses without copying or owning them.
  struct ConstantPair {
    const char* name;
    TensorObj* handle;
  };
  AOTIError (*update_user_managed_pairs)(ContainerHandle, const ConstantPair*, size_t, bool,
                                         bool) = nullptr;
};

// One loaded model: the dlopen handle and one container.
class LoadedModel {
 public:
  // Writes `so` to an anonymous memfd, dlopens it RTLD_LOCAL|RTLD_NOW (after
  // making this library and libcudart global), creates a container on
  // `device`, and loads `weights` (may be null when the model has none)
  // once they are checked against the model's constant table. With
  // `share_constants` (weight_sharing_across_methods, shared_constants.h)
  // constants another live model shares by FQN are used in place, the blob
  // is not read when they are all shared, and this model's others are
  // offered in turn.
  static runtime::Result<std::shared_ptr<LoadedModel>> load(const void* so, size_t so_size,
                                                            const void* weights,
                                                            size_t weights_size, const char* device,
                                                            const char* label,
                                                            bool share_constants);
  ~LoadedModel();
  LoadedModel(const LoadedModel&) = delete;
  LoadedModel& operator=(const LoadedModel&) = delete;

  const ContainerApi& api() const { return api_; }
  ContainerHandle container() const { return container_; }
  size_t num_inputs() const { return n_in_; }
  size_t num_outputs() const { return n_out_; }
  cudaStream_t own_stream() const { return stream_; }
  int device_index() const { return device_index_; }
  const std::string& label() const { return label_; }
  // Where runs' outputs are allocated (output_placement.h); runs learn it.
  OutputPlan& output_plan() const { return output_plan_; }

 private:
  LoadedModel() = default;
  runtime::Error create_container(const char* device);
  runtime::Error read_table(std::vector<ConstantInfo>* table) const;
  runtime::Error load_weights(const std::vector<ConstantInfo>& table, const void* weights,
                              size_t weights_size, std::vector<TensorObj*>* made);
  runtime::Error load_shared(const std::vector<ConstantInfo>& table, const void* weights,
                             size_t weights_size, const std::shared_ptr<const void>& self);
  runtime::Error use_shared(const std::vector<ConstantInfo>& table,
                            const std::vector<SharedHit>& hits);
  runtime::Error create_stream();
  void* dl_ = nullptr;
  ContainerApi api_;
  ContainerHandle container_ = nullptr;
  size_t n_in_ = 0;
  size_t n_out_ = 0;
  cudaStream_t stream_ = nullptr;
  int device_index_ = 0;
  bool pool_counted_ = false;
  std::string label_;
  mutable OutputPlan output_plan_;
  // Models whose constants this one uses (weight sharing): they outlive it.
  std::vector<std::shared_ptr<const void>> lenders_;
};

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
