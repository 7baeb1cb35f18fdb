// Placeholder: replaced by the conv fallback tests.
#include "shim_test_util.h"
int main() {
  shim_test::require_gpu();
  return 0;
}
