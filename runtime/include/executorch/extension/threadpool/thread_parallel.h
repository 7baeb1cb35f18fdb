// The older spelling of executorch/runtime/kernel/thread_parallel_interface.h
// (parallel_for, get_thread_num, set_thread_num), as upstream keeps it.
#pragma once

#include <executorch/runtime/kernel/thread_parallel_interface.h>
