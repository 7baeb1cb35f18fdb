// aoti_torch_cuda_convolution's arguments checked and turned into the
// problem cuDNN is given: output sizes and memory format (what PyTorch
// would give), and the 4-D/5-D views cuDNN sees (a 1-D convolution gets a
// unit H). Plain C++: no CUDA or cuDNN call, so it is unit-tested without a
// GPU (tests/cuda-backend/aoti/conv_geometry_test.cpp).
#pragma once

#include <cstdint>

#include "aoti/tensor_obj.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {
namespace conv {

constexpr int kMaxDims = 5; // cuDNN view: N, C and up to 3 spatial dims

enum class Layout { kContiguous, kChannelsLast };

// A tensor as cuDNN sees it: 4 or 5 dims.
struct View {
  int nd = 0;
  int64_t size[kMaxDims] = {};
  int64_t stride[kMaxDims] = {};
  int64_t numel() const {
    int64_t n = 1;
    for (int i = 0; i < nd; ++i) n *= size[i];
    return n;
  }
};

// Packed strides of `size` in layout `l`: NC(D)HW, or N(D)HWC.
void packed_strides(int nd, const int64_t* size, Layout l, int64_t* out);
// Whether every element of `v` lies where the packed layout `l` puts it
// (strides of unit dims do not matter).
bool is_packed(const View& v, Layout l);
// PyTorch's notion of a 4-D/5-D tensor "suggesting" channels-last, from
// its strides alone.
bool suggests_channels_last(const TensorObj* t);

// The list arguments as the model passes them (pointer + length).
struct ConvArgs {
  const int64_t* stride;
  int64_t stride_len;
  const int64_t* padding;
  int64_t padding_len;
  const int64_t* dilation;
  int64_t dilation_len;
  bool transposed;
  const int64_t* output_padding;
  int64_t output_padding_len;
  int64_t groups;
};

// A checked convolution.
struct ConvProblem {
  int nd = 0;  // rank of the input (3, 4 or 5)
  int nsp = 0; // spatial dims
  bool transposed = false;
  int64_t groups = 1;
  int64_t stride[3] = {}, padding[3] = {}, dilation[3] = {}, output_padding[3] = {};
  int64_t c_out = 0;
  int64_t out_sizes[kMaxDims] = {};   // original rank
  int64_t out_strides[kMaxDims] = {}; // original rank, in `layout`
  Layout layout = Layout::kContiguous;
  // What cuDNN is given: x (input), w (weight), y (output) and the int
  // parameters per cuDNN spatial dim.
  View x, w, y;
  int cnd = 0; // cuDNN rank: 4 or 5
  int cpad[3] = {}, cstride[3] = {}, cdilation[3] = {};
};

// Checks the tensors (CUDA, one device, one dtype among float32, float16,
// bfloat16, float64; ranks; channels; bias [C_out]) and the parameters,
// and fills `p`. False with one "[CudaBackend shim] fn: ..." line on
// stderr naming what is wrong.
bool plan_convolution(const char* fn, const TensorObj* input, const TensorObj* weight,
                      const TensorObj* bias, const ConvArgs& args, ConvProblem* p);

} // namespace conv
} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
