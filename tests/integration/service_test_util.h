// Shared pieces of the service integration tests.
#ifndef MOREAU_TESTS_INTEGRATION_SERVICE_TEST_UTIL_H_
#define MOREAU_TESTS_INTEGRATION_SERVICE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "clients/cpp/client.h"
#include "tests/integration/server_process.h"

namespace moreau::testing {

namespace v1 = ::moreau::v1;

// Starts a server (ASSERT-fails the test when it cannot) and a client of it;
// with `stderr_path`, the server's stderr is appended to that file.
struct LiveServer {
  std::unique_ptr<ServerProcess> process;
  std::unique_ptr<client::Client> client;
};
LiveServer StartServer(const std::vector<std::string>& flags = {},
                       const std::string& stderr_path = "");

// A deterministic, varied action sequence: entry k of step t.
Eigen::VectorXd TestAction(int size, int t, double scale = 2.0);

// The StepRequest for one instance.
v1::StepRequest MakeStep(const std::string& id, const Eigen::VectorXd& action, int substeps);

#define MOREAU_ASSERT_OK_AND_ASSIGN(lhs, expr)             \
  auto MOREAU_TEST_CONCAT_(result_, __LINE__) = (expr);    \
  ASSERT_TRUE(MOREAU_TEST_CONCAT_(result_, __LINE__).ok()) \
      << MOREAU_TEST_CONCAT_(result_, __LINE__).status();  \
  lhs = std::move(*MOREAU_TEST_CONCAT_(result_, __LINE__))
#define MOREAU_TEST_CONCAT_INNER_(a, b) a##b
#define MOREAU_TEST_CONCAT_(a, b) MOREAU_TEST_CONCAT_INNER_(a, b)

}  // namespace moreau::testing

#endif  // MOREAU_TESTS_INTEGRATION_SERVICE_TEST_UTIL_H_
