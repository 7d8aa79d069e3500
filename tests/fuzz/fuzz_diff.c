/* Fuzz target (d), differential: the bytes choose an op version (Max and
 * Min 1, 6, 8, 12, 13; ArgMax and ArgMin 1, 11, 12, 13; OpenVINO Maximum
 * and Minimum 1; ReduceMax and ReduceMin 1, 11, 13 with axes and keepdims,
 * and 18 over all axes; Cast 1, 6, 9, 13, 19 and CastLike 15, 19 between
 * every pair of the twelve numeric dtypes and bool; Clip 1, 6, 11, 12, 13
 * with bounds absent, one or both, omitted as "", NaN, lo > hi), a dtype, shapes
 * (broadcasts, size-0 dims, odd sizes), where each input starts (not on a
 * cache line), and values (NaN of both signs, +-0, +-inf, the dtype's
 * extremes, ties). One session runs the node on the calling thread, then
 * through hooks that run its tasks as 2 and 3 threads would (in another
 * order each), and through the plain reference loops of ops/
 * (extremum_ref.c; Clip as a Max with its low bound then a Min with its
 * high one). Cast is checked instead against README's Cast rules, computed
 * here from each value's exact sign, mantissa and exponent (not minnx's
 * loops), and its portable, AVX2 and AVX-512 loops and Clip's one-pass
 * kernels (portable, AVX2) are also called directly, at each level the CPU
 * has. Cast's values add NaN payloads (signalling too), subnormals, ties
 * and double-rounding traps at every target's precision, overflow ties, the
 * integer targets' edges, and integers around 2^24, 2^53 and 2^63.
 * MatMul 1, 9, 13 (batch broadcasting, 1-D operands) and Gemm 1, 6, 7, 9,
 * 11, 13 (transA, transB, alpha, beta, C of every broadcast each version
 * allows, or none) in every dtype they take, with moderate values and some
 * specials, are held to their reference loop (ops/math/gemm_ref.c), and
 * float's are also run through the product kernels directly at each
 * instruction-set level the CPU has.
 * The one-operand elementwise ops (Neg ... Gelu, ops/math/unary.c, their
 * latest version each, with alpha, beta, gamma from telling values or any
 * bits, Gelu of both forms) are held to their reference loop
 * (ops/math/unary_loops.h) bit for bit, the transcendental ones included,
 * and their kernels are also called directly at each level the CPU has.
 * Conv 1 and 11 (1-D, 2-D, 3-D; groups and depthwise; strides, dilations,
 * pads, every auto_pad; kernel_shape written or not; a bias or none; 1x1
 * convolutions that skip im2col) in float16, float and double are held to
 * their reference loop (ops/nn/conv_ref.c) and run through their plan
 * directly at each instruction-set level of the product kernels (float32
 * also with its weights packed beforehand, as prepare packs an initializer;
 * and with a Relu or a Clip fused into its stores, ops/math/act.h: Clip's
 * bounds both, one or none, from the outputs' own values so that they tie,
 * +-0, NaN, lo > hi, each run held bit for bit to its unfused output put
 * through the separate node's element rule: unary_elem.h's Relu, clip.h's
 * one-pass Clip, extremum_pair.h's picks).
 * Wide entries (wide_versions) give Conv 11 4 to 40 output channels in one
 * group and MatMul 13 and Gemm 13 4 to 52 rows, for the products' edge
 * kernels of 4, 8 and 12 rows and their column kernels.
 * ConvTranspose 1 and 11 (the same shapes, and output_padding, output_shape
 * with each version's split of the padding, negative totals included) are
 * held to their reference loop (ops/nn/convt_ref.c) and run through their
 * plan directly at each level of the product kernels.
 * MaxPool 1, 8, 10, 11, 12, AveragePool 1, 7, 10, 11, 19 (1-D to 3-D;
 * strides, dilations, pads, every auto_pad, ceil_mode, count_include_pad;
 * int8 and uint8 in MaxPool-12; NaN, ties, +-0) and the global pools (ranks
 * 3 to 5) are held to their reference loop (ops/nn/pool_ref.c).
 * The sums (ReduceSum 1, 11, 13 over all
 * axes; ReduceMean 11, 13, 18; ReduceProd, ReduceL1, ReduceL2,
 * ReduceSumSquare, ReduceLogSum, ReduceLogSumExp 13; Softmax 1, 13;
 * LogSoftmax 11, 13) in every dtype they take, with the products' values,
 * are held to their reference loop (ops/reduction/sum_ref.c) bit for bit,
 * through the session and through the walk at each ISA level.
 * Sum and Mean 1, 6, 8, 13 (one to four inputs, broadcast from 8) in the
 * four floats are held to their reference loop (ops/math/sum_mean_ref.c)
 * bit for bit, and their float16/bfloat16 kernels called directly at each
 * level; PRelu 7, 9, 16 (the slope broadcast to X) goes with the
 * two-operand ops (Add ...: ops/math/binary_ref.h).
 * Transpose 1, 13, 21 (every dtype,
 * ranks 0 to 4, any permutation or none) and Gather 1, 11, 13 (every
 * dtype, every axis, negative ones from 11, int32 and int64 indices of
 * ranks 0 to 2 in range, negative ones from 11) are held byte for byte to
 * their reference loops (ops/tensor/transpose_ref.c, gather_ref.c).
 * Pad 13 and 19 (every mode, cropping and extending pads, a constant_value
 * or none), Tile 13 and Expand 13 (every dtype, ranks 0 to 4, their int64
 * input a graph input) are held byte for byte to their reference loop
 * (ops/tensor/remap_ref.c).
 * BatchNormalization 9 and 15 (var given as scale's values, so some are
 * negative), InstanceNormalization 6 and LayerNormalization 17 (every axis,
 * negative ones too) in the float dtypes each takes are held to their
 * reference loops (ops/nn/norm_ref.c) bit for bit, and run again at each
 * ISA level this CPU has (a model loaded with max_isa at that level).
 * RNN, GRU and LSTM 7 and 14 (X, W, R and B or not; every direction, both
 * layouts, clip, linear_before_reset, input_forget, sizes around the
 * product kernels' blocks, some 0) in float (its path on the products'
 * kernels, ops/rnn/rnn_fast.c), double and float16 are held to their loop
 * (ops/rnn/rnn_ref.c) bit for bit, and run again at each ISA level.
 * Across thread counts the outputs must be byte for byte
 * the same but for which NaN (same_output); against the reference too, but for what the rules leave
 * open (ops/minmax/extremum.h): which NaN, and which zero (+0 and -0 are equal);
 * for Cast only a NaN's payload (it must come out quiet with its sign;
 * a cast to the same dtype copies the bits). (Real threads are
 * test_threads' business, under ThreadSanitizer: starting a pool for each
 * input would leave the fuzzer a few inputs a second.) (The fuzz build splits nodes from
 * 128 bytes on, so that small shapes are cut into tasks too.) A difference,
 * or a model accepted at load that then fails to run, aborts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/act_nodes.h"
#include "../unit/builder.h"
#include "minnx.h"
#include "ops/math/gemm.h"
#include "ops/minmax/clip.h"
#include "ops/minmax/extremum_pair.h"
#include "ops/math/unary_elem.h"
#include "ops/core/cpu.h"
#include "ops/tensor/convert.h"
#include "ops/minmax/extremum_ref.h"
#include "ops/math/binary.h"
#include "ops/math/sum_mean.h"
#include "ops/core/kernel.h"
#include "ops/math/pow.h"
#include "ops/math/unary.h"
#include "ops/nn/conv.h"
#include "ops/nn/convt.h"
#include "ops/nn/norm.h"
#include "ops/nn/pool.h"
#include "ops/reduction/sum.h"
#include "ops/rnn/rnn.h"
#include "ops/tensor/gather.h"
#include "ops/tensor/remap.h"
#include "ops/tensor/transpose.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
  const uint8_t *p;
  size_t n;
} bytes;

static unsigned take(bytes *b) {
  if (!b->n) return 0;
  b->n--;
  return *b->p++;
}

/* ---- the node ---- */

/* The min/max family, Cast and CastLike, Clip: each chooses, fills and checks its own way. */
enum { K_EXTREMUM, K_CAST, K_CASTLIKE, K_CLIP, K_PRODUCT, K_BINARY, K_UNARY, K_CONV, K_POOL, K_SUM, K_LAYOUT, K_NSUM, K_CONVT, K_REMAP, K_NORM, K_RNN };

typedef struct {
  const char *op, *domain;
  int version, broadcasts, kind;
} version;

static const version versions[] = {
    {"Max", "", 1, 0, K_EXTREMUM},     {"Max", "", 6, 0, K_EXTREMUM},     {"Max", "", 8, 1, K_EXTREMUM},     {"Max", "", 12, 1, K_EXTREMUM},
    {"Max", "", 13, 1, K_EXTREMUM},    {"ArgMax", "", 1, 0, K_EXTREMUM},  {"ArgMax", "", 11, 0, K_EXTREMUM}, {"ArgMax", "", 12, 0, K_EXTREMUM},
    {"ArgMax", "", 13, 0, K_EXTREMUM}, {"Maximum", "org.openvinotoolkit", 1, 1, K_EXTREMUM},
    {"Min", "", 1, 0, K_EXTREMUM},     {"Min", "", 6, 0, K_EXTREMUM},     {"Min", "", 8, 1, K_EXTREMUM},     {"Min", "", 12, 1, K_EXTREMUM},
    {"Min", "", 13, 1, K_EXTREMUM},    {"ArgMin", "", 1, 0, K_EXTREMUM},  {"ArgMin", "", 11, 0, K_EXTREMUM}, {"ArgMin", "", 12, 0, K_EXTREMUM},
    {"ArgMin", "", 13, 0, K_EXTREMUM}, {"Minimum", "org.openvinotoolkit", 1, 1, K_EXTREMUM},
    {"ReduceMax", "", 1, 0, K_EXTREMUM}, {"ReduceMax", "", 11, 0, K_EXTREMUM}, {"ReduceMax", "", 13, 0, K_EXTREMUM}, {"ReduceMax", "", 18, 0, K_EXTREMUM},
    {"ReduceMin", "", 1, 0, K_EXTREMUM}, {"ReduceMin", "", 11, 0, K_EXTREMUM}, {"ReduceMin", "", 13, 0, K_EXTREMUM}, {"ReduceMin", "", 18, 0, K_EXTREMUM},
    /* appended, so that the first seeds keep their meaning */
    {"Cast", "", 1, 0, K_CAST},  {"Cast", "", 6, 0, K_CAST},  {"Cast", "", 9, 0, K_CAST},
    {"Cast", "", 13, 0, K_CAST}, {"Cast", "", 19, 0, K_CAST}, {"CastLike", "", 15, 0, K_CASTLIKE},
    {"CastLike", "", 19, 0, K_CASTLIKE}, {"Clip", "", 1, 0, K_CLIP}, {"Clip", "", 6, 0, K_CLIP},
    {"Clip", "", 11, 0, K_CLIP}, {"Clip", "", 12, 0, K_CLIP}, {"Clip", "", 13, 0, K_CLIP},
    {"MatMul", "", 1, 1, K_PRODUCT}, {"MatMul", "", 9, 1, K_PRODUCT}, {"MatMul", "", 13, 1, K_PRODUCT},
    {"Gemm", "", 1, 0, K_PRODUCT}, {"Gemm", "", 6, 0, K_PRODUCT}, {"Gemm", "", 7, 0, K_PRODUCT},
    {"Gemm", "", 9, 0, K_PRODUCT}, {"Gemm", "", 11, 0, K_PRODUCT}, {"Gemm", "", 13, 0, K_PRODUCT},
    {"Add", "", 7, 1, K_BINARY}, {"Sub", "", 13, 1, K_BINARY}, {"Mul", "", 14, 1, K_BINARY},
    {"Div", "", 14, 1, K_BINARY}, {"Add", "", 14, 1, K_BINARY}, {"Sub", "", 14, 1, K_BINARY},
    {"Equal", "", 13, 1, K_BINARY}, {"Greater", "", 13, 1, K_BINARY}, {"Less", "", 13, 1, K_BINARY},
    {"GreaterOrEqual", "", 16, 1, K_BINARY}, {"LessOrEqual", "", 16, 1, K_BINARY}, {"And", "", 7, 1, K_BINARY},
    {"Or", "", 7, 1, K_BINARY}, {"Xor", "", 7, 1, K_BINARY},
    /* the one-operand ops, in ops/math/unary.h's order (unop_of) */
    {"Neg", "", 13, 0, K_UNARY}, {"Abs", "", 13, 0, K_UNARY}, {"Sign", "", 13, 0, K_UNARY},
    {"Relu", "", 14, 0, K_UNARY}, {"Reciprocal", "", 13, 0, K_UNARY}, {"Floor", "", 13, 0, K_UNARY},
    {"Ceil", "", 13, 0, K_UNARY}, {"Sqrt", "", 13, 0, K_UNARY}, {"Round", "", 11, 0, K_UNARY},
    {"LeakyRelu", "", 16, 0, K_UNARY}, {"HardSigmoid", "", 6, 0, K_UNARY}, {"HardSwish", "", 14, 0, K_UNARY},
    {"Exp", "", 13, 0, K_UNARY}, {"Log", "", 13, 0, K_UNARY}, {"Erf", "", 13, 0, K_UNARY},
    {"Sigmoid", "", 13, 0, K_UNARY}, {"Tanh", "", 13, 0, K_UNARY}, {"Elu", "", 6, 0, K_UNARY},
    {"Selu", "", 6, 0, K_UNARY}, {"Softplus", "", 1, 0, K_UNARY}, {"Gelu", "", 20, 0, K_UNARY},
    {"Conv", "", 1, 0, K_CONV}, {"Conv", "", 11, 0, K_CONV},
    {"MaxPool", "", 1, 0, K_POOL}, {"MaxPool", "", 8, 0, K_POOL}, {"MaxPool", "", 10, 0, K_POOL},
    {"MaxPool", "", 11, 0, K_POOL}, {"MaxPool", "", 12, 0, K_POOL}, {"AveragePool", "", 1, 0, K_POOL},
    {"AveragePool", "", 7, 0, K_POOL}, {"AveragePool", "", 10, 0, K_POOL}, {"AveragePool", "", 11, 0, K_POOL},
    {"AveragePool", "", 19, 0, K_POOL}, {"GlobalMaxPool", "", 1, 0, K_POOL}, {"GlobalAveragePool", "", 1, 0, K_POOL},
    {"ReduceSum", "", 1, 0, K_SUM}, {"ReduceSum", "", 11, 0, K_SUM}, {"ReduceSum", "", 13, 0, K_SUM},
    {"ReduceMean", "", 11, 0, K_SUM}, {"ReduceMean", "", 13, 0, K_SUM}, {"ReduceMean", "", 18, 0, K_SUM},
    {"ReduceProd", "", 13, 0, K_SUM}, {"ReduceL1", "", 13, 0, K_SUM}, {"ReduceL2", "", 13, 0, K_SUM},
    {"ReduceSumSquare", "", 13, 0, K_SUM}, {"ReduceLogSum", "", 13, 0, K_SUM}, {"ReduceLogSumExp", "", 13, 0, K_SUM},
    {"Softmax", "", 1, 0, K_SUM}, {"Softmax", "", 13, 0, K_SUM}, {"LogSoftmax", "", 11, 0, K_SUM},
    {"LogSoftmax", "", 13, 0, K_SUM},
    {"Transpose", "", 1, 0, K_LAYOUT}, {"Transpose", "", 13, 0, K_LAYOUT}, {"Transpose", "", 21, 0, K_LAYOUT},
    {"Gather", "", 1, 0, K_LAYOUT}, {"Gather", "", 11, 0, K_LAYOUT}, {"Gather", "", 13, 0, K_LAYOUT},
    {"PRelu", "", 7, 1, K_BINARY}, {"PRelu", "", 9, 1, K_BINARY}, {"PRelu", "", 16, 1, K_BINARY},
    {"Sum", "", 1, 0, K_NSUM}, {"Sum", "", 6, 0, K_NSUM}, {"Sum", "", 8, 1, K_NSUM}, {"Sum", "", 13, 1, K_NSUM},
    {"Mean", "", 1, 0, K_NSUM}, {"Mean", "", 6, 0, K_NSUM}, {"Mean", "", 8, 1, K_NSUM}, {"Mean", "", 13, 1, K_NSUM},
    {"ConvTranspose", "", 1, 0, K_CONVT}, {"ConvTranspose", "", 11, 0, K_CONVT},
    {"Pad", "", 13, 0, K_REMAP}, {"Pad", "", 19, 0, K_REMAP}, {"Tile", "", 13, 0, K_REMAP},
    {"Expand", "", 13, 0, K_REMAP},
    {"BatchNormalization", "", 9, 0, K_NORM}, {"BatchNormalization", "", 15, 0, K_NORM},
    {"InstanceNormalization", "", 6, 0, K_NORM}, {"LayerNormalization", "", 17, 0, K_NORM},
    {"Pow", "", 15, 1, K_BINARY}, /* (its own kernels: binop_of gives MX_BINOPS) */
    {"RNN", "", 7, 0, K_RNN}, {"RNN", "", 14, 0, K_RNN}, {"GRU", "", 7, 0, K_RNN}, {"GRU", "", 14, 0, K_RNN},
    {"LSTM", "", 7, 0, K_RNN}, {"LSTM", "", 14, 0, K_RNN},
};
#define N_VERSIONS (sizeof versions / sizeof versions[0])

