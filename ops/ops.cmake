include(ops/core/kernels.cmake)

# Every operator minnx implements: its name (what MINNX_OPS lists), what of
# the op contract it uses beyond computing (VIEWS: outputs that are views or
# constants folded at load, by rows without eval or by infer computing them; DATA: infer reads an input's bytes,
# MX_IO_CONST; SCRATCH: prepare asks for arena scratch), and the sources it
# needs. Adding an op is one line here and
# its file in ops/. A build links the contract's code for VIEWS and DATA only
# when one of its ops uses them (test_registry checks the words against the
# rows).
set(minnx_all_ops "")
macro(minnx_op name)
  list(APPEND minnx_all_ops ${name})
  set(minnx_op_sources_${name} ${ARGN})
  set(minnx_op_features_${name} 0)
  foreach(word VIEWS DATA SCRATCH)
    list(FIND minnx_op_sources_${name} ${word} at)
    if(at GREATER -1)
      list(REMOVE_AT minnx_op_sources_${name} ${at})
      set(minnx_op_features_${name} "${minnx_op_features_${name}} | MX_OPS_${word}_BIT")
    endif()
  endforeach()
endmacro()

minnx_op(Max ops/minmax/max.c ops/minmax/extremum_pair.c ops/minmax/extremum_pair.kernels.cmake)
minnx_op(Min ops/minmax/max.c ops/minmax/extremum_pair.c ops/minmax/extremum_pair.kernels.cmake)
minnx_op(ArgMax SCRATCH ops/minmax/argmax.c ops/minmax/arg.kernels.cmake)
minnx_op(ArgMin SCRATCH ops/minmax/argmax.c ops/minmax/arg.kernels.cmake)
minnx_op(Maximum ops/minmax/maximum.c ops/minmax/max.c ops/minmax/extremum_pair.c ops/minmax/extremum_pair.kernels.cmake)
minnx_op(Minimum ops/minmax/maximum.c ops/minmax/max.c ops/minmax/extremum_pair.c ops/minmax/extremum_pair.kernels.cmake)
minnx_op(ReduceMax VIEWS DATA SCRATCH ops/minmax/reduce.c ops/core/reduce_axes.c ops/minmax/extremum_reduce.c
          ops/minmax/extremum_pair.kernels.cmake)
minnx_op(ReduceMin VIEWS DATA SCRATCH ops/minmax/reduce.c ops/core/reduce_axes.c ops/minmax/extremum_reduce.c
          ops/minmax/extremum_pair.kernels.cmake)
minnx_op(Cast ops/tensor/cast.c ops/tensor/convert.c ops/tensor/convert.kernels.cmake)
minnx_op(CastLike ops/tensor/cast.c ops/tensor/convert.c ops/tensor/convert.kernels.cmake)
minnx_op(Clip ops/minmax/clip.c ops/minmax/clip.kernels.cmake ops/minmax/extremum_pair.c ops/minmax/extremum_pair.kernels.cmake
         ops/tensor/convert.c ops/tensor/convert.kernels.cmake)
minnx_op(Constant VIEWS ops/tensor/constant.c)
minnx_op(Identity VIEWS ops/tensor/identity.c)
minnx_op(Reshape VIEWS DATA ops/tensor/reshape.c)
minnx_op(Flatten VIEWS ops/tensor/flatten.c)
minnx_op(Squeeze VIEWS DATA ops/tensor/squeeze.c)
minnx_op(Unsqueeze VIEWS DATA ops/tensor/squeeze.c)
# shape arithmetic (folded at load when its inputs are known)
minnx_op(Shape VIEWS ops/tensor/shape.c)
minnx_op(Slice VIEWS DATA ops/tensor/slice.c)
minnx_op(Concat VIEWS DATA ops/tensor/concat.c)
# matrix products (ops/math/gemm.h: the kernels and their order)
minnx_op(MatMul SCRATCH ops/math/matmul.c ops/math/gemm.c ops/math/gemm_x86.c ops/math/gemm_ref.c ops/math/fma64.c ops/tensor/convert.c)
minnx_op(Gemm SCRATCH ops/math/matmul.c ops/math/gemm.c ops/math/gemm_x86.c ops/math/gemm_ref.c ops/math/fma64.c ops/tensor/convert.c)
# the sums (ops/reduction/sum.h: their order and kernels)
minnx_op(ReduceSum VIEWS DATA ops/reduction/reduce.c ops/core/reduce_axes.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c
         ops/reduction/sum.kernels.cmake)
