// Stands in for libtorch's own C shim, which exports aoti_torch_* too: the
// codes it returns are ones this backend never uses, so a test sees which
// library served a call.
#include <cstdint>

extern "C" {
__attribute__((visibility("default"))) int32_t aoti_torch_dtype_float32() { return 991; }
__attribute__((visibility("default"))) int32_t aoti_torch_dtype_bfloat16() { return 992; }
}

// Called by the test so that the linker keeps this library NEEDED.
extern "C" __attribute__((visibility("default"))) int decoy_libtorch_marker() { return 1; }
