# The kernel scheme (ops/README.md). A kernel template is a C file
# `<name>.c.in` holding the loops of one shape, written for one element type
# and one ISA level, with a few @WORDS@ where those go (below). It is plain C
# otherwise: no macro arguments, no includes of itself. minnx_kernels()
# instantiates it into the build tree, one .c per (dtype, ISA level), and
# writes the family's table of rows, one row per instance, which the family's
# chooser searches once, at prepare.
#
# What a template may say:
#   @SFX@       the dtype's suffix in names (f32, f64, f16, bf16, i8 ... u64, bool)
#   @CTYPE@     its C type (float, double, uint16_t for the 16-bit floats, int8_t ...,
#               uint8_t for bool)
#   @DTYPE@     its minnx dtype (MINNX_FLOAT ...)
#   @ISA@       the ISA level's word in names (port, avx2, avx512)
#   @ISA_ATTR@  what goes before each function: the level's target attribute
#               (MX_AVX2_TARGET, MX_AVX512_TARGET from ops/core/cpu.h) or nothing
#   @NAME@      <prefix>_@SFX@_@ISA@: the instance's exported name; the template
#               defines exactly one object of that name (its kernels' set),
#               which the table points at.
# Everything a dtype needs beyond that (its comparison, its key, its NaN test)
# is a static inline function in a header, named by suffix
# (e.g. mx_pick_max_f32), that the template calls as NAME_@SFX@.

# The one dtype list: suffix, C type, minnx dtype, and the MINNX_DTYPES word.
# minnx_kernel_dtypes holds the twelve numeric ones; bool (stored as 0 and 1)
# is there too for a family that names it.
get_filename_component(minnx_kernel_root ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
set(minnx_kernel_dtypes f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64)
set(minnx_kernel_f32 float MINNX_FLOAT float)
set(minnx_kernel_f64 double MINNX_DOUBLE double)
set(minnx_kernel_f16 uint16_t MINNX_FLOAT16 float16)
set(minnx_kernel_bf16 uint16_t MINNX_BFLOAT16 bfloat16)
set(minnx_kernel_i8 int8_t MINNX_INT8 int8)
set(minnx_kernel_i16 int16_t MINNX_INT16 int16)
set(minnx_kernel_i32 int32_t MINNX_INT32 int32)
set(minnx_kernel_i64 int64_t MINNX_INT64 int64)
set(minnx_kernel_u8 uint8_t MINNX_UINT8 uint8)
set(minnx_kernel_u16 uint16_t MINNX_UINT16 uint16)
set(minnx_kernel_u32 uint32_t MINNX_UINT32 uint32)
set(minnx_kernel_u64 uint64_t MINNX_UINT64 uint64)
set(minnx_kernel_bool uint8_t MINNX_BOOL bool) # stored as 0 and 1

# The ISA levels (ops/core/cpu.h's mx_isa) and whether this build has each:
# the x86-64 levels with gcc or clang on an x86-64 target, unless
# MINNX_X86_AVX2 is OFF.
set(minnx_isa_port_level MX_ISA_PORTABLE)
set(minnx_isa_port_attr "")
set(minnx_isa_avx2_level MX_ISA_AVX2)
set(minnx_isa_avx2_attr MX_FMA_TARGET)
set(minnx_isa_avx512_level MX_ISA_AVX512)
set(minnx_isa_avx512_attr MX_AVX512_TARGET)
set(minnx_kernel_isas port)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND CMAKE_C_COMPILER_ID MATCHES "GNU|Clang"
   AND MINNX_X86_AVX2)
  list(APPEND minnx_kernel_isas avx2 avx512)
endif()