/* The wide products: Conv of 4 to 40 output channels in one group, MatMul
 * and Gemm of 4 to 52 rows over 1 to 71 columns, so that the products' last
 * slivers have 4, 8 and 12 rows (16: 12 and 4) and end in a part of a vector
 * or a few columns (gemm_x86.c's edge and column kernels); versions[]'s
 * sizes never make more than 3 channels a group, nor 8 rows. The first byte
 * picks them just past versions[] (bytes N_VERSIONS and up had wrapped onto
 * its first entries, which no seed used); the bytes past these still wrap
 * over versions[] alone, so that every seed keeps its meaning. */
static const version wide_versions[] = {
    {"Conv", "", 11, 0, K_CONV}, {"MatMul", "", 13, 1, K_PRODUCT}, {"Gemm", "", 13, 0, K_PRODUCT},
};
#define N_WIDE (sizeof wide_versions / sizeof wide_versions[0])
static const int64_t wide_rows[] = {4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 52, 5, 9, 13, 8};
static const int64_t wide_cols[] = {1, 2, 3, 4, 7, 8, 9, 16, 17, 20, 23, 24, 31, 39, 49, 71};

static const minnx_dtype dtypes[] = {MINNX_FLOAT,  MINNX_DOUBLE, MINNX_FLOAT16, MINNX_BFLOAT16, MINNX_INT8,
                                     MINNX_INT16,  MINNX_INT32,  MINNX_INT64,   MINNX_UINT8,    MINNX_UINT16,
                                     MINNX_UINT32, MINNX_UINT64, MINNX_BOOL}; /* bool: Cast's only */
#define N_NUMERIC 12

/* Dims: mostly small and odd, some 0, some long enough for a vector loop's body and remainder. */
static const int64_t dim_choices[] = {1, 2, 3, 5, 7, 0, 1, 16, 17, 33, 64, 65, 4, 9, 100, 1};

typedef struct {
  const version *v;
  int ver;               /* the opset: v's, or 13 for a Cast of bfloat16 */
  minnx_dtype t, to;     /* to: Cast's target */
  int lo, hi;            /* Clip's bounds present */
  uint32_t lo_attr, hi_attr; /* Clip-1 and -6: the bounds' float bits */
  int n_in, out_rank;
  int64_t out_dims[4];
  int rank[4];
  int64_t dims[4][5];
  int64_t axis, keepdims, last;
  uint32_t axes;         /* the reductions': bit d reduces axis d (none: all) */
  int64_t axes_list[4];
  /* the protobuf objects the edit points the model at */
  Onnx__TensorShapeProto__Dimension dim[4][5], *dimp[4][5];
  Onnx__TensorShapeProto shape[4];
  Onnx__TypeProto__Tensor tt[4];
  Onnx__TypeProto type[4];
  Onnx__ValueInfoProto *in_vi[4];
  Onnx__AttributeProto attr[8], *attrp[8];
  /* the one-operand ops: alpha, beta, gamma as float bits; Gelu's form (last: "tanh") */
  uint32_t args[3];
  /* MatMul and Gemm */
  int64_t m, n, k;
  int wide; /* one of wide_versions[]: Conv's channels, MatMul's and Gemm's M and N from the wide tables */
  int ta, tb, bcast, crank; /* crank: C's shape (product_c_shape), -1: no C */
  uint32_t alpha, beta;     /* float bits; 0x3f800000 each: the attributes are left out */
  /* Conv: its geometry (computed here from the spec's formulas), auto_pad
   * (0 NOTSET, 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID), the pads given, the
   * attributes' lists (kernel_shape, strides, dilations, pads) */
  mx_conv_geom geom;
  mx_pool_geom pool; /* the pools' (auto_pad and sp as Conv's; ceil_mode in keepdims) */
  int sp, auto_pad, bias;
  int64_t pads[6], conv_ints[4][6];
  /* ConvTranspose: output_shape given; the lists output_padding and output_shape */
  int oshape;
  int64_t convt_ints[2][3];
  mx_remap_params remap; /* Pad, Tile, Expand: what the reference loop is given */
  int64_t shape_arg[16]; /* their int64 input (pads, repeats, shape), a graph input */
  mx_rnn rnn;            /* RNN, GRU, LSTM: what the reference loop is given */
  int rnn_dir_attr;      /* direction written when forward */
} node_spec;

/* Input k's dtype: CastLike's second is the target's. */
static minnx_dtype in_dtype(const node_spec *s, int k) {
  if (s->v->kind == K_REMAP && k == 1) return MINNX_INT64;
  return (s->v->kind == K_CASTLIKE || s->v->kind == K_LAYOUT) && k == 1 ? s->to : s->t;
}

static void set_type(node_spec *s, int k) {
  onnx__tensor_shape_proto__init(&s->shape[k]);
  for (int d = 0; d < s->rank[k]; d++) {
    onnx__tensor_shape_proto__dimension__init(&s->dim[k][d]);
    s->dim[k][d].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    s->dim[k][d].dim_value = s->dims[k][d];
    s->dimp[k][d] = &s->dim[k][d];
  }
  s->shape[k].n_dim = (size_t)s->rank[k];
  s->shape[k].dim = s->dimp[k];
  onnx__type_proto__tensor__init(&s->tt[k]);
  s->tt[k].has_elem_type = 1;
  s->tt[k].elem_type = (int32_t)in_dtype(s, k);
  s->tt[k].shape = &s->shape[k];
  onnx__type_proto__init(&s->type[k]);
  s->type[k].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  s->type[k].tensor_type = &s->tt[k];
}

static void int_attr(node_spec *s, int i, const char *name, int64_t v) {
  onnx__attribute_proto__init(&s->attr[i]);
  s->attr[i].name = (char *)name;
  s->attr[i].has_type = 1;
  s->attr[i].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
  s->attr[i].has_i = 1;
  s->attr[i].i = v;
  s->attrp[i] = &s->attr[i];
}

static void edit_cast_clip(Onnx__ModelProto *m, node_spec *s);
static void edit_unary(Onnx__ModelProto *m, node_spec *s);

/* The reductions take axes as an attribute before 18 (ReduceSum: 13). */
static int axes_attribute(const version *v) { return v->version < (strcmp(v->op, "ReduceSum") == 0 ? 13 : 18); }
static void edit_product(Onnx__ModelProto *m, node_spec *s);
static void edit_conv(Onnx__ModelProto *m, node_spec *s);
static void edit_convt(Onnx__ModelProto *m, node_spec *s);
static void edit_pool(Onnx__ModelProto *m, node_spec *s);
static void edit_layout(Onnx__ModelProto *m, node_spec *s);
static void edit_rnn(Onnx__ModelProto *m, node_spec *s);

/* Each input with its own shape; ArgMax's attributes. */
static void edit(Onnx__ModelProto *m, void *ctx) {
  node_spec *s = ctx;
  for (int k = 0; k < s->n_in; k++) {
    set_type(s, k);
    m->graph->input[k]->type = &s->type[k];
  }
  if (s->v->kind == K_PRODUCT) {
    edit_product(m, s);
    return;
  }
  if (s->v->kind == K_CONV) {
    edit_conv(m, s);
    return;
  }
  if (s->v->kind == K_CONVT) {
    edit_convt(m, s);
    return;
  }
  if (s->v->kind == K_POOL) {
    edit_pool(m, s);
    return;
  }
  if (s->v->kind == K_RNN) {
    edit_rnn(m, s);
    return;
  }
  if (s->v->kind == K_BINARY || s->v->kind == K_NSUM) return; /* no attributes */
  if (s->v->kind == K_NORM) { /* LayerNormalization's axis; the others' defaults */
    if (s->v->op[0] == 'L') {
      int_attr(s, 0, "axis", s->axis);
      m->graph->node[0]->n_attribute = 1;
      m->graph->node[0]->attribute = s->attrp;
    }
    return;
  }
  if (s->v->kind == K_UNARY) {
    edit_unary(m, s);
    return;
  }
  if (s->v->kind == K_SUM && strncmp(s->v->op, "Reduce", 6) != 0) { /* Softmax, LogSoftmax */
    int_attr(s, 0, "axis", s->axis);
    m->graph->node[0]->n_attribute = 1;
    m->graph->node[0]->attribute = s->attrp;
    return;
  }
  if (s->v->kind == K_LAYOUT) {
    edit_layout(m, s);
    return;
  }
  if (s->v->kind == K_REMAP) {
    static const char *const modes[] = {"constant", "edge", "reflect", "wrap"};
    if (s->v->op[0] != 'P') return;
    int_attr(s, 0, "mode", 0);
    s->attr[0].has_i = 0;
    s->attr[0].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    s->attr[0].has_s = 1;
    s->attr[0].s.data = (uint8_t *)modes[s->remap.mode];
    s->attr[0].s.len = strlen(modes[s->remap.mode]);
    m->graph->node[0]->n_attribute = 1;
    m->graph->node[0]->attribute = s->attrp;
    return;
  }
  if (s->v->kind != K_EXTREMUM && s->v->kind != K_SUM) {
    edit_cast_clip(m, s);
    return;
  }
  if (strncmp(s->v->op, "Arg", 3) == 0) {
    int n = 0;
    int_attr(s, n++, "axis", s->axis);
    int_attr(s, n++, "keepdims", s->keepdims);
    if (s->v->version >= 12) int_attr(s, n++, "select_last_index", s->last);
    m->graph->node[0]->n_attribute = (size_t)n;
    m->graph->node[0]->attribute = s->attrp;
  }
  if (strncmp(s->v->op, "Reduce", 6) == 0) {
    int n = 0;
    int_attr(s, n++, "keepdims", s->keepdims);
    if (axes_attribute(s->v) && s->axes) { /* listed from the last, negative ones from 11 */
      size_t k = 0;
      for (int d = s->rank[0]; d-- > 0;)
        if (s->axes >> d & 1) s->axes_list[k++] = s->v->version >= 11 && (s->last || d % 2) ? d - s->rank[0] : d;
      int_attr(s, n, "axes", 0);
      s->attr[n].has_i = 0;
      s->attr[n].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
      s->attr[n].n_ints = k;
      s->attr[n++].ints = s->axes_list;
    }
    m->graph->node[0]->n_attribute = (size_t)n;
    m->graph->node[0]->attribute = s->attrp;
  }
}

static void float_attr(node_spec *s, int i, const char *name, uint32_t bits) {
  int_attr(s, i, name, 0);
  s->attr[i].has_i = 0;
  s->attr[i].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
  s->attr[i].has_f = 1;
  memcpy(&s->attr[i].f, &bits, sizeof bits);
}

/* The one-operand ops' attributes: each that the op has, always given. */
static void edit_unary(Onnx__ModelProto *m, node_spec *s) {
  const char *op = s->v->op;
  int n = 0;
  if (!strcmp(op, "LeakyRelu") || !strcmp(op, "HardSigmoid") || !strcmp(op, "Elu") || !strcmp(op, "Selu"))
    float_attr(s, n++, "alpha", s->args[0]);
  if (!strcmp(op, "HardSigmoid")) float_attr(s, n++, "beta", s->args[1]);
  if (!strcmp(op, "Selu")) float_attr(s, n++, "gamma", s->args[2]);
  if (!strcmp(op, "Gelu") && s->last) {
    int_attr(s, n, "approximate", 0);
    s->attr[n].has_i = 0;
    s->attr[n].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    s->attr[n].has_s = 1;
    s->attr[n].s.data = (uint8_t *)"tanh";
    s->attr[n++].s.len = 4;
  }
  m->graph->node[0]->n_attribute = (size_t)n;
  m->graph->node[0]->attribute = s->attrp;
}

/* Cast's `to` (Cast-1: by name) and saturate (19); Clip-1 and -6's bounds. */
static void edit_cast_clip(Onnx__ModelProto *m, node_spec *s) {
  static const char *const names[] = {[MINNX_FLOAT] = "FLOAT",     [MINNX_UINT8] = "UINT8",   [MINNX_INT8] = "INT8",
                                      [MINNX_UINT16] = "UINT16",   [MINNX_INT16] = "INT16",   [MINNX_INT32] = "INT32",
                                      [MINNX_INT64] = "INT64",     [MINNX_BOOL] = "BOOL",     [MINNX_FLOAT16] = "FLOAT16",
                                      [MINNX_DOUBLE] = "DOUBLE",   [MINNX_UINT32] = "UINT32", [MINNX_UINT64] = "UINT64",
                                      [MINNX_BFLOAT16] = "BFLOAT16"};
  int n = 0;
  if (s->v->kind == K_CAST) {
    int_attr(s, n, "to", (int64_t)s->to);
    if (s->ver == 1) {
      s->attr[n].has_i = 0;
      s->attr[n].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
      s->attr[n].has_s = 1;
      s->attr[n].s.data = (uint8_t *)names[s->to];
      s->attr[n].s.len = strlen(names[s->to]);
    }
    n++;
  }
  if (s->v->kind != K_CLIP && s->ver >= 19 && s->last) int_attr(s, n++, "saturate", s->keepdims);
  if (s->v->kind == K_CLIP && s->ver < 11) {
    if (s->lo) float_attr(s, n++, "min", s->lo_attr);
    if (s->hi) float_attr(s, n++, "max", s->hi_attr);
  }
  m->graph->node[0]->n_attribute = (size_t)n;
  m->graph->node[0]->attribute = s->attrp;
}

/* Gemm's attributes: the transposes, alpha and beta when not 1, broadcast (1, 6). */
static void edit_product(Onnx__ModelProto *m, node_spec *s) {
  int n = 0;
  if (strcmp(s->v->op, "Gemm") != 0) return;
  if (s->ta || s->last) int_attr(s, n++, "transA", s->ta);
  if (s->tb || s->last) int_attr(s, n++, "transB", s->tb);
  if (s->alpha != 0x3f800000) float_attr(s, n++, "alpha", s->alpha);
  if (s->beta != 0x3f800000) float_attr(s, n++, "beta", s->beta);
  if (s->ver < 7 && (s->bcast || s->last)) int_attr(s, n++, "broadcast", s->bcast);
  m->graph->node[0]->n_attribute = (size_t)n;
  m->graph->node[0]->attribute = s->attrp;
}

