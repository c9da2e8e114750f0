// The service fuzzer's input format, shared with the seed writer: byte 0
// picks the RPC (its value modulo kCount), the rest is the request message.
// New RPCs go last, so that the seeds of the others keep their meaning.
#ifndef MOREAU_TESTS_FUZZ_SERVICE_INPUTS_H_
#define MOREAU_TESTS_FUZZ_SERVICE_INPUTS_H_

#include <cstdint>
#include <vector>

#include "moreau/v1/simulator.pb.h"

namespace moreau::fuzz {

enum class Rpc : uint8_t {
  kListModels,
  kGetModel,
  kCreateInstances,
  kDestroyInstances,
  kReset,
  kStep,
  kStepBatch,
  kSession,  // the steps of a StepBatchRequest, one message each
  kGetState,
  kSetState,
  kQuery,
  kWatch,
  kListInstances,
  kGetMesh,
  kCount
};

// The instances made at start, named '0', '1', '2' in inputs.
inline std::vector<v1::CreateInstancesRequest> BaseInstances() {
  std::vector<v1::CreateInstancesRequest> out(3);
  out[0].mutable_model()->set_builtin("mini_cheetah");
  out[1].mutable_model()->set_builtin("box");
  out[1].mutable_settings()->set_contact_model("hertz");
  out[2].mutable_model()->set_builtin("pendulum");
  out[2].mutable_settings()->set_control_mode("pd");
  for (v1::CreateInstancesRequest& r : out) r.set_count(1);
  return out;
}

}  // namespace moreau::fuzz

#endif  // MOREAU_TESTS_FUZZ_SERVICE_INPUTS_H_
