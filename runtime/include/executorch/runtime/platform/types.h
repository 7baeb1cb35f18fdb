// Plain C types of the platform layer, usable from C.
#pragma once

#include <stdint.h>

// A timestamp in system ticks (see et_pal_ticks_to_ns_multiplier()).
typedef uint64_t et_timestamp_t;