/* Transpose's perm, when chosen; Gather's axis. */
static void edit_layout(Onnx__ModelProto *m, node_spec *s) {
  int n = 0;
  if (s->v->op[0] == 'G') int_attr(s, n++, "axis", s->axis);
  else if (s->keepdims) {
    int_attr(s, n, "perm", 0);
    s->attr[n].has_i = 0;
    s->attr[n].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
    s->attr[n].n_ints = (size_t)s->rank[0];
    s->attr[n++].ints = s->axes_list;
  }
  m->graph->node[0]->n_attribute = (size_t)n;
  m->graph->node[0]->attribute = s->attrp;
}

/* Gemm's C shapes: [] [1] [N] [1,N] [M,1] [M,N] [1,1]; what each version
 * allows (the others are refused at load, which is fine too). */
static int product_c_shape(const node_spec *s, int64_t *dims) {
  switch (s->crank) {
    case 0: return 0;
    case 1: dims[0] = 1; return 1;
    case 2: dims[0] = s->n; return 1;
    case 3: dims[0] = 1, dims[1] = s->n; return 2;
    case 4: dims[0] = s->m, dims[1] = 1; return 2;
    case 5: dims[0] = s->m, dims[1] = s->n; return 2;
    default: dims[0] = dims[1] = 1; return 2;
  }
}

static const int64_t product_dims[] = {1, 2, 3, 5, 7, 12, 13, 16, 17, 31, 33, 1, 4, 64, 65, 100};
static const uint32_t product_scales[] = {0x3f800000, 0x3f800000, 0x00000000, 0xbf800000, 0x40000000,
                                          0x3f000000, 0xc0400000, 0x3fc00000};

static void choose_product(bytes *b, node_spec *s) {
  static const minnx_dtype types[] = {MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE, MINNX_FLOAT, MINNX_INT32, MINNX_INT64,
                                      MINNX_UINT32, MINNX_UINT64, MINNX_BFLOAT16};
  unsigned d = take(b);
  s->t = types[d % (s->ver >= 13 ? 9u : s->ver >= 9 ? 8u : 4u)];
  s->m = (s->wide ? wide_rows : product_dims)[take(b) % 16];
  s->n = (s->wide ? wide_cols : product_dims)[take(b) % 16];
  s->k = take(b) & 0x80 ? product_dims[take(b) % 16] * 3 + 1 : product_dims[take(b) % 16];
  if (take(b) % 16 == 0) s->k = 0;
  unsigned a = take(b);
  s->last = a >> 7 & 1; /* write the default-valued attributes too */
  if (strcmp(s->v->op, "MatMul") == 0) {
    /* ranks 1..4: a 1-D operand now and then, batch dims broadcast */
    int ra = 1 + (int)(a % 4), rb = 1 + (int)(a / 4 % 4);
    int64_t batch[2] = {product_dims[take(b) % 6], product_dims[take(b) % 6]};
    unsigned ones = take(b);
    s->n_in = 2;
    s->rank[0] = ra, s->rank[1] = rb;
    for (int x = 0; x < 2; x++) {
      int r = s->rank[x];
      for (int q = 0; q < r - 2; q++) s->dims[x][q] = ones >> (4 * x + q) & 1 ? 1 : batch[q + 4 - r];
    }
    if (ra == 1) s->dims[0][0] = s->k;
    else s->dims[0][ra - 2] = s->m, s->dims[0][ra - 1] = s->k;
    if (rb == 1) s->dims[1][0] = s->k;
    else s->dims[1][rb - 2] = s->k, s->dims[1][rb - 1] = s->n;
    return;
  }
  s->ta = a & 1, s->tb = a >> 1 & 1, s->bcast = a >> 2 & 1;
  s->alpha = product_scales[take(b) % 8], s->beta = product_scales[take(b) % 8];
  s->crank = (int)(take(b) % 8) - 1; /* -1: no C (from 11; before it, refused) */
  s->n_in = s->crank < 0 ? 2 : 3;
  s->rank[0] = s->rank[1] = 2;
  s->dims[0][0] = s->ta ? s->k : s->m, s->dims[0][1] = s->ta ? s->m : s->k;
  s->dims[1][0] = s->tb ? s->n : s->k, s->dims[1][1] = s->tb ? s->k : s->n;
  if (s->crank >= 0) s->rank[2] = product_c_shape(s, s->dims[2]);
}

/* Conv: the attributes the node writes (the defaults too when s->last). */
static void ints_attr(node_spec *s, int i, const char *name, const int64_t *v, size_t n) {
  int_attr(s, i, name, 0);
  s->attr[i].has_i = 0;
  s->attr[i].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
  s->attr[i].n_ints = n;
  s->attr[i].ints = (int64_t *)v;
}

static void edit_conv(Onnx__ModelProto *m, node_spec *s) {
  static const char *const modes[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  int n = 0;
  size_t sp = (size_t)s->sp;
  if (s->last) ints_attr(s, n++, "kernel_shape", s->conv_ints[0], sp);
  ints_attr(s, n++, "strides", s->conv_ints[1], sp);
  ints_attr(s, n++, "dilations", s->conv_ints[2], sp);
  if (s->auto_pad == 0) ints_attr(s, n++, "pads", s->conv_ints[3], 2 * sp);
  if (s->auto_pad || s->last) {
    int_attr(s, n, "auto_pad", 0);
    s->attr[n].has_i = 0;
    s->attr[n].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    s->attr[n].has_s = 1;
    s->attr[n].s.data = (uint8_t *)modes[s->auto_pad];
    s->attr[n++].s.len = strlen(modes[s->auto_pad]);
  }
  if (s->geom.group != 1 || s->last) int_attr(s, n++, "group", s->geom.group);
  m->graph->node[0]->n_attribute = (size_t)n;
  m->graph->node[0]->attribute = s->attrp;
}

/* ConvTranspose: Conv's attributes, output_padding (when not zero, or
 * s->last) and output_shape (when s->oshape). */
static void edit_convt(Onnx__ModelProto *m, node_spec *s) {
  edit_conv(m, s);
  int n = (int)m->graph->node[0]->n_attribute;
  size_t sp = (size_t)s->sp;
  int op = s->last;
  for (int d = 0; d < s->sp; d++) op = op || s->convt_ints[0][d] != 0;
  if (op) ints_attr(s, n++, "output_padding", s->convt_ints[0], sp);
  if (s->oshape) ints_attr(s, n++, "output_shape", s->convt_ints[1], sp);
  m->graph->node[0]->n_attribute = (size_t)n;
}

static int64_t floor_half(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

/* ConvTranspose's shapes: Conv's choices, output_padding below the stride
 * or the dilation, output_shape within two of the full size either way
 * (negative totals included); the geometry from the spec's formulas (each
 * version's split), apart from convt.c's. */
static void choose_convt(bytes *b, node_spec *s) {
  static const minnx_dtype types[] = {MINNX_FLOAT, MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE};
  static const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 9, 16};
  mx_conv_geom *g = &s->geom;
  s->t = types[take(b) % 4];
  unsigned a = take(b), gs = take(b);
  s->sp = 1 + (int)(a % 3);
  s->bias = a >> 2 & 1;
  s->auto_pad = (int)(a >> 3 & 3);
  s->last = a >> 5 & 1;
  s->oshape = a >> 6 & 1;
  int64_t cg = 1 + gs % 4, mg = 1 + (gs >> 2) % 3;
  g->group = 1 + (gs >> 4) % 3;
  if (gs & 0x40) g->group = sizes[take(b) % 8], cg = 1; /* depthwise (with a multiplier mg) */
  g->n = 1 + take(b) % 2, g->c = cg * g->group, g->m = mg * g->group;
  s->n_in = s->bias ? 3 : 2;
  s->rank[0] = s->rank[1] = s->sp + 2, s->rank[2] = 1;
  s->dims[0][0] = g->n, s->dims[0][1] = g->c, s->dims[1][0] = g->c, s->dims[1][1] = mg, s->dims[2][0] = g->m;
  for (int d = 0; d < 3; d++) g->in[d] = g->k[d] = g->out[d] = g->stride[d] = g->dil[d] = 1, g->pad[d] = 0;
  for (int d = 0; d < s->sp; d++) {
    int at = 3 - s->sp + d;
    int64_t in = sizes[take(b) % 8], k = 1 + take(b) % 3, st = 1 + take(b) % 3, dl = 1 + take(b) % 2;
    int64_t pb = take(b) % 3, pe = take(b) % 3, op = take(b) % (st > dl ? st : dl), shape = 0, out;
    int64_t full = st * (in - 1) + op + (k - 1) * dl + 1;
    if (s->auto_pad) pb = pe = 0;
    if (s->oshape || s->auto_pad == 1 || s->auto_pad == 2) {
      if (s->oshape) {
        shape = full - 2 + take(b) % 5;
        if (shape < 1) shape = 1;
        out = shape;
      } else {
        out = s->ver >= 11 ? in * st : in;
      }
      int64_t total = full - out, upper = s->auto_pad == 1;
      if (s->oshape && s->ver < 11) upper = !upper;
      g->pad[at] = upper ? floor_half(total) : total - floor_half(total);
    } else {
      if (full - pb - pe < 1) pb = pe = 0;
      out = full - pb - pe;
      g->pad[at] = pb;
    }
    g->in[at] = in, g->k[at] = k, g->stride[at] = st, g->dil[at] = dl, g->out[at] = out;
    s->dims[0][2 + d] = in, s->dims[1][2 + d] = k;
    s->conv_ints[0][d] = k, s->conv_ints[1][d] = st, s->conv_ints[2][d] = dl;
    s->conv_ints[3][d] = pb, s->conv_ints[3][s->sp + d] = pe;
    s->convt_ints[0][d] = op, s->convt_ints[1][d] = shape;
  }
}

/* Conv's shapes: small spatial dims, kernels up to 3 (dilated up to 2),
 * strides up to 3, pads up to 2; the input widened where the kernel would
 * not fit (else load refuses it, which is fine but wasted). The geometry
 * from the spec's formulas, apart from conv.c's. */
static void choose_conv(bytes *b, node_spec *s) {
  static const minnx_dtype types[] = {MINNX_FLOAT, MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE};
  static const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 9, 16};
  mx_conv_geom *g = &s->geom;
  s->t = types[take(b) % 4];
  unsigned a = take(b), gs = take(b);
  s->sp = 1 + (int)(a % 3);
  s->bias = a >> 2 & 1;
  s->auto_pad = (int)(a >> 3 & 3);
  s->last = a >> 5 & 1;
  int point = a >> 6 & 1;
  int64_t cg = 1 + gs % 4, mg = 1 + (gs >> 2) % 3;
  g->group = 1 + (gs >> 4) % 3;
  if (s->wide) g->group = 1, mg = wide_rows[(gs >> 2) % 10]; /* 4 to 40 channels: slivers of 4, 8, 12 rows */
  else if (gs & 0x40) g->group = sizes[take(b) % 8], cg = 1; /* depthwise (with a multiplier mg) */
  g->n = 1 + take(b) % 2, g->c = cg * g->group, g->m = mg * g->group;
  if (point) s->auto_pad = 0;
  s->n_in = s->bias ? 3 : 2;
  s->rank[0] = s->rank[1] = s->sp + 2, s->rank[2] = 1;
  s->dims[0][0] = g->n, s->dims[0][1] = g->c, s->dims[1][0] = g->m, s->dims[1][1] = cg, s->dims[2][0] = g->m;
  for (int d = 0; d < 3; d++) g->in[d] = g->k[d] = g->out[d] = g->stride[d] = g->dil[d] = 1, g->pad[d] = 0;
  for (int d = 0; d < s->sp; d++) {
    int at = 3 - s->sp + d;
    unsigned ti = take(b); /* 16 or, with bit 3, 40: rows of depthwise 3x3 blocks (dwconv.c's direct33) */
    int64_t in = ti % 8 == 7 && ti >> 3 & 1 ? 40 : sizes[ti % 8], k = 1 + take(b) % 3, st = 1 + take(b) % 3;
    int64_t dl = 1 + take(b) % 2;
    int64_t pb = take(b) % 3, pe = take(b) % 3;
    if (point) k = 1, st = 1, pb = pe = 0;
    if (s->auto_pad) pb = pe = 0;
    int64_t dk = (k - 1) * dl + 1;
    if (in + pb + pe < dk) in = dk - pb - pe;
    int64_t out = (in + pb + pe - dk) / st + 1;
    if (s->auto_pad == 1 || s->auto_pad == 2) { /* out = ceil(in / stride), the odd pad at the end (UPPER) */
      out = (in + st - 1) / st;
      int64_t total = (out - 1) * st + dk - in;
      if (total < 0) total = 0;
      pb = s->auto_pad == 1 ? total / 2 : total - total / 2;
    }
    g->in[at] = in, g->k[at] = k, g->stride[at] = st, g->dil[at] = dl, g->pad[at] = pb, g->out[at] = out;
    s->dims[0][2 + d] = in, s->dims[1][2 + d] = k;
    s->conv_ints[0][d] = k, s->conv_ints[1][d] = st, s->conv_ints[2][d] = dl;
    s->conv_ints[3][d] = pb, s->conv_ints[3][s->sp + d] = pe;
  }
}

/* The pools' attributes: the window's, with the defaults too when s->last;
 * storage_order (MaxPool 8+), ceil_mode (10+), count_include_pad (AveragePool
 * 7+). */
