#include "tests/integration/service_test_util.h"

#include <cmath>

namespace moreau::testing {

LiveServer StartServer(const std::vector<std::string>& flags, const std::string& stderr_path) {
  LiveServer live;
  auto process = ServerProcess::Start(flags, stderr_path);
  EXPECT_TRUE(process.ok()) << process.status();
  if (!process.ok()) return live;
  live.process = std::move(*process);
  live.client = std::make_unique<client::Client>(live.process->address());
  const absl::Status ready = live.client->WaitForServer(absl::Seconds(20));
  EXPECT_TRUE(ready.ok()) << ready;
  return live;
}

Eigen::VectorXd TestAction(int size, int t, double scale) {
  Eigen::VectorXd a(size);
  for (int k = 0; k < size; ++k) a[k] = scale * std::sin(0.37 * t + 1.3 * k);
  return a;
}

v1::StepRequest MakeStep(const std::string& id, const Eigen::VectorXd& action, int substeps) {
  v1::StepRequest step;
  step.set_instance_id(id);
  step.mutable_action()->Assign(action.data(), action.data() + action.size());
  step.set_substeps(substeps);
  return step;
}

}  // namespace moreau::testing
