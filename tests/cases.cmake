# The case folders every runner of the test data shares (CTest's host tests,
# the Cortex-M4 firmware): the official ONNX node tests of the operators minnx
# implements (add an operator's here), and the project's own cases in onnx_backend_data/.
set(MINNX_ONNX_NODE_DATA /usr/share/libonnx-testdata/data/node CACHE PATH
    "ONNX backend node tests (Debian libonnx-testdata)")
file(GLOB official LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_max_* ${MINNX_ONNX_NODE_DATA}/test_argmax_*
     ${MINNX_ONNX_NODE_DATA}/test_min_* ${MINNX_ONNX_NODE_DATA}/test_argmin_*
     ${MINNX_ONNX_NODE_DATA}/test_reduce_max_* ${MINNX_ONNX_NODE_DATA}/test_reduce_min_*
     ${MINNX_ONNX_NODE_DATA}/test_constant ${MINNX_ONNX_NODE_DATA}/test_identity ${MINNX_ONNX_NODE_DATA}/test_reshape_*
     ${MINNX_ONNX_NODE_DATA}/test_flatten_* ${MINNX_ONNX_NODE_DATA}/test_squeeze* ${MINNX_ONNX_NODE_DATA}/test_unsqueeze_*)
# Shape arithmetic: Shape, Slice, Concat.
file(GLOB official_shape LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_shape* ${MINNX_ONNX_NODE_DATA}/test_slice*
     ${MINNX_ONNX_NODE_DATA}/test_concat_*)
list(APPEND official ${official_shape})
file(GLOB official_clip LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_clip ${MINNX_ONNX_NODE_DATA}/test_clip_*)
list(APPEND official ${official_clip})
# Matrix products (test_matmul_* leaves out MatMulInteger's test_matmulinteger).
file(GLOB official_products LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_gemm_* ${MINNX_ONNX_NODE_DATA}/test_matmul_*)
list(APPEND official ${official_products})
# Elementwise ops of two operands: arithmetic, comparisons, logic.
file(GLOB official_arith LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_add ${MINNX_ONNX_NODE_DATA}/test_add_*
     ${MINNX_ONNX_NODE_DATA}/test_sub ${MINNX_ONNX_NODE_DATA}/test_sub_* ${MINNX_ONNX_NODE_DATA}/test_mul
     ${MINNX_ONNX_NODE_DATA}/test_mul_* ${MINNX_ONNX_NODE_DATA}/test_div ${MINNX_ONNX_NODE_DATA}/test_div_*
     ${MINNX_ONNX_NODE_DATA}/test_equal* ${MINNX_ONNX_NODE_DATA}/test_greater* ${MINNX_ONNX_NODE_DATA}/test_less*
     ${MINNX_ONNX_NODE_DATA}/test_and* ${MINNX_ONNX_NODE_DATA}/test_or* ${MINNX_ONNX_NODE_DATA}/test_xor*
     ${MINNX_ONNX_NODE_DATA}/test_not_* ${MINNX_ONNX_NODE_DATA}/test_where_* ${MINNX_ONNX_NODE_DATA}/test_pow*)
list(APPEND official ${official_arith})
# PRelu, Sum and Mean.
file(GLOB official_nary LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_prelu_* ${MINNX_ONNX_NODE_DATA}/test_sum_*
     ${MINNX_ONNX_NODE_DATA}/test_mean_*)
list(APPEND official ${official_nary})
# Elementwise ops of one operand (explicit names where a glob would catch another op's cases:
# test_expand*, test_logsoftmax*, test_negative_log_likelihood_loss*), and Celu written with Elu.
set(d ${MINNX_ONNX_NODE_DATA})
file(GLOB official_unary LIST_DIRECTORIES true ${d}/test_abs ${d}/test_neg ${d}/test_neg_example
     ${d}/test_reciprocal* ${d}/test_floor* ${d}/test_ceil* ${d}/test_sqrt* ${d}/test_round ${d}/test_sign
     ${d}/test_relu ${d}/test_leakyrelu* ${d}/test_exp ${d}/test_exp_example ${d}/test_log ${d}/test_log_example
     ${d}/test_erf ${d}/test_sigmoid* ${d}/test_tanh* ${d}/test_hardsigmoid* ${d}/test_hardswish* ${d}/test_elu*
     ${d}/test_selu* ${d}/test_softplus* ${d}/test_gelu* ${d}/test_celu_expanded
     ${d}/test_mvn_expanded)
list(APPEND official ${official_unary})
# Convolutions (test_conv_with_* and test_basic_conv_with* leave out ConvInteger's), ConvTranspose's
# (test_convtranspose*) and pooling.
file(GLOB official_nn LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_conv_with_* ${MINNX_ONNX_NODE_DATA}/test_basic_conv_with*
     ${MINNX_ONNX_NODE_DATA}/test_convtranspose*
     ${MINNX_ONNX_NODE_DATA}/test_maxpool_* ${MINNX_ONNX_NODE_DATA}/test_averagepool_* ${MINNX_ONNX_NODE_DATA}/test_globalaveragepool*
     ${MINNX_ONNX_NODE_DATA}/test_globalmaxpool*)