static void edit_pool(Onnx__ModelProto *m, node_spec *s) {
  static const char *const modes[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  int n = 0, max = s->v->op[0] == 'M';
  size_t sp = (size_t)s->sp;
  if (s->v->op[0] == 'G') return;
  ints_attr(s, n++, "kernel_shape", s->conv_ints[0], sp);
  ints_attr(s, n++, "strides", s->conv_ints[1], sp);
  if (s->ver >= (max ? 10 : 19)) ints_attr(s, n++, "dilations", s->conv_ints[2], sp);
  if (s->auto_pad == 0) ints_attr(s, n++, "pads", s->conv_ints[3], 2 * sp);
  if (s->auto_pad) {
    int_attr(s, n, "auto_pad", 0);
    s->attr[n].has_i = 0;
    s->attr[n].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    s->attr[n].has_s = 1;
    s->attr[n].s.data = (uint8_t *)modes[s->auto_pad];
    s->attr[n++].s.len = strlen(modes[s->auto_pad]);
  }
  if (s->ver >= 10 && (s->keepdims || s->last)) int_attr(s, n++, "ceil_mode", s->keepdims);
  if (!max && s->ver >= 7 && (s->pool.include_pad || s->last)) int_attr(s, n++, "count_include_pad", s->pool.include_pad);
  m->graph->node[0]->n_attribute = (size_t)n;
  m->graph->node[0]->attribute = s->attrp;
}

/* The pools' shapes, from the spec's rules here (apart from window.c's):
 * the output's size with ceil_mode (less a last window starting in the end
 * padding), SAME's padding; windows wholly in padding are left to load to
 * refuse. */
static void choose_pool(bytes *b, node_spec *s) {
  static const minnx_dtype types[] = {MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE, MINNX_FLOAT, MINNX_INT8, MINNX_UINT8};
  static const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 9, 16};
  mx_pool_geom *g = &s->pool;
  mx_window *w = &g->w;
  int max = s->v->op[0] == 'M' || s->v->op[6] == 'M', global = s->v->op[0] == 'G';
  s->t = types[take(b) % (max && s->ver >= 12 ? 6u : 4u)];
  unsigned a = take(b);
  s->sp = 1 + (int)(a % 3);
  s->auto_pad = (int)(a >> 2 & 3);
  s->last = a >> 4 & 1;
  s->keepdims = s->ver >= 10 && !global && (a >> 5 & 1); /* ceil_mode */
  g->avg = !max;
  g->include_pad = !max && s->ver >= 7 && !global && (a >> 6 & 1);
  int dilations = s->ver >= (max ? 10 : 19) && !global;
  s->n_in = 1;
  s->rank[0] = s->sp + 2;
  s->dims[0][0] = 1 + take(b) % 2, s->dims[0][1] = 1 + take(b) % 4;
  g->planes = s->dims[0][0] * s->dims[0][1];
  for (int d = 0; d < 3; d++) w->in[d] = w->k[d] = w->out[d] = w->stride[d] = w->dil[d] = 1, w->pad[d] = w->pad_end[d] = 0;
  if (global) {
    int64_t plane = 1;
    for (int d = 0; d < s->sp; d++) plane *= s->dims[0][2 + d] = sizes[take(b) % 8];
    w->in[2] = w->k[2] = plane;
    return;
  }
  for (int d = 0; d < s->sp; d++) {
    int at = 3 - s->sp + d;
    unsigned ti = take(b); /* 16 or, with bit 3, 37: stride-2 rows of 8 outputs and more (pool_rows.c.in's strips) */
    int64_t in = ti % 8 == 7 && ti >> 3 & 1 ? 37 : sizes[ti % 8], k = 1 + take(b) % 3, st = 1 + take(b) % 3;
    int64_t dl = dilations ? 1 + take(b) % 2 : 1;
    int64_t pb = take(b) % 3, pe = take(b) % 3, out;
    if (s->auto_pad) pb = pe = 0;
    int64_t dk = (k - 1) * dl + 1;
    if (in + pb + pe < dk) in = dk - pb - pe;
    if (s->auto_pad == 1 || s->auto_pad == 2) {
      out = (in + st - 1) / st;
      int64_t total = (out - 1) * st + dk - in;
      if (total < 0) total = 0;
      pb = s->auto_pad == 1 ? total / 2 : total - total / 2;
      pe = total - pb;
    } else {
      out = (in + pb + pe - dk) / st + 1;
      if (s->keepdims && (in + pb + pe - dk) % st && out * st < in + pb) out++;
    }
    w->in[at] = in, w->k[at] = k, w->stride[at] = st, w->dil[at] = dl, w->pad[at] = pb, w->pad_end[at] = pe, w->out[at] = out;
    s->dims[0][2 + d] = in;
    s->conv_ints[0][d] = k, s->conv_ints[1][d] = st, s->conv_ints[2][d] = dl;
    s->conv_ints[3][d] = pb, s->conv_ints[3][s->sp + d] = pe;
  }
}

static uint64_t special(minnx_dtype t, unsigned i);

static void choose_cast_clip(bytes *b, node_spec *s) {
  if (s->v->kind == K_CLIP) { /* 1, 6, 11: floats; 12: and integers; 13: and bfloat16 */
    unsigned d = take(b);
    s->t = dtypes[s->ver < 12 ? d % 3 : d % N_NUMERIC];
    if (s->ver == 12 && s->t == MINNX_BFLOAT16) s->t = MINNX_FLOAT;
    unsigned bounds = take(b);
    s->lo = bounds & 1, s->hi = bounds >> 1 & 1;
    s->n_in = 1 + (s->ver >= 11 ? s->lo + s->hi : 0);
    uint64_t v = 0;
    for (int k = 0; k < 4; k++) v |= (uint64_t)take(b) << 8 * k;
    s->lo_attr = bounds & 4 ? (uint32_t)v : (uint32_t)special(MINNX_FLOAT, (unsigned)v);
    s->hi_attr = bounds & 8 ? (uint32_t)(v >> 8) : (uint32_t)special(MINNX_FLOAT, (unsigned)(v >> 16));
  } else {
    s->t = dtypes[take(b) % (sizeof dtypes / sizeof dtypes[0])];
    s->to = dtypes[take(b) % (sizeof dtypes / sizeof dtypes[0])];
    if ((s->t == MINNX_BFLOAT16 || s->to == MINNX_BFLOAT16) && s->ver < 13) s->ver = 13;
    s->n_in = s->v->kind == K_CASTLIKE ? 2 : 1;
  }
  s->out_rank = (int)(take(b) % 5);
  for (int d = 0; d < s->out_rank; d++) s->out_dims[d] = dim_choices[take(b) % 16];
  s->rank[0] = s->rank[1] = s->out_rank;
  memcpy(s->dims[0], s->out_dims, sizeof s->out_dims);
  memcpy(s->dims[1], s->out_dims, sizeof s->out_dims);
  if (s->v->kind == K_CLIP) s->rank[1] = s->rank[2] = 0; /* the bounds: scalars */
  unsigned a = take(b);
  s->keepdims = a & 1, s->last = a >> 1 & 1; /* saturate's value, and whether it is given */
}

/* (Pow, which has kernels of its own, is MX_BINOPS) */
static mx_binop binop_of(const char *op) {
  if (strcmp(op, "Pow") == 0) return MX_BINOPS;
  static const char *const names[MX_BINOPS] = {"Add", "Sub", "Mul", "Div", "PRelu", "Equal", "Greater",
                                               "Less", "GreaterOrEqual", "LessOrEqual", "And",   "Or",      "Xor"};
  int k = 0;
  while (strcmp(names[k], op) != 0) k++;
  return (mx_binop)k;
}

/* The one-operand op of a K_UNARY version: the versions list them in mx_unop's order. */
static mx_unop unop_of(const node_spec *s) {
  size_t first = 0;
  while (versions[first].kind != K_UNARY) first++;
  mx_unop op = (mx_unop)(s->v - &versions[first]);
  return op == MX_GELU && s->last ? MX_GELU_TANH : op;
}

/* A one-operand node: a dtype, a shape, and attributes from a few telling values (negative, zero,
 * NaN, huge) or any bits. */
static void choose_unary(bytes *b, node_spec *s) {
  static const uint32_t picks[] = {0x3c23d70a, 0x3e4ccccd, 0x3f000000, 0x3f800000, 0xc0000000,
                                   0x00000000, 0x7fc00000, 0x7f7fffff, 0x3fd62d7d, 0x3f867d5f};
  s->t = dtypes[take(b) % N_NUMERIC];
  s->n_in = 1;
  s->out_rank = (int)(take(b) % 5);
  for (int d = 0; d < s->out_rank; d++) s->out_dims[d] = dim_choices[take(b) % 16];
  s->rank[0] = s->out_rank;
  memcpy(s->dims[0], s->out_dims, sizeof s->out_dims);
  for (int k = 0; k < 3; k++) {
    unsigned sel = take(b);
    s->args[k] = sel < 200 ? picks[sel % 10] : (uint32_t)take(b) | (uint32_t)take(b) << 8 | (uint32_t)take(b) << 16 |
                                                  (uint32_t)take(b) << 24;
  }
  s->last = take(b) & 1;
}
static void choose_conv(bytes *b, node_spec *s);
static void choose_convt(bytes *b, node_spec *s);
static void choose_pool(bytes *b, node_spec *s);
/* Gather: data of rank 1 to 4, the axis (negative from 11), indices of rank
 * 0 to 2 and dtype int64 or int32 (s->to), none when the axis is empty. */
static void choose_gather(bytes *b, node_spec *s) {
  if (s->rank[0] == 0) s->rank[0] = 1, s->dims[0][0] = 3;
  unsigned a = take(b);
  s->axis = (int64_t)(a % (unsigned)s->rank[0]);
  s->n_in = 2;
  s->to = a & 0x40 ? MINNX_INT32 : MINNX_INT64;
  s->rank[1] = (int)(take(b) % 3);
  if (s->rank[1] > 5 - s->rank[0]) s->rank[1] = 5 - s->rank[0]; /* out_dims holds 4: rank[0] - 1 + rank[1] <= 4 */
  /* an empty axis has no index in range: an empty list then (a scalar index is one) */
  if (s->dims[0][s->axis] == 0 && s->rank[1] == 0) s->rank[1] = 1;
  for (int d = 0; d < s->rank[1]; d++) s->dims[1][d] = s->dims[0][s->axis] == 0 ? 0 : dim_choices[take(b) % 6];
  s->out_rank = 0;
  for (int d = 0; d < s->axis; d++) s->out_dims[s->out_rank++] = s->dims[0][d];
  for (int d = 0; d < s->rank[1]; d++) s->out_dims[s->out_rank++] = s->dims[1][d];
  for (int d = (int)s->axis + 1; d < s->rank[0]; d++) s->out_dims[s->out_rank++] = s->dims[0][d];
  if (s->ver >= 11 && (a & 0x80)) s->axis -= s->rank[0];
}

/* Indices in range: [-dim, dim) from Gather-11, [0, dim) before. */
static void fill_indices(bytes *b, const node_spec *s, unsigned char *x, int64_t count) {
  int64_t dim = s->dims[0][s->axis < 0 ? s->axis + s->rank[0] : s->axis];
  for (int64_t i = 0; i < count; i++) {
    int64_t k = (int64_t)((take(b) | (unsigned)take(b) << 8) % (unsigned)(s->ver >= 11 ? 2 * dim : dim));
    if (s->ver >= 11) k -= dim;
    if (s->to == MINNX_INT32) {
      int32_t v = (int32_t)k;
      memcpy(x + i * 4, &v, 4);
    } else {
      memcpy(x + i * 8, &k, 8);
    }
  }
}

/* The layout ops: any dtype (bfloat16 at 13 at least); Transpose's perm
 * (axes_list; keepdims 0: none, the dims reversed). */
static void choose_layout(bytes *b, node_spec *s) {
  s->t = dtypes[take(b) % 13];
  if (s->t == MINNX_BFLOAT16 && s->ver < 13) s->ver = 13;
  s->n_in = 1;
  s->rank[0] = s->out_rank = (int)(take(b) % 5);
  for (int d = 0; d < s->rank[0]; d++) s->dims[0][d] = dim_choices[take(b) % 16];
  s->keepdims = take(b) & 1;
  for (int d = 0; d < s->rank[0]; d++) s->axes_list[d] = s->keepdims ? d : s->rank[0] - 1 - d;
  for (int d = s->rank[0] - 1; d > 0 && s->keepdims; d--) { /* Fisher-Yates */
    int j = (int)(take(b) % (unsigned)(d + 1));
    int64_t t = s->axes_list[d];
    s->axes_list[d] = s->axes_list[j], s->axes_list[j] = t;
  }
  for (int d = 0; d < s->rank[0]; d++) s->out_dims[d] = s->dims[0][s->axes_list[d]];
  if (s->v->op[0] == 'G') choose_gather(b, s);
}

/* Pad (every mode its version has; pads from -2 to 3, kept valid: no
 * reflect beyond the kept length - 1, nothing extended from an empty axis;
 * a constant_value input or none), Tile (counts 0 to 3) and Expand (dims of
 * 1 broadcast, 1s in the shape kept, up to two dims prefixed, to rank 4 at
 * most): any dtype, ranks 0 to 4; the int64 input a graph input, bound with the data. */
static void choose_remap(bytes *b, node_spec *s) {
  mx_remap_params *p = &s->remap;
  char op = s->v->op[0];
  s->t = dtypes[take(b) % 13];
  s->n_in = 2;
  s->rank[0] = (int)(take(b) % 5);
  for (int d = 0; d < s->rank[0]; d++) s->dims[0][d] = dim_choices[take(b) % 16] % 12;
  int extra = op == 'E' ? (int)(take(b) % 3) : 0;
  if (s->rank[0] + extra > 4) extra = 4 - s->rank[0]; /* out_dims holds 4 */
  int r = s->rank[0] + extra;
  *p = (mx_remap_params){.rank = r ? r : 1, .elem = minnx_dtype_size(s->t)};
  p->in_dims[0] = p->out_dims[0] = p->n[0] = 1;
  p->mode = op == 'P' ? (int)(take(b) % (s->ver >= 19 ? 4u : 3u)) : op == 'T' ? MX_REMAP_WRAP : MX_REMAP_EDGE;
  s->out_rank = r;
  s->rank[1] = 1;
  s->dims[1][0] = op == 'P' ? 2 * r : r;
  for (int d = 0; d < r; d++) {
    int64_t dim = d < extra ? 1 : s->dims[0][d - extra], out;
    p->in_dims[d] = p->n[d] = dim;
    if (op == 'P') {
      int64_t bg = (int64_t)(take(b) % 6) - 2, en = (int64_t)(take(b) % 6) - 2;
      if (bg < -dim) bg = -dim;
      if (en < -(dim - (bg < 0 ? -bg : 0))) en = -(dim - (bg < 0 ? -bg : 0));
      int64_t lo = bg < 0 ? -bg : 0, kept = dim - lo - (en < 0 ? -en : 0);
      int64_t room = p->mode == MX_REMAP_REFLECT ? kept - 1 : p->mode != MX_REMAP_CONSTANT && kept == 0 ? 0 : 1 << 20;
      if (bg > room) bg = room > 0 ? room : 0;
      if (en > room) en = room > 0 ? room : 0;
      lo = bg < 0 ? -bg : 0, kept = dim - lo - (en < 0 ? -en : 0);
      p->lo[d] = lo, p->n[d] = kept, p->begin[d] = bg > 0 ? bg : 0;
      out = kept + (bg > 0 ? bg : 0) + (en > 0 ? en : 0);
      s->shape_arg[d] = bg, s->shape_arg[d + r] = en;
    } else if (op == 'T') {
      int64_t rep = (int64_t)(take(b) % 4);
      out = dim * rep;
      s->shape_arg[d] = rep;
    } else {
      unsigned m = take(b) % 4;
      out = dim != 1 || m == 0 ? dim : (int64_t)(take(b) % 7);
      s->shape_arg[d] = dim != 1 && m == 1 ? 1 : out; /* a 1 in the shape keeps the input's dim */
    }
    p->out_dims[d] = s->out_dims[d] = out;
  }
  if (op == 'P' && p->mode == MX_REMAP_CONSTANT && (take(b) & 1)) {
    s->n_in = 3;
    s->rank[2] = 0;
  }
}

/* The normalizations: X of rank 2 to 4 (InstanceNormalization 3 to 4,
 * LayerNormalization 1 to 4), the parameters [C], or LayerNormalization's
 * the dims from axis on. BatchNormalization's graph has 4 inputs: var is
 * scale's (the node names b twice). */
static void choose_norm(bytes *b, node_spec *s) {
  static const minnx_dtype types[] = {MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE, MINNX_BFLOAT16};
  char op = s->v->op[0];
  s->t = types[take(b) % (s->ver >= 15 ? 4u : 3u)];
  int lo = op == 'I' ? 3 : op == 'B' ? 2 : 1;
  s->rank[0] = s->out_rank = lo + (int)(take(b) % (unsigned)(5 - lo));
  for (int d = 0; d < s->rank[0]; d++) s->dims[0][d] = s->out_dims[d] = dim_choices[take(b) % 16];
  s->n_in = op == 'B' ? 4 : 3;
  int from = 1;
  if (op == 'L') {
    unsigned a = take(b);
    from = (int)(a % (unsigned)s->rank[0]);
    s->axis = a & 0x80 ? from - s->rank[0] : from;
  }
  for (int k = 1; k < s->n_in; k++) {
    s->rank[k] = op == 'L' ? s->rank[0] - from : 1;
    for (int d = 0; d < s->rank[k]; d++) s->dims[k][d] = s->dims[0][op == 'L' ? from + d : 1];
  }
}

