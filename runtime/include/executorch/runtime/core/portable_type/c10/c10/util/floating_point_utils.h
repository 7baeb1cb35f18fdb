// c10/util/floating_point_utils.h: see torch/headeronly/util/floating_point_utils.h.
#pragma once

#include <torch/headeronly/util/floating_point_utils.h>
