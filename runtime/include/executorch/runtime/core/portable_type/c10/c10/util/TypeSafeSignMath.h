// c10/util/TypeSafeSignMath.h: see torch/headeronly/util/TypeSafeSignMath.h.
#pragma once

#include <torch/headeronly/util/TypeSafeSignMath.h>
