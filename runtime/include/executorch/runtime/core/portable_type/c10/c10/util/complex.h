// c10/util/complex.h: see torch/headeronly/util/complex.h.
#pragma once

#include <torch/headeronly/util/complex.h>