/* RNN, GRU, LSTM: X, W, R and B or not as the graph's inputs, Y the output;
 * float32 mostly (its path on the products' kernels), double and float16
 * (the loop itself); every direction, both layouts (14), clip, GRU's
 * linear_before_reset, LSTM's input_forget, sizes around the kernels'
 * blocks, some 0. */
static void choose_rnn(bytes *b, node_spec *s) {
  static const minnx_dtype types[] = {MINNX_FLOAT, MINNX_FLOAT, MINNX_FLOAT, MINNX_DOUBLE, MINNX_FLOAT16};
  static const int64_t sizes[] = {1, 2, 3, 5, 7, 16, 17, 33, 0, 4, 9, 64};
  static const int dflt[3][3] = {{MX_RNN_TANH}, {MX_RNN_SIGMOID, MX_RNN_TANH}, {MX_RNN_SIGMOID, MX_RNN_TANH, MX_RNN_TANH}};
  mx_rnn *p = &s->rnn;
  memset(p, 0, sizeof *p);
  char op = s->v->op[0];
  p->cell = op == 'L' ? MX_RNN_CELL_LSTM : op == 'G' ? MX_RNN_CELL_GRU : MX_RNN_CELL_RNN;
  p->gates = op == 'L' ? 4 : op == 'G' ? 3 : 1;
  p->per = op == 'L' ? 3 : op == 'G' ? 2 : 1;
  s->t = types[take(b) % 5u];
  p->t = s->t;
  unsigned f = take(b) | take(b) << 8;
  p->dirs = f % 3 == 2 ? 2 : 1;
  p->reverse = f % 3 == 1;
  s->rnn_dir_attr = (f >> 2 & 1) != 0;
  p->layout = s->ver >= 14 && (f >> 3 & 1);
  p->has_clip = (f >> 4 & 1) != 0;
  p->clip = 0.5f + (float)(take(b) % 8u);
  p->lbr = op == 'G' && (f >> 5 & 1);
  p->input_forget = op == 'L' && (f >> 6 & 1);
  int bias = !(f >> 7 & 1);
  p->seq = sizes[take(b) % 12u] % 6;
  p->batch = sizes[take(b) % 12u] % 5;
  p->input = sizes[take(b) % 12u];
  p->hidden = sizes[take(b) % 8u];
  for (int k = 0; k < p->per * p->dirs; k++) p->act[k].kind = dflt[p->cell][k % p->per];
  p->has[MX_RNN_X] = p->has[MX_RNN_W] = p->has[MX_RNN_R] = 1;
  p->has[MX_RNN_B] = bias;
  p->out[MX_RNN_Y] = 1;
  p->row_scratch = (size_t)(p->gates + 3) * (size_t)p->hidden * (s->t == MINNX_DOUBLE ? 8u : 4u);
  p->tasks = 1;
  int64_t rows = p->gates * p->hidden;
  s->n_in = bias ? 4 : 3;
  s->rank[0] = s->rank[1] = s->rank[2] = 3;
  int64_t x[3] = {p->layout ? p->batch : p->seq, p->layout ? p->seq : p->batch, p->input},
          w[3] = {p->dirs, rows, p->input}, r[3] = {p->dirs, rows, p->hidden};
  memcpy(s->dims[0], x, sizeof x);
  memcpy(s->dims[1], w, sizeof w);
  memcpy(s->dims[2], r, sizeof r);
  s->rank[3] = 2;
  s->dims[3][0] = p->dirs, s->dims[3][1] = 2 * rows;
  s->out_rank = 4;
  int64_t y[4] = {p->seq, p->dirs, p->batch, p->hidden}, yl[4] = {p->batch, p->seq, p->dirs, p->hidden};
  memcpy(s->out_dims, p->layout ? yl : y, sizeof y);
}

static void edit_rnn(Onnx__ModelProto *m, node_spec *s) {
  static const char *const dirs[] = {"forward", "reverse", "bidirectional"};
  const mx_rnn *p = &s->rnn;
  int n = 0;
  int_attr(s, n++, "hidden_size", p->hidden);
  if (p->dirs == 2 || p->reverse || s->rnn_dir_attr) {
    const char *d = dirs[p->dirs == 2 ? 2 : p->reverse];
    int_attr(s, n, "direction", 0);
    s->attr[n].has_i = 0;
    s->attr[n].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    s->attr[n].has_s = 1;
    s->attr[n].s.data = (uint8_t *)d;
    s->attr[n++].s.len = strlen(d);
  }
  if (p->layout) int_attr(s, n++, "layout", 1);
  if (p->has_clip) {
    uint32_t bits;
    memcpy(&bits, &p->clip, sizeof bits);
    float_attr(s, n++, "clip", bits);
  }
  if (p->lbr) int_attr(s, n++, "linear_before_reset", 1);
  if (p->input_forget) int_attr(s, n++, "input_forget", 1);
  m->graph->node[0]->n_attribute = (size_t)n;
  m->graph->node[0]->attribute = s->attrp;
}

static void choose(bytes *b, node_spec *s) {
  unsigned i = take(b);
  s->wide = i >= N_VERSIONS && i < N_VERSIONS + N_WIDE;
  s->v = s->wide ? &wide_versions[i - N_VERSIONS] : &versions[i % N_VERSIONS];
  s->ver = s->v->version;
  if (s->v->kind == K_REMAP) {
    choose_remap(b, s);
    return;
  }
  if (s->v->kind == K_NORM) {
    choose_norm(b, s);
    return;
  }
  if (s->v->kind == K_RNN) {
    choose_rnn(b, s);
    return;
  }
  if (s->v->kind == K_LAYOUT) {
    choose_layout(b, s);
    return;
  }
  if (s->v->kind == K_PRODUCT) {
    choose_product(b, s);
    return;
  }
  if (s->v->kind == K_UNARY) {
    choose_unary(b, s);
    return;
  }
  if (s->v->kind == K_CONV) {
    choose_conv(b, s);
    return;
  }
  if (s->v->kind == K_CONVT) {
    choose_convt(b, s);
    return;
  }
  if (s->v->kind == K_POOL) {
    choose_pool(b, s);
    return;
  }
  if (s->v->kind != K_EXTREMUM && s->v->kind != K_BINARY && s->v->kind != K_NSUM && s->v->kind != K_SUM) {
    choose_cast_clip(b, s);
    return;
  }
  s->t = dtypes[take(b) % N_NUMERIC];
  if (s->v->kind == K_SUM) { /* the floats, then the integers the sums take (not the log ones, nor Softmax) */
    static const minnx_dtype sum_types[] = {MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE, MINNX_BFLOAT16,
                                            MINNX_INT32, MINNX_INT64, MINNX_UINT32, MINNX_UINT64};
    int floats = strncmp(s->v->op, "ReduceLog", 9) == 0 || strncmp(s->v->op, "Reduce", 6) != 0;
    s->t = sum_types[take(b) % (floats ? 4u : 8u)];
    if (s->t == MINNX_BFLOAT16 && s->ver < 13) s->t = MINNX_FLOAT;
  }
  if (s->v->kind == K_BINARY && binop_of(s->v->op) >= MX_AND && binop_of(s->v->op) < MX_BINOPS) s->t = MINNX_BOOL;
  if (s->v->kind == K_NSUM) { /* the floats; bfloat16 from 13 */
    static const minnx_dtype floats[] = {MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE, MINNX_BFLOAT16};
    s->t = floats[take(b) % 4];
    if (s->t == MINNX_BFLOAT16 && s->ver < 13) s->t = MINNX_FLOAT16;
  }
  if (s->v->kind == K_BINARY && binop_of(s->v->op) == MX_BINOPS) { /* Pow: the bases ONNX allows, the exponent alike */
    static const minnx_dtype pow_types[] = {MINNX_FLOAT, MINNX_DOUBLE, MINNX_FLOAT16, MINNX_BFLOAT16, MINNX_INT32,
                                            MINNX_INT64};
    s->t = pow_types[take(b) % 6u];
  }
  int prelu = strcmp(s->v->op, "PRelu") == 0;
  int arg = strncmp(s->v->op, "Arg", 3) == 0 || (s->v->kind == K_SUM && s->v->op[0] != 'R'),
      reduce = strncmp(s->v->op, "Reduce", 6) == 0;
  s->n_in = arg || reduce ? 1 : s->v->domain[0] || s->v->kind == K_BINARY ? 2 : 1 + (int)(take(b) % 4);
  s->out_rank = (int)(take(b) % 5);
  if (arg && s->out_rank == 0) s->out_rank = 1;
  for (int d = 0; d < s->out_rank; d++) s->out_dims[d] = dim_choices[take(b) % 16];
  for (int k = 0; k < s->n_in; k++) {
    unsigned m = s->v->broadcasts && !(prelu && k == 0) ? take(b) : 0; /* PRelu's X has the output's shape */
    /* broadcast: drop leading dims, and make others 1 */
    s->rank[k] = s->out_rank - (int)(m % (unsigned)(s->out_rank + 1) * ((m >> 3) & 1));
    for (int d = 0; d < s->rank[k]; d++) {
      int od = d + s->out_rank - s->rank[k];
      s->dims[k][d] = (m >> (4 + d % 4)) & 1 ? 1 : s->out_dims[od];
    }
  }
  unsigned a = take(b);
  s->axis = s->out_rank ? (int64_t)(a % (unsigned)s->out_rank) : 0;
  if (s->v->version >= 11 && (a & 0x80)) s->axis -= s->out_rank; /* negative axes, from ArgMax-11 */
  s->keepdims = (a >> 5) & 1;
  s->last = (a >> 6) & 1;
  s->axes = reduce && axes_attribute(s->v) ? take(b) & ((1u << s->out_rank) - 1) : 0;
}

/* ---- values ---- */

/* Bit patterns of the specials, per element size (floats by their width;
 * integers get the extremes and ties from the same table). */
static uint64_t special(minnx_dtype t, unsigned i) {
  static const uint64_t f32[] = {0x7fc00000, 0xffc00000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                 0x7f7fffff, 0xff7fffff, 0x00000001, 0x3f800000, 0xbf800000, 0x7fa00001};
  static const uint64_t f64[] = {0x7ff8000000000000, 0xfff8000000000000, 0, 0x8000000000000000,
                                 0x7ff0000000000000, 0xfff0000000000000, 0x7fefffffffffffff, 0xffefffffffffffff,
                                 1, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff4000000000001};
  static const uint64_t f16[] = {0x7e00, 0xfe00, 0, 0x8000, 0x7c00, 0xfc00, 0x7bff, 0xfbff, 1, 0x3c00, 0xbc00, 0x7d01};
  static const uint64_t bf16[] = {0x7fc0, 0xffc0, 0, 0x8000, 0x7f80, 0xff80, 0x7f7f, 0xff7f, 1, 0x3f80, 0xbf80, 0x7fa1};
  static const uint64_t ints[] = {0, ~0ull, 1, 2, 0x7fffffffffffffff, 0x8000000000000000, 0x7f, 0x80, 0x7fff,
                                  0x8000, 0x7fffffff, 0x80000000};
  i %= 12;
  switch (t) {
    case MINNX_FLOAT: return f32[i];
    case MINNX_DOUBLE: return f64[i];
    case MINNX_FLOAT16: return f16[i];
    case MINNX_BFLOAT16: return bf16[i];
    default: return ints[i];
  }
}

static void fill(bytes *b, minnx_dtype t, unsigned char *x, int64_t count) {
  size_t es = minnx_dtype_size(t);
  for (int64_t i = 0; i < count; i++) {
    unsigned sel = take(b);
    uint64_t v = 0;
    if (sel < 128) {
      v = special(t, sel); /* half the elements: specials, and so many ties */
    } else {
      for (size_t k = 0; k < es; k++) v |= (uint64_t)take(b) << (8 * k);
    }
    memcpy(x + (size_t)i * es, &v, es); /* little-endian: the low bytes */
  }
}

/* Products: mostly moderate values (a random mantissa, exponents within
 * +-8), so that sums are not all infinities and NaNs; one in sixteen a
 * special; integers random bits. */
static void fill_product(bytes *b, minnx_dtype t, unsigned char *x, int64_t count) {
  size_t es = minnx_dtype_size(t);
  for (int64_t i = 0; i < count; i++) {
    unsigned sel = take(b);
    uint64_t v = 0;
    if (sel < 16) {
      v = special(t, sel);
    } else if (t == MINNX_FLOAT || t == MINNX_DOUBLE || t == MINNX_FLOAT16 || t == MINNX_BFLOAT16) {
      float f = ldexpf(1.0f + (float)take(b) / 256.0f + (float)take(b) / 65536.0f, (int)(sel % 17) - 8);
      double dv = (double)f * (1.0 + (double)take(b) / 1048576.0);
      if (sel & 1) f = -f, dv = -dv;
      mx_convert_params cv;
      if (t == MINNX_DOUBLE) memcpy(&v, &dv, 8);
      else if (t == MINNX_FLOAT) memcpy(&v, &f, 4);
      else if (mx_convert_choose(&cv, MINNX_FLOAT, (int)t)) mx_convert_run(&cv, &v, &f, 1);
    } else {
      for (size_t k = 0; k < es; k++) v |= (uint64_t)take(b) << (8 * k);
    }
    memcpy(x + (size_t)i * es, &v, es);
  }
}

/* Cast's hostile values: NaNs with payloads (signalling too) of both signs,
 * subnormals, ties and double-rounding traps at each target's precision,
 * overflow ties, the integer targets' edges and 2^31, 2^63, 2^64; integers
 * around 2^24, 2^53 and 2^63 with ties for float and bfloat16. */
static uint64_t cast_special(minnx_dtype t, unsigned i) {
  static const uint64_t f32[] = {0x807fffff, 0x00800000, 0x477ff000, 0x477fefff, 0x33000000, 0x33000001, 0x3f801000,
                                 0x3f803000, 0x3f808000, 0x3f818000, 0x43000000, 0x42ff0000, 0xc3010000, 0xc3008000,
                                 0x4f000000, 0xcf000000, 0x5f000000, 0xdf000000, 0x5f800000, 0x4f800000, 0x477fff00,
                                 0x437f8000, 0xbfc00000, 0xff800001, 0xffc00001, 0x7f800001, 0x3f801001, 0x80000001};
  static const uint64_t f64[] = {
      0x3ff0000010000000, 0x3ff0000030000000, 0x3ff0000010000001, 0x3ff0020000000000, 0x3ff0020000001000,
      0x3ff0010000000000, 0x47effffff0000000, 0x47efffffefffffff, 0x36a0000000000000, 0x3690000000000000,
      0x3690000000000001, 0x43e0000000000000, 0xc3e0000000000000, 0x43dfffffffffffff, 0x43f0000000000000,
      0x41dfffffffc00000, 0x41e0000000000000, 0xc1e0000000100000, 0xc1e0000000200000, 0x800fffffffffffff,
      0x7ff0000000000001, 0xfff0000000000001, 0x7ff8deadbeef0000, 0x4340000000000000, 0x4340000000000001,
      0x40effe0000000000, 0x3e70000000000000, 0x3e60000000000000};
  static const uint64_t f16[] = {0x0001, 0x8001, 0x03ff, 0x0400, 0x7c01, 0xfc01, 0x7e01, 0x57f8, 0x5800, 0xd808,
                                 0x5bf8, 0x7bff, 0xbe00, 0xd800, 0x83ff, 0xfe01};
  static const uint64_t bf16[] = {0x0001, 0x807f, 0x7f81, 0xff81, 0x7fc1, 0x42ff, 0x4300, 0xc301,
                                  0x4f00, 0xcf00, 0x5f00, 0xdf00, 0x5f80, 0x437f, 0xbfc0, 0x0080};
  static const uint64_t ints[] = {1ull << 53, (1ull << 53) + 1, (1ull << 53) + 3, (1ull << 24) + 1, (1ull << 24) + 3,
                                  (1ull << 60) + (1ull << 52) + 1, (1ull << 60) + (1ull << 36), 0x8000000000000001,
                                  0x8000008000000000, 0x8000018000000000, 0xffffff8000000000, 0xfffffc0000000000,
                                  0x7ffffe0000000000, 0x7fffff8000000000, 65520, 65519, 2049, 2051, 257, 259, 65536,
                                  300, (uint64_t)-129, 0xffffffff80000000, 255, 256, 0xfffffffffffff800,
                                  0x0020000000000001};
  static const uint64_t bools[] = {0, 1, 2, 255};
  switch (t) {
    case MINNX_FLOAT: return f32[i % (sizeof f32 / sizeof f32[0])];
    case MINNX_DOUBLE: return f64[i % (sizeof f64 / sizeof f64[0])];
    case MINNX_FLOAT16: return f16[i % (sizeof f16 / sizeof f16[0])];
    case MINNX_BFLOAT16: return bf16[i % (sizeof bf16 / sizeof bf16[0])];
    case MINNX_BOOL: return bools[i % 4];
    default: return ints[i % (sizeof ints / sizeof ints[0])];
  }
}

