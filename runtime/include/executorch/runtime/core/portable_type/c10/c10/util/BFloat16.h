// c10/util/BFloat16.h: see torch/headeronly/util/BFloat16.h.
#pragma once

#include <torch/headeronly/util/BFloat16.h>
