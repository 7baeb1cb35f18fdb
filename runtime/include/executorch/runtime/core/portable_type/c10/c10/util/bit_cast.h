// c10/util/bit_cast.h: see torch/headeronly/util/bit_cast.h.
#pragma once

#include <torch/headeronly/util/bit_cast.h>