/* A quarter the family's specials, a quarter Cast's, a quarter random
 * bytes, a quarter random ones made a tie (low bits 100..0 from a chosen
 * bit; integers first shifted right, to reach every magnitude). */
static void fill_cast(bytes *b, minnx_dtype t, unsigned char *x, int64_t count) {
  size_t es = minnx_dtype_size(t);
  for (int64_t i = 0; i < count; i++) {
    unsigned sel = take(b);
    uint64_t v = 0;
    if (sel < 64) {
      v = t == MINNX_BOOL ? sel & 3 : special(t, sel);
    } else if (sel < 128) {
      v = cast_special(t, sel);
    } else {
      for (size_t k = 0; k < es; k++) v |= (uint64_t)take(b) << (8 * k);
      if (sel >= 192) {
        unsigned bit = take(b);
        int fl = t == MINNX_FLOAT || t == MINNX_DOUBLE || t == MINNX_FLOAT16 || t == MINNX_BFLOAT16;
        if (!fl && t != MINNX_BOOL) v >>= bit % (8 * es);
        bit = (bit >> 2) % (8 * (unsigned)es);
        if (bit) v = (v & ~((1ull << bit) - 1)) | 1ull << (bit - 1);
      }
    }
    memcpy(x + (size_t)i * es, &v, es);
  }
}

/* ---- Cast's rules (README, "Cast semantics"), by exact values ---- */

/* A value exactly: NaN, an infinity, or (-1)^neg * m * 2^e. */
typedef struct {
  int nan, inf, neg;
  uint64_t m;
  int e;
} exact;

static int float_format(minnx_dtype t, int *ebits, int *fbits) {
  switch (t) {
    case MINNX_FLOAT: *ebits = 8, *fbits = 23; return 1;
    case MINNX_DOUBLE: *ebits = 11, *fbits = 52; return 1;
    case MINNX_FLOAT16: *ebits = 5, *fbits = 10; return 1;
    case MINNX_BFLOAT16: *ebits = 8, *fbits = 7; return 1;
    default: return 0;
  }
}

static int is_signed(minnx_dtype t) {
  return t == MINNX_INT8 || t == MINNX_INT16 || t == MINNX_INT32 || t == MINNX_INT64;
}

static uint64_t low_mask(size_t size) { return size >= 8 ? ~0ull : (1ull << 8 * size) - 1; }

static exact decode(minnx_dtype t, uint64_t v) {
  exact x = {0};
  int E, F;
  if (t == MINNX_BOOL) {
    x.m = (v & 0xff) != 0;
  } else if (float_format(t, &E, &F)) {
    int bias = (1 << (E - 1)) - 1;
    uint64_t ex = v >> F & ((1ull << E) - 1), fr = v & ((1ull << F) - 1);
    x.neg = (int)(v >> (E + F) & 1);
    x.nan = ex == (1ull << E) - 1 && fr;
    x.inf = ex == (1ull << E) - 1 && !fr;
    x.m = ex ? fr | 1ull << F : fr;
    x.e = (ex ? (int)ex : 1) - bias - F;
  } else {
    uint64_t mask = low_mask(minnx_dtype_size(t));
    v &= mask;
    x.neg = is_signed(t) && (v >> (8 * minnx_dtype_size(t) - 1) & 1);
    x.m = x.neg ? (0 - v) & mask : v;
  }
  return x;
}

/* To nearest, ties to even, once; beyond the range +-inf; NaN quiet with its sign. */
static uint64_t encode_float(const exact *x, int E, int F) {
  int bias = (1 << (E - 1)) - 1;
  uint64_t sign = (uint64_t)x->neg << (E + F), inf = ((1ull << E) - 1) << F;
  if (x->nan) return sign | inf | 1ull << (F - 1);
  if (x->inf) return sign | inf;
  if (!x->m) return sign;
  int lead = x->e + 63 - __builtin_clzll(x->m); /* 2^lead <= |x| < 2^(lead+1) */
  int q = (lead > 1 - bias ? lead : 1 - bias) - F; /* the target's quantum there: 2^q */
  int shift = q - x->e;
  uint64_t r;
  if (shift <= 0) {
    r = x->m << -shift;
  } else if (shift > 64) {
    r = 0; /* below half a quantum */
  } else {
    uint64_t rem = shift == 64 ? x->m : x->m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    r = shift == 64 ? 0 : x->m >> shift;
    if (rem > half || (rem == half && (r & 1))) r++;
  }
  if (r == 1ull << (F + 1)) r >>= 1, q++;
  if (!(r >> F)) return sign | r; /* subnormal or zero */
  int64_t be = (int64_t)q + F + bias;
  if (be >= (1 << E) - 1) return sign | inf;
  return sign | (uint64_t)be << F | (r & ((1ull << F) - 1));
}

/* Truncated toward zero, saturated; NaN 0. */
static uint64_t to_integer(const exact *x, minnx_dtype to) {
  uint64_t mask = low_mask(minnx_dtype_size(to)), top = is_signed(to) ? mask >> 1 : mask,
           bottom = is_signed(to) ? (mask >> 1) + 1 : 0; /* the largest value, the smallest's magnitude */
  if (x->nan) return 0;
  int big = x->inf;
  uint64_t t = 0;
  if (!big && x->e >= 0) {
    if (x->e >= 64 || (x->e && x->m >> (64 - x->e))) big = 1;
    else t = x->m << x->e;
  } else if (!big) {
    t = -x->e >= 64 ? 0 : x->m >> -x->e;
  }
  if (!x->neg) return big || t > top ? top : t;
  return (0 - (big || t > bottom ? bottom : t)) & mask;
}

static uint64_t cast_ref(minnx_dtype from, minnx_dtype to, uint64_t v) {
  int E, F, fe, ff;
  v &= low_mask(minnx_dtype_size(from));
  if (from == to) return v; /* a copy of the bits (a bool byte other than 0 and 1 too) */
  exact x = decode(from, v);
  if (to == MINNX_BOOL) return x.nan || x.inf || x.m;
  if (float_format(to, &E, &F)) return encode_float(&x, E, F);
  if (float_format(from, &fe, &ff)) return to_integer(&x, to);
  return (x.neg ? 0 - x.m : x.m) & low_mask(minnx_dtype_size(to)); /* integers and bool: the low bits */
}

/* got is what the rules give for in: NaN to another float dtype may carry
 * any payload, but is quiet and keeps its sign. */
static int cast_ok(minnx_dtype from, minnx_dtype to, uint64_t in, uint64_t got) {
  uint64_t want = cast_ref(from, to, in);
  int E, F;
  if (got == want) return 1;
  if (from == to || !float_format(to, &E, &F) || !decode(from, in).nan) return 0;
  uint64_t quiet_nan = ((1ull << E) - 1) << F | 1ull << (F - 1), sign = 1ull << (E + F);
  return (got & quiet_nan) == quiet_nan && (got & sign) == (want & sign);
}

static void cast_check(const char *what, const node_spec *s, const unsigned char *in, const unsigned char *out,
                       int64_t count) {
  size_t ei = minnx_dtype_size(s->t), eo = minnx_dtype_size(s->to);
  for (int64_t i = 0; i < count; i++) {
    uint64_t x = 0, y = 0;
    memcpy(&x, in + (size_t)i * ei, ei);
    memcpy(&y, out + (size_t)i * eo, eo);
    if (!cast_ok(s->t, s->to, x, y)) {
      fprintf(stderr, "fuzz_diff: %s-%d %s -> %s (%s): element %lld, 0x%llx, gave 0x%llx; the rules say 0x%llx\n",
              s->v->op, s->ver, minnx_dtype_name(s->t), minnx_dtype_name(s->to), what, (long long)i,
              (unsigned long long)x, (unsigned long long)y, (unsigned long long)cast_ref(s->t, s->to, x));
      abort();
    }
  }
}

/* ---- running ---- */

/* Tasks run as k threads might: thread j takes i = j, j + k, ...; the last
 * thread's tasks go first, in reverse. */
static void as_threads(void *pool, minnx_task_fn task, void *ctx, size_t n) {
  size_t k = *(const size_t *)pool;
  for (size_t j = k; j-- > 0;) {
    if (j >= n) continue;
    size_t top = j + (n - 1 - j) / k * k; /* thread j's last task */
    for (size_t i = j; i <= top; i += k) task(ctx, j == k - 1 ? top - (i - j) : i);
  }
}

static int64_t count_of(const int64_t *dims, int rank) {
  int64_t c = 1;
  for (int d = 0; d < rank; d++) c *= dims[d];
  return c;
}

static mx_shape shape_of(const int64_t *dims, int rank) {
  mx_shape s = {.rank = rank};
  memcpy(s.dims, dims, (size_t)rank * sizeof *dims);
  return s;
}

/* Two elements the rules do not tell apart: any two NaNs, +0 and -0. */
static int same_value(minnx_dtype t, const unsigned char *a, const unsigned char *b) {
  size_t es = minnx_dtype_size(t);
  if (memcmp(a, b, es) == 0) return 1;
  uint64_t x = 0, y = 0, mag, inf;
  memcpy(&x, a, es);
  memcpy(&y, b, es);
  switch (t) {
    case MINNX_FLOAT: mag = 0x7fffffff, inf = 0x7f800000; break;
    case MINNX_DOUBLE: mag = 0x7fffffffffffffff, inf = 0x7ff0000000000000; break;
    case MINNX_FLOAT16: mag = 0x7fff, inf = 0x7c00; break;
    case MINNX_BFLOAT16: mag = 0x7fff, inf = 0x7f80; break;
    default: return 0;
  }
  return ((x & mag) > inf && (y & mag) > inf) || ((x & mag) == 0 && (y & mag) == 0);
}

/* Two outputs of the same kernels at other thread counts: byte for byte, but
 * any two NaNs are the same. Which of two NaN operands' payload comes through
 * is the compiled instruction's operand order, which a compiler may choose
 * apart in a vector body and its scalar tail; a thread split moves elements
 * between the two (clang's build of Mul over bfloat16 NaNs did; README,
 * "Numbers": a NaN's sign and payload are the hardware's). */
static int same_output(minnx_dtype t, const unsigned char *a, const unsigned char *b, size_t n) {
  if (memcmp(a, b, n) == 0) return 1;
  size_t es = minnx_dtype_size(t);
  if (t != MINNX_FLOAT && t != MINNX_DOUBLE && t != MINNX_FLOAT16 && t != MINNX_BFLOAT16) return 0;
  for (size_t i = 0; i < n; i += es)
    if (memcmp(a + i, b + i, es) != 0) {
      unsigned char zero[8] = {0};
      /* both NaNs (same_value's other pair, +0 and -0, must match here) */
      if (!same_value(t, a + i, b + i) || same_value(t, a + i, zero) || same_value(t, b + i, zero)) return 0;
    }
  return 1;
}

/* The node through the reference loops, into ref (the output's bytes). */
static void reference(const node_spec *s, void *const *in, const minnx_tensor *y, void *ref) {
  mx_shape shapes[4], out = shape_of(y->dims, y->rank);
  const mx_shape *sp[4];
  for (int k = 0; k < s->n_in; k++) shapes[k] = shape_of(s->dims[k], s->rank[k]), sp[k] = &shapes[k];
  mx_dir dir = strstr(s->v->op, "Min") ? MX_MIN : MX_MAX;
  if (s->v->kind == K_NSUM)
    mx_sum_mean_ref(s->t, s->v->op[0] == 'M', s->n_in, sp, (const void *const *)in, &out, ref);
  else if (s->v->kind == K_BINARY && binop_of(s->v->op) == MX_BINOPS)
    mx_pow_ref(s->t, s->t)(sp[0], in[0], sp[1], in[1], &out, ref);
  else if (s->v->kind == K_BINARY)
    mx_binary_ref(s->t, binop_of(s->v->op))(binop_of(s->v->op), sp[0], in[0], sp[1], in[1], &out, ref);
  else if (strncmp(s->v->op, "Reduce", 6) == 0)
    mx_ref_reduce(s->t, dir, &shapes[0], s->axes ? s->axes : (1u << s->rank[0]) - 1, in[0], ref);
  else if (strncmp(s->v->op, "Arg", 3) == 0)
    mx_ref_arg(s->t, dir, (int)s->last && s->v->version >= 12, &shapes[0],
               (int)(s->axis < 0 ? s->axis + s->rank[0] : s->axis), in[0], ref);
  else
    mx_ref_elementwise(s->t, dir, s->n_in, sp, (const void *const *)in, &out, ref);
}

/* Clip by the rules: a Max with the low bound, then a Min with the high one
 * (the family's reference loops); Clip-1 and -6's attributes (absent: -+FLT_MAX)
 * converted to T by Cast's rules. lo and hi get the bounds' bytes (NULL: none). */
static void clip_reference(const node_spec *s, void *const *in, const void **lo, const void **hi, uint64_t *bounds,
                           unsigned char *tmp, unsigned char *ref) {
  mx_shape x = shape_of(s->dims[0], s->rank[0]), scalar = {.rank = 0};
  const mx_shape *sp[2] = {&x, &scalar};
  int k = 1;
  *lo = *hi = NULL;
  if (s->ver < 11) {
    bounds[0] = cast_ref(MINNX_FLOAT, s->t, s->lo ? s->lo_attr : 0xff7fffff);
    bounds[1] = cast_ref(MINNX_FLOAT, s->t, s->hi ? s->hi_attr : 0x7f7fffff);
    *lo = &bounds[0], *hi = &bounds[1];
  } else {
    if (s->lo) *lo = in[k++];
    if (s->hi) *hi = in[k];
  }
  size_t size = (size_t)count_of(s->dims[0], s->rank[0]) * minnx_dtype_size(s->t);
  memcpy(tmp, in[0], size);
  if (*lo) mx_ref_elementwise(s->t, MX_MAX, 2, sp, (const void *const[]){in[0], *lo}, &x, tmp);
  memcpy(ref, tmp, size);
  if (*hi) mx_ref_elementwise(s->t, MX_MIN, 2, sp, (const void *const[]){tmp, *hi}, &x, ref);
}

static void compare(const node_spec *s, const char *what, minnx_dtype t, const unsigned char *got,
                    const unsigned char *want, size_t size) {
  size_t es = minnx_dtype_size(t);
  for (size_t i = 0; i < size; i += es)
    if (!same_value(t, got + i, want + i)) {
      uint64_t g = 0, w = 0;
      memcpy(&g, got + i, es);
      memcpy(&w, want + i, es);
      fprintf(stderr, "fuzz_diff: %s-%d %s (%s): element %zu is 0x%llx, the reference loop's 0x%llx\n", s->v->op,
              s->ver, minnx_dtype_name(s->t), what, i / es, (unsigned long long)g, (unsigned long long)w);
      abort();
    }
}

