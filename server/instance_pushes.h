// The pushes of StepRequest on a server instance: checked against the model,
// held by the instance for their number of steps, and applied while it steps
// (engine/control/push.h).
#ifndef MOREAU_SERVER_INSTANCE_PUSHES_H_
#define MOREAU_SERVER_INSTANCE_PUSHES_H_

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "engine/control/push.h"
#include "engine/dynamics/data.h"
#include "engine/sim/simulation.h"
#include "moreau/v1/simulator.pb.h"

namespace moreau::server {

inline constexpr int kMaxPushesPerRequest = 8;
inline constexpr int kMaxActivePushes = 32;
inline constexpr double kMaxPushDurationS = 60.0;
inline constexpr double kMaxPushMagnitude = 1e6;  // N, N m, m (point)

// A push acting on an instance: the wrench, and the step count
// (sim::State::steps) before which it acts — its duration rounded to whole
// steps (at least one), so that it acts for the same steps whatever the
// simulated time it starts at.
struct ActivePush {
  control::Push push;
  uint64_t end_step = 0;
};

// Appends the request's pushes to `active`, each acting from the instance's
// step `steps` for round(duration / dt) steps (at least 1), after dropping
// the ones that have ended. INVALID_ARGUMENT naming the push and field when
// one is malformed (an unknown body, the world, a vector not of 3 finite
// values of at most kMaxPushMagnitude, a duration outside
// (0, kMaxPushDurationS]) or when there would be too many; `active` is then
// unchanged.
absl::Status AddPushes(const Model& model, uint64_t steps, double dt,
                       const google::protobuf::RepeatedPtrField<v1::Push>& requested,
                       std::vector<ActivePush>& active);

// What StepWithPushes works in (sized on first use).
struct PushScratch {
  Data data;                 // the body orientations at a sub-step's start
  std::vector<Force> f_ext;  // per body
};

// sim.StepActionUntil(action, substeps, stop_at) with the active pushes as
// external wrenches: one sub-step at a time while any acts (a world-frame
// push follows its body as it turns), the rest (all of it without pushes) in
// one call. Drops the pushes that have ended.
absl::Status StepWithPushes(sim::Simulation& sim, const Eigen::VectorXd& action, int substeps,
                            absl::Time stop_at, std::vector<ActivePush>& active,
                            PushScratch& scratch);

}  // namespace moreau::server

#endif  // MOREAU_SERVER_INSTANCE_PUSHES_H_
