// Upstream splits BFloat16.h; everything is in c10/util/BFloat16.h.
#pragma once

#include <c10/util/BFloat16.h>