/* The products as the spec lays them out (derived here, apart from
 * matmul.c's prepare). */
static mx_gemm_dims product_dims_of(const node_spec *s) {
  mx_gemm_dims d = {.batch = 1, .k = s->k};
  if (strcmp(s->v->op, "Gemm") == 0) {
    float alpha, beta;
    memcpy(&alpha, &s->alpha, 4);
    memcpy(&beta, &s->beta, 4);
    d.m = s->m, d.n = s->n, d.gemm = 1, d.alpha = alpha, d.beta = beta;
    d.ialpha = (int64_t)alpha, d.ibeta = (int64_t)beta;
    d.rsa = s->ta ? 1 : s->k, d.csa = s->ta ? s->m : 1;
    d.rsb = s->tb ? 1 : s->n, d.csb = s->tb ? s->k : 1;
    d.has_c = s->crank >= 0;
    d.rsc = s->crank == 4 ? 1 : s->crank == 5 ? s->n : 0;
    d.csc = s->crank == 2 || s->crank == 3 || s->crank == 5 ? 1 : 0;
    return d;
  }
  int ra = s->rank[0], rb = s->rank[1];
  d.m = ra == 1 ? 1 : s->m, d.n = rb == 1 ? 1 : s->n;
  d.rsa = s->k, d.csa = 1, d.rsb = d.n, d.csb = 1;
  int ba = ra > 2 ? ra - 2 : 0, bb = rb > 2 ? rb - 2 : 0;
  d.brank = ba > bb ? ba : bb;
  int64_t sa = d.m * d.k, sb = d.k * d.n;
  for (int r = d.brank; r-- > 0;) {
    int ia = r - (d.brank - ba), ib = r - (d.brank - bb);
    int64_t da = ia >= 0 ? s->dims[0][ia] : 1, db = ib >= 0 ? s->dims[1][ib] : 1;
    d.bdims[r] = da > db ? da : db;
    d.bsa[r] = da == 1 ? 0 : sa;
    d.bsb[r] = db == 1 ? 0 : sb;
    sa *= da, sb *= db;
    d.batch *= d.bdims[r];
  }
  return d;
}

/* The session's output against the reference loop; float's through the
 * product kernels at each level this CPU has, too. */
static void product_check(const node_spec *s, void *const *in, const minnx_tensor *y, const unsigned char *got,
                          unsigned char *ref, unsigned char *tmp) {
  mx_gemm_dims d = product_dims_of(s);
  const void *c = d.has_c ? in[2] : NULL;
  mx_gemm_ref(s->t, &d, in[0], in[1], c, ref);
  compare(s, "session", s->t, got, ref, y->nbytes);
  if (s->t != MINNX_FLOAT) return;
  for (int isa = MX_GEMM_PORTABLE; isa <= mx_gemm_isa_available(); isa++) {
    mx_sgemm_plan p;
    mx_sgemm_plan_init(&p, &d, isa);
    size_t room = mx_sgemm_scratch(&p);
    void *scratch = room ? aligned_alloc(64, room) : NULL;
    if (room && !scratch) abort();
    mx_sgemm_run(&p, NULL, in[0], in[1], c, (float *)tmp, scratch);
    free(scratch);
    compare(s, isa == MX_GEMM_PORTABLE ? "portable kernels" : isa == MX_GEMM_FMA ? "AVX2+FMA kernels" : "AVX-512 kernels",
            s->t, tmp, ref, y->nbytes);
  }
}

/* float32's plan p with activations fused (act.h) against plain, its unfused output, through node_act. */
static void conv_fused_check(const node_spec *s, mx_conv_plan *p, void *const *in, const void *bias, const float *plain,
                             size_t size, void *scratch) {
  size_t n = size / 4;
  if (!n) return;
  float a = plain[n / 3], b = plain[n - 1], nan = NAN;
  const mx_act acts[] = {{MX_ACT_RELU, 0, 0, 0, 0},  {MX_ACT_CLIP, 1, 1, a, b},       {MX_ACT_CLIP, 1, 1, b, a},
                         {MX_ACT_CLIP, 1, 0, a, 0},  {MX_ACT_CLIP, 0, 1, 0, b},       {MX_ACT_CLIP, 1, 1, 0.0f, 6.0f},
                         {MX_ACT_CLIP, 1, 1, -0.0f, 0.0f}, {MX_ACT_CLIP, 1, 1, -nan, nan}, {MX_ACT_CLIP, 0, 0, 0, 0}};
  float *y = malloc(size), *want = malloc(size);
  if (!y || !want) abort();
  for (size_t k = 0; k < sizeof acts / sizeof acts[0]; k++) {
    p->act = acts[k];
    for (size_t i = 0; i < n; i++) want[i] = node_act(&acts[k], plain[i]);
    mx_conv_run(p, NULL, in[0], in[1], bias, y, scratch);
    for (size_t i = 0; i < n; i++)
      if (memcmp(&y[i], &want[i], 4) != 0) {
        uint32_t g, w;
        memcpy(&g, &y[i], 4);
        memcpy(&w, &want[i], 4);
        fprintf(stderr, "fuzz_diff: %s-%d float (activation %zu fused, isa %d): element %zu is 0x%x, the node's 0x%x\n",
                s->v->op, s->ver, k, p->sg.isa, i, g, w);
        abort();
      }
  }
  memset(&p->act, 0, sizeof p->act);
  free(y), free(want);
}

/* The session's output against the reference loop; the plan run directly
 * at each level of the product kernels this CPU has, too. */
static void conv_check(const node_spec *s, void *const *in, const minnx_tensor *y, const unsigned char *got,
                       unsigned char *ref, unsigned char *tmp) {
  const void *bias = s->bias ? in[2] : NULL;
  mx_conv_ref(s->t, &s->geom, in[0], in[1], bias, ref);
  compare(s, "session", s->t, got, ref, y->nbytes);
  for (int isa = MX_GEMM_PORTABLE; isa <= mx_gemm_isa_available(); isa++) {
    mx_conv_plan p;
    if (!mx_conv_plan_init(&p, &s->geom, s->t, s->bias, isa)) abort();
    void *scratch = p.scratch ? aligned_alloc(64, p.scratch) : NULL;
    if (p.scratch && !scratch) abort();
    mx_conv_run(&p, NULL, in[0], in[1], bias, tmp, scratch);
    compare(s, isa == MX_GEMM_PORTABLE ? "portable kernels" : isa == MX_GEMM_FMA ? "AVX2+FMA kernels" : "AVX-512 kernels",
            s->t, tmp, ref, y->nbytes);
    if (s->t == MINNX_FLOAT) conv_fused_check(s, &p, in, bias, (const float *)tmp, y->nbytes, scratch);
    /* W packed once beforehand, as prepare packs a float32 initializer */
    size_t floats = s->t == MINNX_FLOAT && !p.dw && !p.direct && !p.sg.gemv ? mx_sgemm_packed_a_floats(&p.sg) : 0;
    if (floats) {
      if (floats * 4 > mx_conv_packed_size(p.sg.d.m, p.sg.d.k, p.sg.d.batch)) abort();
      float *packed = aligned_alloc(64, (floats * 4 + 63) / 64 * 64);
      if (!packed) abort();
      mx_sgemm_pack_a(&p.sg, in[1], packed);
      p.sg.packed_a = packed;
      mx_conv_run(&p, NULL, in[0], in[1], bias, tmp, scratch);
      free(packed);
      compare(s, "kernels on weights packed at prepare", s->t, tmp, ref, y->nbytes);
    }
    free(scratch);
  }
}

static void convt_check(const node_spec *s, void *const *in, const minnx_tensor *y, const unsigned char *got,
                        unsigned char *ref, unsigned char *tmp) {
  const void *bias = s->bias ? in[2] : NULL;
  mx_convt_ref(s->t, &s->geom, in[0], in[1], bias, ref);
  compare(s, "session", s->t, got, ref, y->nbytes);
  for (int isa = MX_GEMM_PORTABLE; isa <= mx_gemm_isa_available(); isa++) {
    mx_convt_plan p;
    if (!mx_convt_plan_init(&p, &s->geom, s->t, s->bias, isa)) abort();
    void *scratch = p.scratch ? aligned_alloc(64, p.scratch) : NULL;
    if (p.scratch && !scratch) abort();
    mx_convt_run(&p, NULL, in[0], in[1], bias, tmp, scratch);
    free(scratch);
    compare(s, isa == MX_GEMM_PORTABLE ? "portable kernels" : isa == MX_GEMM_FMA ? "AVX2+FMA kernels" : "AVX-512 kernels",
            s->t, tmp, ref, y->nbytes);
  }
}

/* Add, Sub, Mul, Div: every ISA level's kernel this CPU has, called directly
 * over the whole output when each input is whole or one value. */
static void binary_levels(const node_spec *s, void *const *in, const minnx_tensor *y, const unsigned char *ref,
                          unsigned char *tmp) {
  int64_t n = (int64_t)(y->nbytes / minnx_dtype_size(y->dtype)), ca = count_of(s->dims[0], s->rank[0]),
          cb = count_of(s->dims[1], s->rank[1]);
  if ((ca != n && ca != 1) || (cb != n && cb != 1) || n == 0) return;
  static const char *const names[] = {"portable kernel", "AVX2 kernel", "AVX-512 kernel"};
  /* each level storing plainly, then (not Pow) with the call flag of a node larger than the last-level cache */
  int is_pow = binop_of(s->v->op) == MX_BINOPS;
  for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++)
    for (int flag = 0; flag <= (is_pow ? 0 : MX_OUT_STREAM); flag += MX_OUT_STREAM) {
      mx_binary_fn k = is_pow ? mx_pow_kernel(s->t, s->t, (mx_isa)isa)
                           : mx_binary_kernel(s->t, binop_of(s->v->op), (mx_isa)isa);
      k(tmp, in[0], (ca == n) | flag, in[1], cb == n, n, 1, 0, 0);
      compare(s, names[isa], y->dtype, tmp, ref, y->nbytes);
    }
}

extern const mx_kernel_row mx_sum_mean_rows[];
extern const size_t mx_sum_mean_n_rows;

/* Sum and Mean of float16 and bfloat16: every ISA level's float32 accumulation this CPU has,
 * called directly over the whole output when each input is whole or one value (float and
 * double fold with Add's kernels: binary_levels'). */
static void sum_levels(const node_spec *s, void *const *in, const minnx_tensor *y, const unsigned char *ref,
                       unsigned char *tmp) {
  int64_t n = (int64_t)(y->nbytes / minnx_dtype_size(y->dtype));
  int step[4];
  for (int k = 0; k < s->n_in; k++) {
    int64_t c = count_of(s->dims[k], s->rank[k]);
    if ((c != n && c != 1) || n == 0) return;
    step[k] = c == n;
  }
  if ((s->t != MINNX_FLOAT16 && s->t != MINNX_BFLOAT16) || s->n_in < 2) return;
  float *acc = malloc((size_t)n * sizeof *acc);
  if (!acc) return;
  static const char *const names[] = {"portable kernel", "AVX2 kernel", "AVX-512 kernel"};
  for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
    const struct mx_sum_mean_set *k = mx_kernel_find(mx_sum_mean_rows, mx_sum_mean_n_rows, s->t, (mx_isa)isa);
    k->first(acc, in[0], step[0], in[1], step[1], n);
    for (int j = 2; j < s->n_in; j++) k->more(acc, in[j], step[j], n);
    if (s->v->op[0] == 'M') k->mean(tmp, acc, (float)s->n_in, n);
    else k->sum(tmp, acc, n);
    compare(s, names[isa], y->dtype, tmp, ref, y->nbytes);
  }
  free(acc);
}

/* The one-operand ops: the reference loop, then every ISA level's kernel this CPU has, called
 * directly over the whole tensor. */
static void unary_check(const node_spec *s, void *const *in, const minnx_tensor *y, const unsigned char *got,
                        unsigned char *ref, unsigned char *tmp) {
  mx_unop op = unop_of(s);
  mx_unary_args a = {0};
  memcpy(&a.alpha, &s->args[0], 4);
  memcpy(&a.beta, &s->args[1], 4);
  memcpy(&a.gamma, &s->args[2], 4);
  if (strcmp(s->v->op, "LeakyRelu") && strcmp(s->v->op, "HardSigmoid") && strcmp(s->v->op, "Elu") &&
      strcmp(s->v->op, "Selu"))
    a.alpha = 0; /* not given */
  if (strcmp(s->v->op, "HardSigmoid")) a.beta = 0;
  if (strcmp(s->v->op, "Selu")) a.gamma = 0;
  int64_t n = count_of(s->dims[0], s->rank[0]);
  mx_unary_ref_fn f = mx_unary_ref(s->t, op);
  if (!f) { /* no kernel for the dtype (double Exp): prepare refuses it, which an empty tensor never reaches */
    if (n == 0) return;
    fprintf(stderr, "fuzz_diff: %s-%d %s ran without a kernel\n", s->v->op, s->ver, minnx_dtype_name(s->t));
    abort();
  }
  f(op, ref, in[0], n, &a);
  compare(s, "session", s->t, got, ref, y->nbytes);
  static const char *const names[] = {"portable kernel", "AVX2 kernel", "AVX-512 kernel"};
  /* each level storing plainly, then as a node larger than the last-level cache asks (streaming) */
  for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++)
    for (a.stream = 0; a.stream <= MX_OUT_STREAM; a.stream += MX_OUT_STREAM) {
      mx_unary_kernel(s->t, op, (mx_isa)isa)(tmp, in[0], n, &a);
      compare(s, names[isa], s->t, tmp, ref, y->nbytes);
    }
}

/* The sums (ops/reduction/sum.h): the session's output against the
 * reference loop, and the walk at each ISA level this CPU has, called
 * directly, too. */
static void sum_check(const node_spec *s, void *const *in, const minnx_tensor *y, const unsigned char *got,
                      unsigned char *ref, unsigned char *tmp) {
  static const char *const ops[] = {"ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceSumSquare",
                                    "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "Softmax", "LogSoftmax"};
  mx_sum_op op = 0;
  while (strcmp(ops[op], s->v->op) != 0) op++;
  /* the logs of integers have one loop and no kernel to hold to it (ops/reduction/reduce.c): nothing to
     compare */
  if ((op == MX_SUM_LOGSUM || op == MX_SUM_LOGSUMEXP) && s->t != MINNX_FLOAT && s->t != MINNX_DOUBLE &&
      s->t != MINNX_FLOAT16 && s->t != MINNX_BFLOAT16)
    return;
  int softmax = op >= MX_SUM_SOFTMAX, r = s->rank[0];
  uint32_t axes = s->axes ? s->axes : (1u << r) - 1;
  int axis = (int)(s->axis < 0 ? s->axis + r : s->axis), coerced = s->ver < 13;
  if (softmax) mx_softmax_ref(op, s->t, r, s->dims[0], axis, coerced, in[0], ref);
  else mx_sum_ref(op, s->t, r, s->dims[0], axes, in[0], ref);
  compare(s, "session", s->t, got, ref, y->nbytes);
  static const char *const names[] = {"portable kernels", "AVX2 kernels", "AVX-512 kernels"};
  for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
    mx_sum_walk w;
    if (softmax) mx_softmax_init(&w, op, s->t, r, s->dims[0], axis, coerced, (mx_isa)isa);
    else mx_sum_init(&w, op, s->t, r, s->dims[0], axes, (mx_isa)isa);
    void *scratch = mx_sum_scratch(&w) ? malloc(mx_sum_scratch(&w)) : NULL;
    mx_sum_run(&w, in[0], tmp, scratch);
    free(scratch);
    compare(s, names[isa], s->t, tmp, ref, y->nbytes);
  }
  if (softmax) return;
  /* pieces of 32 elements (sum.h), which the fuzzer's small shapes reach, in 1, 2 and 3 parts */
  mx_sum_ref_pieces(op, s->t, r, s->dims[0], axes, in[0], ref, 32);
  static const char *const piece_names[] = {"pieces of 32, 1 part", "pieces of 32, 2 parts", "pieces of 32, 3 parts"};
  for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++)
    for (int parts = 1; parts <= 3; parts++) {
      mx_sum_walk w;
      mx_sum_init_pieces(&w, op, s->t, r, s->dims[0], axes, (mx_isa)isa, 32);
      void *scratch = mx_sum_scratch(&w) ? malloc(mx_sum_scratch(&w)) : NULL;
      for (int p = parts; p-- > 0;) mx_sum_part(&w, in[0], tmp, p, parts, scratch);
      mx_sum_done(&w, tmp, scratch);
      free(scratch);
      compare(s, piece_names[parts - 1], s->t, tmp, ref, y->nbytes);
    }
}

