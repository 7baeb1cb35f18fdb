// libFuzzer harness: arbitrary bytes as a .pte, through Program::load
// (InternalConsistency), every method's meta, load_method with capped memory,
// ones as inputs, and execute. Any Error is fine; a crash, a sanitizer report
// or a hang is a finding.
#include <cstddef>
#include <cstdint>

#include "untrusted_input/quiet_log.h"
#include "untrusted_input/run_program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  et_fuzz::quiet_logs_once();
  et_fuzz::Outcomes outcomes;
  (void)et_fuzz::load_and_run(data, size, &outcomes);
  return 0;
}
