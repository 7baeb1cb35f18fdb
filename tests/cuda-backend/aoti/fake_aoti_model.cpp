// A stand-in for an AOTInductor model .so: it imports shim functions by the
// names AOTInductor's generated code uses (aoti_torch_*), declared here and
// not through aoti/shim.h, which renames them.
#include <cstdint>

extern "C" {
int32_t aoti_torch_dtype_float32();
int32_t aoti_torch_dtype_bfloat16();

__attribute__((visibility("default"))) int32_t fake_model_float32_code() {
  return aoti_torch_dtype_float32();
}
__attribute__((visibility("default"))) int32_t fake_model_bfloat16_code() {
  return aoti_torch_dtype_bfloat16();
}
}