list(APPEND official ${official_nn})
# The sums, Softmax, LogSoftmax, Hardmax, and the _expanded graphs of Softmax and LogSoftmax.
file(GLOB official_sums LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_reduce_sum* ${MINNX_ONNX_NODE_DATA}/test_reduce_mean*
     ${MINNX_ONNX_NODE_DATA}/test_reduce_prod* ${MINNX_ONNX_NODE_DATA}/test_reduce_l1* ${MINNX_ONNX_NODE_DATA}/test_reduce_l2*
     ${MINNX_ONNX_NODE_DATA}/test_reduce_log_sum* ${MINNX_ONNX_NODE_DATA}/test_softmax* ${MINNX_ONNX_NODE_DATA}/test_logsoftmax*
     ${MINNX_ONNX_NODE_DATA}/test_hardmax*)
list(FILTER official_sums EXCLUDE REGEX "test_reduce_.*_expanded$")
list(APPEND official ${official_sums})
# Control flow: If and Loop (test_if_seq, test_if_opt, test_loop13_seq and test_loop16_seq_none hold
# sequences and optionals: tests/CMakeLists.txt registers them as SKIPs with the reason).
list(APPEND official ${MINNX_ONNX_NODE_DATA}/test_if ${MINNX_ONNX_NODE_DATA}/test_loop11)
# Layout ops (test_gather_* but GatherElements'; test_training_dropout* asks for training: SKIP).
file(GLOB official_layout LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_transpose_* ${MINNX_ONNX_NODE_DATA}/test_gather_*
     ${MINNX_ONNX_NODE_DATA}/test_dropout_* ${MINNX_ONNX_NODE_DATA}/test_constantofshape_*)
list(FILTER official_layout EXCLUDE REGEX "test_gather_elements")
list(APPEND official ${official_layout})
# Recurrent nets: RNN (test_rnn_seq_length, test_simple_rnn_*), GRU, LSTM.
file(GLOB official_rnn LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_lstm_* ${MINNX_ONNX_NODE_DATA}/test_gru_*
     ${MINNX_ONNX_NODE_DATA}/test_rnn_* ${MINNX_ONNX_NODE_DATA}/test_simple_rnn_*)
list(APPEND official ${official_rnn})
# Pad, Split, Expand, Tile, Range, Size (test_range_*_expanded express Range as a Loop: SKIP).
file(GLOB official_layout2 LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_constant_pad ${MINNX_ONNX_NODE_DATA}/test_edge_pad
     ${MINNX_ONNX_NODE_DATA}/test_reflect_pad ${MINNX_ONNX_NODE_DATA}/test_pad* ${MINNX_ONNX_NODE_DATA}/test_wrap_pad*
     ${MINNX_ONNX_NODE_DATA}/test_split_* ${MINNX_ONNX_NODE_DATA}/test_expand_* ${MINNX_ONNX_NODE_DATA}/test_tile*
     ${MINNX_ONNX_NODE_DATA}/test_range_* ${MINNX_ONNX_NODE_DATA}/test_size*)
list(FILTER official_layout2 EXCLUDE REGEX "test_range_.*_expanded$")
list(APPEND official ${official_layout2})
# Normalizations (the _expanded graphs use ops minnx lacks; test_batchnorm_*_training_mode ask for
# training: SKIP, registered by name in tests/CMakeLists.txt).
file(GLOB official_norm LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_batchnorm_* ${MINNX_ONNX_NODE_DATA}/test_instancenorm_*
     ${MINNX_ONNX_NODE_DATA}/test_layer_normalization_*)
list(FILTER official_norm EXCLUDE REGEX "_expanded$|_training_mode$")
list(APPEND official ${official_norm})
# Resize and Upsample.
file(GLOB official_resize LIST_DIRECTORIES true ${MINNX_ONNX_NODE_DATA}/test_resize_* ${MINNX_ONNX_NODE_DATA}/test_upsample_*)
list(APPEND official ${official_resize})
list(FILTER official EXCLUDE REGEX "test_maxunpool|test_max_pool")
list(LENGTH official n_official)
if(n_official EQUAL 0)
  message(FATAL_ERROR "No ONNX node tests under ${MINNX_ONNX_NODE_DATA}: install Debian's libonnx-testdata")
endif()
set(own_data ${PROJECT_SOURCE_DIR}/onnx_backend_data)
file(GLOB own LIST_DIRECTORIES true ${own_data}/*)
set(own_cases "")
foreach(dir ${own})
  if(EXISTS ${dir}/model.onnx)
    list(APPEND own_cases ${dir})
  endif()
endforeach()
list(LENGTH own_cases n_own)
