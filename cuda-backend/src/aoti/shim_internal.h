// The shim's internal pieces, for the delegate and the shim sources: the
// tensor object behind an AtenTensorHandle, the per-thread current stream,
// the strided copy and the call trace. Not installed.
#pragma once

#include "aoti/current_stream.h"
#include "aoti/dtype.h"
#include "aoti/strided_copy.h"
#include "aoti/tensor_obj.h"
#include "aoti/trace.h"
