// ET_SWITCH_*: run a lambda with a type alias bound to the C++ type of a
// runtime ScalarType, for the dtypes a kernel supports. Included by
// scalar_type_util.h; include that header, not this one.
//
//   ET_SWITCH_REALHBF16_TYPES(in.scalar_type(), ctx, "my_op.out", CTYPE, [&]() {
//     out.mutable_data_ptr<CTYPE>()[0] = in.const_data_ptr<CTYPE>()[0];
//   });
//
// Arguments: TYPE (the ScalarType), CONTEXT (a KernelRuntimeContext or any
// object with fail(Error)), NAME (the operation, for the error message),
// CTYPE_ALIAS (the alias the lambda uses) and the lambda. A dtype outside the
// set fails CONTEXT with InvalidArgument and logs "Unhandled dtype X for
// NAME"; nothing aborts. The macro's value is the lambda's result. Macros
// nest. _AND/_AND2/_AND3 add named dtypes (bare enumerator names).
#pragma once

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/platform/log.h>

// A build may define ET_INTERNAL_CHECK_SELECTIVE_BUILD(enum_type) to reject
// dtypes it compiled out; by default every listed dtype is handled.
#ifdef ET_INTERNAL_CHECK_SELECTIVE_BUILD
#define ET_INTERNAL_SELECTIVE_BUILD_CHECK_(enum_type) ET_INTERNAL_CHECK_SELECTIVE_BUILD(enum_type);
#else
#define ET_INTERNAL_SELECTIVE_BUILD_CHECK_(enum_type)
#endif

#define ET_INTERNAL_SWITCH_CASE(enum_type, CTYPE_ALIAS, ...)         \
  case enum_type: {                                                  \
    ET_INTERNAL_SELECTIVE_BUILD_CHECK_(enum_type)                    \
    using CTYPE_ALIAS [[maybe_unused]] =                             \
        ::executorch::runtime::ScalarTypeToCppType<enum_type>::type; \
    return __VA_ARGS__();                                            \
  }

#define ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME, ...)                               \
  [&] {                                                                            \
    const ::executorch::aten::ScalarType et_switch_type_ = (TYPE);                 \
    const char* const et_switch_name_ = (NAME);                                    \
    switch (et_switch_type_) {                                                     \
      __VA_ARGS__                                                                  \
      default:                                                                     \
        (CONTEXT).fail(::executorch::runtime::Error::InvalidArgument);             \
        ET_LOG(Error, "Unhandled dtype %s for %s",                                 \
               ::executorch::runtime::toString(et_switch_type_), et_switch_name_); \
    }                                                                              \
  }()

// One case for the enumerator NAME.
#define ET_INTERNAL_ST_CASE_(NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH_CASE(::executorch::aten::ScalarType::NAME, CTYPE_ALIAS, __VA_ARGS__)

// ---- case groups ---------------------------------------------------------------