/* The normalizations' reference loops (ops/nn/norm_ref.c). */
static void norm_reference(const node_spec *s, void *const *in, unsigned char *ref) {
  char op = s->v->op[0];
  const int64_t *d = s->dims[0];
  int r = s->rank[0];
  if (op == 'L') {
    int from = (int)(s->axis < 0 ? s->axis + r : s->axis);
    int64_t rows = count_of(d, from), len = count_of(d + from, r - from);
    mx_layernorm_ref(s->t, rows, len, in[0], in[1], in[2], 1e-5f, ref, NULL, NULL);
    return;
  }
  mx_norm_geom g = {d[0], d[1], count_of(d + 2, r - 2)};
  if (op == 'I') {
    mx_instancenorm_ref(s->t, &g, in[0], in[1], in[2], 1e-5f, ref);
    return;
  }
  const mx_dtype pt[4] = {s->t, s->t, s->t, s->t};
  const void *const p[4] = {in[1], in[2], in[3], in[1]};
  mx_batchnorm_ref(s->t, &g, in[0], pt, p, 1e-5f, ref);
}

/* The normalizations at each ISA level this CPU has: the model loaded again
 * with max_isa at that level, against the reference loop's output. */
static void norm_levels(const node_spec *s, const uint8_t *model, size_t size, void *const *in,
                        const unsigned char *ref, size_t out_bytes) {
  static const char *const names[] = {"", "portable kernels", "AVX2 kernels", "AVX-512 kernels"};
  for (int isa = MINNX_ISA_PORTABLE; isa <= (int)minnx_isa_available(); isa++) {
    minnx_load_options o;
    memset(&o, 0, sizeof o);
    o.max_isa = isa;
    minnx_model *m = NULL;
    minnx_session *ses = NULL;
    minnx_error err;
    minnx_tensor y;
    if (minnx_model_load_buffer(model, size, &o, &m, &err) || minnx_session_create(m, &ses, &err)) abort();
    for (int k = 0; k < s->n_in; k++) {
      minnx_tensor t = {s->t, s->rank[k], {0}, in[k], (size_t)count_of(s->dims[k], s->rank[k]) * minnx_dtype_size(s->t)};
      memcpy(t.dims, s->dims[k], sizeof s->dims[k]);
      if (minnx_session_bind_input(ses, (size_t)k, &t, &err)) abort();
    }
    if (minnx_session_run(ses, &err) || minnx_session_output(ses, 0, &y) || y.nbytes != out_bytes) abort();
    compare(s, names[isa], s->t, y.data, ref, out_bytes);
    minnx_session_free(ses);
    minnx_model_free(m);
  }
}

/* Run 0's output against the rules; for Cast and Clip, each instruction-set
 * level of their kernels that this CPU has too, called directly. */
static void check(const node_spec *s, void *const *in, const minnx_tensor *y, const unsigned char *got,
                  unsigned char *ref, unsigned char *tmp) {
  int64_t count = count_of(s->dims[0], s->rank[0]);
  if (s->v->kind == K_CAST || s->v->kind == K_CASTLIKE) {
    cast_check("session", s, in[0], got, count);
    for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
      mx_convert_params p;
      if (!mx_convert_choose_isa(&p, (int)s->t, (int)s->to, isa)) abort();
      mx_convert_run(&p, ref, in[0], count);
      cast_check(isa == MX_ISA_PORTABLE ? "portable loop" : isa == MX_ISA_AVX2 ? "AVX2 loop" : "AVX-512 loop", s, in[0],
                 ref, count);
      if (p.direct_stream) { /* the loop with streaming stores, where the pair has one */
        p.direct = p.direct_stream;
        mx_convert_run(&p, ref, in[0], count);
        cast_check(isa == MX_ISA_AVX2 ? "AVX2 streaming loop" : "AVX-512 streaming loop", s, in[0], ref, count);
      }
    }
  } else if (s->v->kind == K_CLIP) {
    const void *lo, *hi;
    uint64_t bounds[2];
    clip_reference(s, in, &lo, &hi, bounds, tmp, ref);
    compare(s, "session", s->t, got, ref, y->nbytes);
    for (mx_isa isa = MX_ISA_PORTABLE; lo && hi && isa <= mx_cpu_isa() && isa <= MX_ISA_AVX2; isa++) {
      mx_clip_fn f = mx_clip_kernel(s->t, isa);
      if (!f) continue;
      f(tmp, in[0], lo, hi, count);
      compare(s, isa ? "AVX2 one-pass kernel" : "one-pass kernel", s->t, tmp, ref, y->nbytes);
    }
  } else if (s->v->kind == K_PRODUCT) {
    product_check(s, in, y, got, ref, tmp);
  } else if (s->v->kind == K_UNARY) {
    unary_check(s, in, y, got, ref, tmp);
  } else if (s->v->kind == K_CONV) {
    conv_check(s, in, y, got, ref, tmp);
  } else if (s->v->kind == K_CONVT) {
    convt_check(s, in, y, got, ref, tmp);
  } else if (s->v->kind == K_POOL) {
    mx_pool_ref(s->t, &s->pool, in[0], ref, NULL);
    compare(s, "session", s->t, got, ref, y->nbytes);
  } else if (s->v->kind == K_SUM) {
    sum_check(s, in, y, got, ref, tmp);
  } else if (s->v->kind == K_NORM) {
    norm_reference(s, in, ref);
    compare(s, "session", s->t, got, ref, y->nbytes);
  } else if (s->v->kind == K_RNN) {
    const void *rin[8] = {in[0], in[1], in[2], s->n_in > 3 ? in[3] : NULL};
    void *rout[3] = {ref, NULL, NULL};
    void *scratch = malloc(s->rnn.row_scratch * (size_t)s->rnn.batch + 1);
    if (!scratch || mx_rnn_ref(&s->rnn, rin, rout, scratch, 0, s->rnn.batch)) abort();
    free(scratch);
    compare(s, "session", s->t, got, ref, y->nbytes);
  } else if (s->v->kind == K_LAYOUT && s->v->op[0] == 'G') {
    int axis = (int)(s->axis < 0 ? s->axis + s->rank[0] : s->axis);
    mx_gather_params p = {1, s->dims[0][axis], count_of(s->dims[1], s->rank[1]), 1, minnx_dtype_size(s->t),
                          s->to == MINNX_INT32, s->ver >= 11};
    for (int d = 0; d < s->rank[0]; d++) {
      if (d < axis) p.outer *= s->dims[0][d];
      if (d > axis) p.inner *= s->dims[0][d];
    }
    if (mx_gather_ref(&p, in[0], in[1], ref)) abort(); /* every index in range */
    if (y->nbytes && memcmp(got, ref, y->nbytes) != 0) {
      fprintf(stderr, "fuzz_diff: Gather-%d %s: the output differs from the reference loop's\n", s->ver, minnx_dtype_name(s->t));
      abort();
    }
  } else if (s->v->kind == K_REMAP) {
    static const unsigned char zeros[8];
    mx_remap_ref(&s->remap, in[0], s->n_in > 2 ? in[2] : zeros, ref);
    if (y->nbytes && memcmp(got, ref, y->nbytes) != 0) {
      fprintf(stderr, "fuzz_diff: %s-%d %s: the output differs from the reference loop's\n", s->v->op, s->ver,
              minnx_dtype_name(s->t));
      abort();
    }
  } else if (s->v->kind == K_LAYOUT) { /* copies: the bytes themselves */
    mx_transpose_ref(minnx_dtype_size(s->t), s->rank[0], s->dims[0], s->axes_list, in[0], ref);
    if (y->nbytes && memcmp(got, ref, y->nbytes) != 0) {
      fprintf(stderr, "fuzz_diff: %s-%d %s: the output differs from the reference loop's\n", s->v->op, s->ver,
              minnx_dtype_name(s->t));
      abort();
    }
  } else {
    reference(s, in, y, ref);
    compare(s, "session", y->dtype, got, ref, y->nbytes);
    if (s->v->kind == K_BINARY) binary_levels(s, in, y, ref, tmp);
    if (s->v->kind == K_NSUM) sum_levels(s, in, y, ref, tmp);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bytes b = {data, size};
  static node_spec s;
  memset(&s, 0, sizeof s);
  choose(&b, &s);
  if (count_of(s.out_dims, s.out_rank) > 1 << 16) return 0; /* enough to be split; larger only costs time */
  if (s.v->kind == K_PRODUCT) { /* the reference loop's work, likewise */
    mx_gemm_dims d = product_dims_of(&s);
    if (d.batch * d.m * d.n * (d.k + 1) > 1 << 18) return 0;
  }
  if (s.v->kind == K_CONV &&
      s.geom.n * s.geom.m * mx_conv_plane(&s.geom) * (s.geom.c / s.geom.group * mx_conv_window(&s.geom) + 1) > 1 << 18)
    return 0;
  if (s.v->kind == K_CONVT &&
      s.geom.n * s.geom.m * (mx_conv_plane(&s.geom) + mx_conv_in_plane(&s.geom) * mx_conv_window(&s.geom) * (s.geom.c / s.geom.group + 1)) >
          1 << 18)
    return 0;
  if (s.v->kind == K_RNN && s.rnn.batch * s.rnn.seq * s.rnn.dirs * s.rnn.gates * s.rnn.hidden *
                                 (s.rnn.input + s.rnn.hidden + 1) > 1 << 18)
    return 0;
  if (s.v->kind == K_POOL && s.pool.planes * mx_pool_out_plane(&s.pool) * s.pool.w.k[0] * s.pool.w.k[1] * s.pool.w.k[2] > 1 << 18)
    return 0;
  test_model tm = {.n_opsets = 1, .opset_domain = {s.v->domain}, .opset_version = {s.ver},
                   .n_inputs = s.n_in, .inputs = {"a", "b", "c", "d"}, .dtype = (int)s.t, .n_nodes = 1, .output = "y"};
  tm.nodes[0] = (test_node){s.v->op, s.v->domain, s.n_in, {"a", "b", "c", "d"}, "y", NULL, 0};
  if (s.v->kind == K_CLIP && s.ver >= 11 && s.hi) { /* the graph's inputs a, [b,] c; an omitted min named "" */
    tm.inputs[s.n_in - 1] = "c";
    tm.nodes[0] = (test_node){"Clip", "", 3, {"a", s.lo ? "b" : "", "c"}, "y", NULL, 0};
  } else if (s.v->kind == K_CLIP && s.ver >= 11 && s.lo && s.keepdims) { /* an omitted max named "" */
    tm.nodes[0] = (test_node){"Clip", "", 3, {"a", "b", ""}, "y", NULL, 0};
  }
  if (s.v->kind == K_NORM && s.v->op[0] == 'B') tm.nodes[0] = (test_node){s.v->op, "", 5, {"a", "b", "c", "d", "b"}, "y", NULL, 0};
  uint8_t *model_bytes = NULL;
  size_t model_size = build_model_edit(&tm, edit, &s, &model_bytes);
  minnx_model *m = NULL;
  minnx_session *ses = NULL;
  minnx_error err;
  void *buf[4] = {0}, *in[4] = {0};
  unsigned char *first = NULL, *ref = NULL, *tmp = NULL;
  if (!model_bytes || minnx_model_load_buffer(model_bytes, model_size, NULL, &m, &err)) goto done; /* refused: fine */
  if (minnx_session_create(m, &ses, &err)) goto done;
  for (int k = 0; k < s.n_in; k++) {
    minnx_dtype t = in_dtype(&s, k);
    size_t es = minnx_dtype_size(t);
    int64_t count = count_of(s.dims[k], s.rank[k]);
    size_t skew = (take(&b) % 8) * es; /* inputs start off a cache line */
    buf[k] = malloc((size_t)count * es + skew + 64);
    if (!buf[k]) goto done;
    unsigned char *x = (unsigned char *)buf[k] + skew;
    in[k] = x;
    if (s.v->kind == K_LAYOUT && k == 1) fill_indices(&b, &s, x, count);
    else if (s.v->kind == K_REMAP && k == 1) memcpy(x, s.shape_arg, (size_t)count * es);
    else if (s.v->kind == K_CAST || s.v->kind == K_CASTLIKE || t == MINNX_BOOL) fill_cast(&b, t, x, count);
    else if (s.v->kind == K_PRODUCT || s.v->kind == K_CONV || s.v->kind == K_CONVT || s.v->kind == K_SUM ||
             s.v->kind == K_NORM || s.v->kind == K_RNN)
      fill_product(&b, t, x, count);
    else if (s.v->kind == K_POOL && t != MINNX_INT8 && t != MINNX_UINT8) fill_product(&b, t, x, count);
    else fill(&b, t, x, count);
    minnx_tensor tensor = {t, s.rank[k], {0}, x, (size_t)count * es};
    memcpy(tensor.dims, s.dims[k], sizeof s.dims[k]);
    if (minnx_session_bind_input(ses, (size_t)k, &tensor, &err)) abort(); /* the shapes declared */
  }
  size_t out_bytes = 0;
  static size_t two = 2, three = 3;
  for (int run = 0; run < 3; run++) {
    if (run == 1 && minnx_session_set_parallel(ses, as_threads, &two, 2, &err)) abort();
    if (run == 2 && minnx_session_set_parallel(ses, as_threads, &three, 3, &err)) abort();
    if (minnx_session_run(ses, &err)) {
      fprintf(stderr, "fuzz_diff: a model accepted at load failed to run: %s\n", err.message);
      abort();
    }
    minnx_tensor y;
    if (minnx_session_output(ses, 0, &y)) abort();
    if (run == 0) {
      out_bytes = y.nbytes;
      first = malloc(out_bytes + 1);
      if (!first) goto done;
      if (out_bytes) memcpy(first, y.data, out_bytes);
      /* ref and tmp: room for the output, or for Clip's input (the same) */
      if (!(ref = malloc(out_bytes + 1)) || !(tmp = malloc(out_bytes + 1))) goto done;
      check(&s, in, &y, first, ref, tmp);
      if (s.v->kind == K_NORM || s.v->kind == K_RNN) norm_levels(&s, model_bytes, model_size, in, ref, out_bytes);
    } else if (y.nbytes != out_bytes || (out_bytes && !same_output(y.dtype, first, y.data, out_bytes))) {
      fprintf(stderr, "fuzz_diff: %s-%d %s: the output with %d threads differs from one thread's\n", s.v->op,
              s.ver, minnx_dtype_name(s.t), run == 1 ? 2 : 3);
      abort();
    }
  }
done:
  free(tmp);
  free(ref);
  free(first);
  for (int k = 0; k < 4; k++) free(buf[k]);
  minnx_session_free(ses);
  minnx_model_free(m);
  free(model_bytes);
  return 0;
}
