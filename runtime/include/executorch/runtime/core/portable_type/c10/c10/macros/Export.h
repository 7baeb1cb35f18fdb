// c10's visibility macros (see torch/headeronly/macros/Export.h).
#pragma once

#include <torch/headeronly/macros/Export.h>