#define ET_INTERNAL_SWITCH_CASE_INT_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(Byte, CTYPE_ALIAS, __VA_ARGS__)      \
  ET_INTERNAL_ST_CASE_(Char, CTYPE_ALIAS, __VA_ARGS__)      \
  ET_INTERNAL_ST_CASE_(Short, CTYPE_ALIAS, __VA_ARGS__)     \
  ET_INTERNAL_ST_CASE_(Int, CTYPE_ALIAS, __VA_ARGS__)       \
  ET_INTERNAL_ST_CASE_(Long, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_UINT_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(UInt16, CTYPE_ALIAS, __VA_ARGS__)     \
  ET_INTERNAL_ST_CASE_(UInt32, CTYPE_ALIAS, __VA_ARGS__)     \
  ET_INTERNAL_ST_CASE_(UInt64, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(Float, CTYPE_ALIAS, __VA_ARGS__)       \
  ET_INTERNAL_ST_CASE_(Double, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_REAL_TYPES(CTYPE_ALIAS, ...)  \
  ET_INTERNAL_SWITCH_CASE_INT_TYPES(CTYPE_ALIAS, __VA_ARGS__) \
  ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES(CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_COMPLEX_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(ComplexFloat, CTYPE_ALIAS, __VA_ARGS__)  \
  ET_INTERNAL_ST_CASE_(ComplexDouble, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_COMPLEXH_TYPES(CTYPE_ALIAS, ...)  \
  ET_INTERNAL_SWITCH_CASE_COMPLEX_TYPES(CTYPE_ALIAS, __VA_ARGS__) \
  ET_INTERNAL_ST_CASE_(ComplexHalf, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_QINT_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(QInt8, CTYPE_ALIAS, __VA_ARGS__)      \
  ET_INTERNAL_ST_CASE_(QUInt8, CTYPE_ALIAS, __VA_ARGS__)     \
  ET_INTERNAL_ST_CASE_(QInt32, CTYPE_ALIAS, __VA_ARGS__)     \
  ET_INTERNAL_ST_CASE_(QUInt4x2, CTYPE_ALIAS, __VA_ARGS__)   \
  ET_INTERNAL_ST_CASE_(QUInt2x4, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_BITS_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(Bits1x8, CTYPE_ALIAS, __VA_ARGS__)    \
  ET_INTERNAL_ST_CASE_(Bits2x4, CTYPE_ALIAS, __VA_ARGS__)    \
  ET_INTERNAL_ST_CASE_(Bits4x2, CTYPE_ALIAS, __VA_ARGS__)    \
  ET_INTERNAL_ST_CASE_(Bits8, CTYPE_ALIAS, __VA_ARGS__)      \
  ET_INTERNAL_ST_CASE_(Bits16, CTYPE_ALIAS, __VA_ARGS__)
// Every dtype but Float8, the wide unsigned types and Undefined.
#define ET_INTERNAL_SWITCH_CASE_ALL_TYPES(CTYPE_ALIAS, ...)        \
  ET_INTERNAL_SWITCH_CASE_REAL_TYPES(CTYPE_ALIAS, __VA_ARGS__)     \
  ET_INTERNAL_ST_CASE_(Half, CTYPE_ALIAS, __VA_ARGS__)             \
  ET_INTERNAL_ST_CASE_(BFloat16, CTYPE_ALIAS, __VA_ARGS__)         \
  ET_INTERNAL_ST_CASE_(Bool, CTYPE_ALIAS, __VA_ARGS__)             \
  ET_INTERNAL_SWITCH_CASE_COMPLEXH_TYPES(CTYPE_ALIAS, __VA_ARGS__) \
  ET_INTERNAL_SWITCH_CASE_QINT_TYPES(CTYPE_ALIAS, __VA_ARGS__)     \
  ET_INTERNAL_SWITCH_CASE_BITS_TYPES(CTYPE_ALIAS, __VA_ARGS__)

#define ET_INTERNAL_SWITCH_CASE_REAL_TYPES_AND(A1, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH_CASE_REAL_TYPES(CTYPE_ALIAS, __VA_ARGS__)       \
  ET_INTERNAL_ST_CASE_(A1, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_REAL_TYPES_AND2(A1, A2, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH_CASE_REAL_TYPES_AND(A1, CTYPE_ALIAS, __VA_ARGS__)    \
  ET_INTERNAL_ST_CASE_(A2, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_REAL_TYPES_AND3(A1, A2, A3, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH_CASE_REAL_TYPES_AND2(A1, A2, CTYPE_ALIAS, __VA_ARGS__)   \
  ET_INTERNAL_ST_CASE_(A3, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_INT_TYPES_AND(A1, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH_CASE_INT_TYPES(CTYPE_ALIAS, __VA_ARGS__)       \
  ET_INTERNAL_ST_CASE_(A1, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES_AND(A1, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES(CTYPE_ALIAS, __VA_ARGS__)       \
  ET_INTERNAL_ST_CASE_(A1, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES_AND2(A1, A2, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES_AND(A1, CTYPE_ALIAS, __VA_ARGS__)    \
  ET_INTERNAL_ST_CASE_(A2, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES_AND3(A1, A2, A3, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES_AND2(A1, A2, CTYPE_ALIAS, __VA_ARGS__)   \
  ET_INTERNAL_ST_CASE_(A3, CTYPE_ALIAS, __VA_ARGS__)

// The dtypes a Scalar holds: Bool, Long (integers), Double (floating).
#define ET_INTERNAL_SWITCH_CASE_SCALAR_OBJ_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(Bool, CTYPE_ALIAS, __VA_ARGS__)             \
  ET_INTERNAL_ST_CASE_(Long, CTYPE_ALIAS, __VA_ARGS__)             \
  ET_INTERNAL_ST_CASE_(Double, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_SCALAR_OBJ_REAL_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(Long, CTYPE_ALIAS, __VA_ARGS__)                  \
  ET_INTERNAL_ST_CASE_(Double, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_SCALAR_OBJ_INTB_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(Bool, CTYPE_ALIAS, __VA_ARGS__)                  \
  ET_INTERNAL_ST_CASE_(Long, CTYPE_ALIAS, __VA_ARGS__)
#define ET_INTERNAL_SWITCH_CASE_SCALAR_OBJ_FLOATB_TYPES(CTYPE_ALIAS, ...) \
  ET_INTERNAL_ST_CASE_(Bool, CTYPE_ALIAS, __VA_ARGS__)                    \
  ET_INTERNAL_ST_CASE_(Double, CTYPE_ALIAS, __VA_ARGS__)

// ---- the public switches -------------------------------------------------------

#define ET_SWITCH_ALL_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                          \
                     ET_INTERNAL_SWITCH_CASE_ALL_TYPES(CTYPE_ALIAS, __VA_ARGS__))

#define ET_SWITCH_REAL_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                           \
                     ET_INTERNAL_SWITCH_CASE_REAL_TYPES(CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_REAL_TYPES_AND(A1, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                   \
                     ET_INTERNAL_SWITCH_CASE_REAL_TYPES_AND(A1, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_REAL_TYPES_AND2(A1, A2, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                        \
                     ET_INTERNAL_SWITCH_CASE_REAL_TYPES_AND2(A1, A2, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_REAL_TYPES_AND3(A1, A2, A3, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(                                                                \
      TYPE, CONTEXT, NAME,                                                           \
      ET_INTERNAL_SWITCH_CASE_REAL_TYPES_AND3(A1, A2, A3, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_REALH_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_SWITCH_REAL_TYPES_AND(Half, TYPE, CONTEXT, NAME, CTYPE_ALIAS, __VA_ARGS__)
#define ET_SWITCH_REALB_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_SWITCH_REAL_TYPES_AND(Bool, TYPE, CONTEXT, NAME, CTYPE_ALIAS, __VA_ARGS__)
#define ET_SWITCH_REALHB_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_SWITCH_REAL_TYPES_AND2(Half, Bool, TYPE, CONTEXT, NAME, CTYPE_ALIAS, __VA_ARGS__)
#define ET_SWITCH_REALHBF16_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_SWITCH_REAL_TYPES_AND2(Half, BFloat16, TYPE, CONTEXT, NAME, CTYPE_ALIAS, __VA_ARGS__)
#define ET_SWITCH_REALHBBF16_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_SWITCH_REAL_TYPES_AND3(Half, Bool, BFloat16, TYPE, CONTEXT, NAME, CTYPE_ALIAS, __VA_ARGS__)
#define ET_SWITCH_REALHBBF16_AND_UINT_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...)            \
  ET_INTERNAL_SWITCH(                                                                         \
      TYPE, CONTEXT, NAME,                                                                    \
      ET_INTERNAL_SWITCH_CASE_REAL_TYPES_AND3(Half, Bool, BFloat16, CTYPE_ALIAS, __VA_ARGS__) \
          ET_INTERNAL_SWITCH_CASE_UINT_TYPES(CTYPE_ALIAS, __VA_ARGS__))

#define ET_SWITCH_INT_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                          \
                     ET_INTERNAL_SWITCH_CASE_INT_TYPES(CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_INT_TYPES_AND(A1, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                  \
                     ET_INTERNAL_SWITCH_CASE_INT_TYPES_AND(A1, CTYPE_ALIAS, __VA_ARGS__))

#define ET_SWITCH_FLOAT_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                            \
                     ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES(CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_FLOAT_TYPES_AND(A1, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                    \
                     ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES_AND(A1, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_FLOAT_TYPES_AND2(A1, A2, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                         \
                     ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES_AND2(A1, A2, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_FLOAT_TYPES_AND3(A1, A2, A3, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(                                                                 \
      TYPE, CONTEXT, NAME,                                                            \
      ET_INTERNAL_SWITCH_CASE_FLOAT_TYPES_AND3(A1, A2, A3, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_FLOATH_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_SWITCH_FLOAT_TYPES_AND(Half, TYPE, CONTEXT, NAME, CTYPE_ALIAS, __VA_ARGS__)
#define ET_SWITCH_FLOATHBF16_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_SWITCH_FLOAT_TYPES_AND2(Half, BFloat16, TYPE, CONTEXT, NAME, CTYPE_ALIAS, __VA_ARGS__)
#define ET_SWITCH_FLOATHBF16_TYPES_AND(A1, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_SWITCH_FLOAT_TYPES_AND3(Half, BFloat16, A1, TYPE, CONTEXT, NAME, CTYPE_ALIAS, __VA_ARGS__)

#define ET_SWITCH_QINT_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                           \
                     ET_INTERNAL_SWITCH_CASE_QINT_TYPES(CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_COMPLEX_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                              \
                     ET_INTERNAL_SWITCH_CASE_COMPLEX_TYPES(CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_COMPLEXH_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                               \
                     ET_INTERNAL_SWITCH_CASE_COMPLEXH_TYPES(CTYPE_ALIAS, __VA_ARGS__))

#define ET_SWITCH_SCALAR_OBJ_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                 \
                     ET_INTERNAL_SWITCH_CASE_SCALAR_OBJ_TYPES(CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_SCALAR_OBJ_REAL_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                      \
                     ET_INTERNAL_SWITCH_CASE_SCALAR_OBJ_REAL_TYPES(CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_SCALAR_OBJ_INTB_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                      \
                     ET_INTERNAL_SWITCH_CASE_SCALAR_OBJ_INTB_TYPES(CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_SCALAR_OBJ_FLOATB_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                        \
                     ET_INTERNAL_SWITCH_CASE_SCALAR_OBJ_FLOATB_TYPES(CTYPE_ALIAS, __VA_ARGS__))

// Exactly the named dtypes.
#define ET_SWITCH_TWO_TYPES(T1, T2, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                  \
                     ET_INTERNAL_ST_CASE_(T1, CTYPE_ALIAS, __VA_ARGS__)    \
                         ET_INTERNAL_ST_CASE_(T2, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_THREE_TYPES(T1, T2, T3, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                        \
                     ET_INTERNAL_ST_CASE_(T1, CTYPE_ALIAS, __VA_ARGS__)          \
                         ET_INTERNAL_ST_CASE_(T2, CTYPE_ALIAS, __VA_ARGS__)      \
                             ET_INTERNAL_ST_CASE_(T3, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_FOUR_TYPES(T1, T2, T3, T4, TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...) \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                           \
                     ET_INTERNAL_ST_CASE_(T1, CTYPE_ALIAS, __VA_ARGS__)             \
                         ET_INTERNAL_ST_CASE_(T2, CTYPE_ALIAS, __VA_ARGS__)         \
                             ET_INTERNAL_ST_CASE_(T3, CTYPE_ALIAS, __VA_ARGS__)     \
                                 ET_INTERNAL_ST_CASE_(T4, CTYPE_ALIAS, __VA_ARGS__))
