// Build-wide defaults a user's build may override with -D.
#pragma once

// tag_to_string and the other enum-to-name helpers are always compiled in;
// upstream's tests and code test this macro before using them.
#ifndef ET_ENABLE_ENUM_STRINGS
#define ET_ENABLE_ENUM_STRINGS 1
#endif