minnx_op(ReduceMean VIEWS DATA ops/reduction/reduce.c ops/core/reduce_axes.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c
         ops/reduction/sum.kernels.cmake)
minnx_op(ReduceProd VIEWS DATA ops/reduction/reduce.c ops/core/reduce_axes.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c
         ops/reduction/sum.kernels.cmake)
minnx_op(ReduceL1 VIEWS DATA ops/reduction/reduce.c ops/core/reduce_axes.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c
         ops/reduction/sum.kernels.cmake)
minnx_op(ReduceL2 VIEWS DATA ops/reduction/reduce.c ops/core/reduce_axes.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c
         ops/reduction/sum.kernels.cmake)
minnx_op(ReduceSumSquare VIEWS DATA ops/reduction/reduce.c ops/core/reduce_axes.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c
         ops/reduction/sum.kernels.cmake)
minnx_op(ReduceLogSum VIEWS DATA ops/reduction/reduce.c ops/core/reduce_axes.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c
         ops/reduction/sum.kernels.cmake)
minnx_op(ReduceLogSumExp VIEWS DATA ops/reduction/reduce.c ops/core/reduce_axes.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c
         ops/reduction/sum.kernels.cmake)
minnx_op(Softmax ops/reduction/softmax.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c ops/reduction/sum.kernels.cmake)
minnx_op(LogSoftmax ops/reduction/softmax.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c ops/reduction/sum.kernels.cmake)
minnx_op(Hardmax ops/reduction/softmax.c ops/reduction/sum_walk.c ops/reduction/sum_ref.c ops/reduction/sum.kernels.cmake)
# elementwise ops of two operands
minnx_op(Add ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(Sub ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(Mul ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(Div ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(Equal ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(Greater ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(Less ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(GreaterOrEqual ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(LessOrEqual ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(And ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(Or ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(Xor ops/math/binary.c ops/math/binary.kernels.cmake)
minnx_op(Not ops/math/not.c)
minnx_op(Where ops/math/where.c ops/math/where.kernels.cmake)

# The ops this build links (MINNX_OPS; empty: all), their sources, the
# compile definitions of the features they use, and mx_op_list.h, the
# registry's list of their tables.
function(minnx_select_ops out_sources out_dir out_definitions)
  set(ops ${MINNX_OPS})
  if(NOT ops)
    set(ops ${minnx_all_ops})
  endif()
  set(sources "")
  set(views 0)
  set(data 0)
  set(scratch 0)
  set(list_text "/* Generated by CMake from MINNX_OPS (ops/ops.cmake): the op tables this build links,\n * with the features of the contract each uses. */\n")
  set(have_text "/* Generated by CMake from MINNX_OPS (ops/ops.cmake): MX_HAVE_<op> for each op linked. */\n")
  foreach(op ${ops})
    if(NOT DEFINED minnx_op_sources_${op})
      string(REPLACE ";" ", " known "${minnx_all_ops}")
      message(FATAL_ERROR "MINNX_OPS: unknown operator '${op}' (minnx has: ${known})")
    endif()
    list(APPEND sources ${minnx_op_sources_${op}})
    string(APPEND list_text "MX_OP(${op}, ${minnx_op_features_${op}})\n")
    if(minnx_op_features_${op} MATCHES VIEWS)
      set(views 1)
    endif()
    if(minnx_op_features_${op} MATCHES DATA)
      set(data 1)
    endif()
    if(minnx_op_features_${op} MATCHES SCRATCH)
      set(scratch 1)
    endif()
    string(APPEND have_text "#define MX_HAVE_${op} 1\n")
  endforeach()
  list(REMOVE_DUPLICATES sources)
  # A `<family>/<name>.kernels.cmake` among an op's sources instantiates the
  # family's kernel templates (ops/core/kernels.cmake) for the build.
  set(kernel_sources "")
  foreach(source ${sources})
    if(source MATCHES "\\.kernels\\.cmake$")
      include(${source})
    else()
      list(APPEND kernel_sources ${source})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES kernel_sources)
  set(sources ${kernel_sources})
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/ops_generated)
  file(CONFIGURE OUTPUT ${dir}/mx_op_list.h CONTENT "${list_text}" @ONLY)
  file(CONFIGURE OUTPUT ${dir}/mx_op_have.h CONTENT "${have_text}" @ONLY)
  set(${out_sources} ${sources} PARENT_SCOPE)
  set(${out_dir} ${dir} PARENT_SCOPE)
  set(${out_definitions} MX_OPS_VIEWS=${views} MX_OPS_DATA=${data} MX_OPS_SCRATCH=${scratch} PARENT_SCOPE)
endfunction()
