// A runtime's refusal of a model against a runtime gone wrong (openvino's
// compile: `unsupported` for the first, `fail_to_run` for the second). The
// messages are OpenVINO's own phrases, as its libraries hold them (2026.4).

#include "backends/runtime_refusal.h"

#include <gtest/gtest.h>

namespace tracebench {
namespace {

TEST(RuntimeRefusal, AnOpOrAttributeTheRuntimeDoesNotCoverIsARefusal) {
  for (const char* message : {
           "Exception from src/frontends/onnx/frontend/src/frontend.cpp:125:\n"
           "-- No conversion rule found for operations: org.pytorch.aten.ATen-1",
           "Exception from src/plugins/intel_cpu/src/node.cpp:1400:\n"
           "Unsupported operation of type: EmbeddingBagPacked name: /embedding_bag",
           "Node /attention/SDPA of type ScaledDotProductAttention is not supported by the CPU "
           "plugin.",
           "Interpolate: this type of interpolation mode is not supported.",
           "RNN node operation is not implemented",
       }) {
    EXPECT_TRUE(runtime_refuses_model(message)) << message;
  }
}

TEST(RuntimeRefusal, AnythingElseIsARuntimeGoneWrong) {
  for (const char* message : {
           "Exception from src/inference/src/cpp/core.cpp:90:\n"
           "Check 'util::file_exists(model_path)' failed: model.xml does not exist",
           "Exception from src/core/src/node.cpp:730:\nCheck 'input_rank.compatible(4)' failed "
           "while validating node 'Convolution': Data batch and filters rank do not match",
           "std::bad_alloc",
           "[ GENERAL_ERROR ] Cannot allocate 1073741824 bytes",
       }) {
    EXPECT_FALSE(runtime_refuses_model(message)) << message;
  }
}

}  // namespace
}  // namespace tracebench