# An op lists its family's `<name>.kernels.cmake` among its sources in
# ops/ops.cmake; when the op is linked, minnx_select_ops includes that file,
# which calls minnx_kernels(kernel_sources ...) for the family's templates.
#
# minnx_kernels(<sources-var> TEMPLATE <path.c.in> PREFIX <name prefix>
#               HEADER <header declaring the set's type>
#               DTYPES <suffixes...> ISAS <levels...>)
# Appends the instances' sources and their table's (<PREFIX>_table.c, which
# defines `const mx_kernel_row <PREFIX>_rows[]` and `<PREFIX>_n_rows`) to
# <sources-var>. Dtypes MINNX_DTYPES leaves out and ISA levels this build does
# not have are not instantiated. Calling it again for the same PREFIX adds
# rows (a template may serve more dtypes at one level than at another).
function(minnx_kernels out)
  cmake_parse_arguments(K "" "TEMPLATE;PREFIX;HEADER" "DTYPES;ISAS" ${ARGN})
  set(dir ${PROJECT_BINARY_DIR}/ops_generated/kernels)
  get_property(rows GLOBAL PROPERTY minnx_kernel_rows_${K_PREFIX})
  set(sources "")
  foreach(isa ${K_ISAS})
    if(NOT isa IN_LIST minnx_kernel_isas)
      continue()
    endif()
    foreach(SFX ${K_DTYPES})
      list(GET minnx_kernel_${SFX} 0 CTYPE)
      list(GET minnx_kernel_${SFX} 1 DTYPE)
      list(GET minnx_kernel_${SFX} 2 word)
      if(MINNX_DTYPES AND NOT word IN_LIST MINNX_DTYPES)
        continue()
      endif()
      set(ISA ${isa})
      set(ISA_ATTR ${minnx_isa_${isa}_attr})
      set(NAME ${K_PREFIX}_${SFX}_${isa})
      configure_file(${minnx_kernel_root}/${K_TEMPLATE} ${dir}/${NAME}.c @ONLY)
      if(isa STREQUAL "avx2" OR isa STREQUAL "avx512")
        # mathf.h's fused multiply-adds as the instruction (both levels'
        # targets have FMA; the baseline's are computed in C, ops/core/mathf.h)
        set_source_files_properties(${dir}/${NAME}.c PROPERTIES COMPILE_DEFINITIONS MX_MATHF_FMA)
      endif()
      list(APPEND sources ${dir}/${NAME}.c)
      list(APPEND rows "${DTYPE}|${minnx_isa_${isa}_level}|${NAME}")
    endforeach()
  endforeach()
  set_property(GLOBAL PROPERTY minnx_kernel_rows_${K_PREFIX} "${rows}")
  # the table, written once with every row, when the directory's listing ends: written with each call's rows
  # so far, it changed twice at every configure (a PREFIX called twice), which rebuilt the tables and relinked
  # everything after any reconfigure
  get_property(planned GLOBAL PROPERTY minnx_kernel_header_${K_PREFIX} SET)
  set_property(GLOBAL APPEND PROPERTY minnx_kernel_template_${K_PREFIX} ${K_TEMPLATE})
  if(NOT planned)
    set_property(GLOBAL PROPERTY minnx_kernel_header_${K_PREFIX} ${K_HEADER})
    # (EVAL: a deferred call's arguments are read when it runs, where K_PREFIX is gone)
    cmake_language(EVAL CODE "cmake_language(DEFER CALL minnx_kernel_table [[${K_PREFIX}]])")
  endif()
  set(all ${${out}} ${sources} ${dir}/${K_PREFIX}_table.c)
  list(REMOVE_DUPLICATES all)
  set(${out} ${all} PARENT_SCOPE)
endfunction()

# <PREFIX>_table.c from the rows of every minnx_kernels() call for PREFIX (deferred by the first).
function(minnx_kernel_table prefix)
  set(dir ${PROJECT_BINARY_DIR}/ops_generated/kernels)
  get_property(rows GLOBAL PROPERTY minnx_kernel_rows_${prefix})
  get_property(templates GLOBAL PROPERTY minnx_kernel_template_${prefix})
  list(REMOVE_DUPLICATES templates)
  list(JOIN templates " and " template)
  get_property(header GLOBAL PROPERTY minnx_kernel_header_${prefix})
  set(text "/* Generated by ops/core/kernels.cmake from ${template}: one row per instance. */\n")
  string(APPEND text "#include \"ops/core/kernel.h\"\n#include \"${header}\"\n\n")
  set(body "")
  foreach(row ${rows})
    string(REPLACE "|" ";" f "${row}")
    list(GET f 0 dtype)
    list(GET f 1 level)
    list(GET f 2 name)
    string(APPEND text "extern const struct ${prefix}_set ${name};\n")
    string(APPEND body "    {${dtype}, ${level}, &${name}},\n")
  endforeach()
  list(LENGTH rows n)
  if(n EQUAL 0)
    set(body "    {MINNX_UNDEFINED, 0, 0},\n")
  endif()
  string(APPEND text "\nconst mx_kernel_row ${prefix}_rows[] = {\n${body}};\n")
  string(APPEND text "const size_t ${prefix}_n_rows = ${n};\n")
  file(CONFIGURE OUTPUT ${dir}/${prefix}_table.c CONTENT "${text}" @ONLY)
endfunction()
