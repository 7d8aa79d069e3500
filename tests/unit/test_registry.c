/* Version resolution: a node runs the schema with the highest since_version
 * <= the model's opset for its domain. The version lists below are written
 * from the spec's change history (../shared/spec/NOTES.md). */
#include "builder.h"
#include "check.h"
#include "minnx.h"
#include "ops/core/registry.h"

static int resolved(const char *op, const char *domain, int64_t opset, const char *attr, int64_t value) {
  test_model m = {.n_opsets = 1, .opset_domain = {domain}, .opset_version = {opset}, .n_inputs = 2,
                  .inputs = {"a", "b"}, .dtype = MINNX_FLOAT, .rank = 2, .dims = {2, 3}, .n_nodes = 1,
                  .output = "y"};
  m.nodes[0] = (test_node){op, domain, strcmp(op, "ArgMax") == 0 ? 1 : 2, {"a", "b"}, "y", attr, value};
  uint8_t *bytes;
  size_t size = build_model(&m, &bytes);
  minnx_model *model;
  minnx_error err;
  int since = -1;
  if (minnx_model_load_buffer(bytes, size, NULL, &model, &err) == MINNX_OK) {
    minnx_model_node_info(model, 0, NULL, NULL, NULL, &since);
    minnx_model_free(model);
  } else {
    since = -(int)err.status; /* a refusal, by status */
  }
  free(bytes);
  return since;
}

static int highest_le(const int *versions, int n, int64_t opset) {
  int best = 0;
  for (int i = 0; i < n; i++)
    if (versions[i] <= opset) best = versions[i];
  return best;
}

int main(void) {
  static const int max_versions[] = {1, 6, 8, 12, 13};
  static const int argmax_versions[] = {1, 11, 12, 13};
  for (int64_t opset = 1; opset <= 21; opset++) {
    CHECK_EQ_INT(resolved("Max", "", opset, NULL, 0), highest_le(max_versions, 5, opset));
    CHECK_EQ_INT(resolved("ArgMax", "", opset, NULL, 0), highest_le(argmax_versions, 4, opset));
    CHECK_EQ_INT(resolved("Max", "ai.onnx", opset, NULL, 0), highest_le(max_versions, 5, opset));
  }
  CHECK_EQ_INT(resolved("Maximum", "org.openvinotoolkit", 1, NULL, 0), 1);
  /* refusals: an unimported domain, an op a domain lacks, an attribute a version lacks */
  CHECK_EQ_INT(resolved("Maximum", "org.openvinotoolkit", 0, NULL, 0), -MINNX_E_MODEL); /* opset version 0 is invalid */
  CHECK_EQ_INT(resolved("Maximum", "", 13, NULL, 0), -MINNX_E_UNSUPPORTED);
  CHECK_EQ_INT(resolved("Conv", "", 13, NULL, 0), -MINNX_E_UNSUPPORTED);
  CHECK_EQ_INT(resolved("ArgMax", "", 11, "select_last_index", 1), -MINNX_E_MODEL);
  CHECK_EQ_INT(resolved("ArgMax", "", 12, "select_last_index", 1), 12);
  CHECK_EQ_INT(resolved("ArgMax", "", 10, "axis", -1), -MINNX_E_SHAPE);
  CHECK_EQ_INT(resolved("ArgMax", "", 11, "axis", -2), 11);
  CHECK_EQ_INT(resolved("ArgMax", "", 11, "axis", -3), -MINNX_E_SHAPE);
  CHECK_EQ_INT(resolved("ArgMax", "", 11, "axis", 2), -MINNX_E_SHAPE);
  /* a build leaves out the contract's code for views and shape data unless an
   * op declares it uses them (ops/ops.cmake): the declarations must be right */
  CHECK(mx_op_features_declared());
  return check_report("test_registry");
}
