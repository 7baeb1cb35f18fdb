// Upstream splits Half.h; everything is in c10/util/Half.h.
#pragma once

#include <c10/util/Half.h>
