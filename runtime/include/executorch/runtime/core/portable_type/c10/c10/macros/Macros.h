// c10's portability macros (see torch/headeronly/macros/Macros.h).
#pragma once

#include <c10/macros/Export.h>
#include <torch/headeronly/macros/Macros.h>
