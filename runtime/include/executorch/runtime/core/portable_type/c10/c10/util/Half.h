// c10/util/Half.h: see torch/headeronly/util/Half.h.
#pragma once

#include <torch/headeronly/util/Half.h>
