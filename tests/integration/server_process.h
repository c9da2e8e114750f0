// A real moreaud child process on a free loopback port, for integration
// tests: started with extra flags, stopped with SIGTERM (or killed).
#ifndef MOREAU_TESTS_INTEGRATION_SERVER_PROCESS_H_
#define MOREAU_TESTS_INTEGRATION_SERVER_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace moreau::testing {

class ServerProcess {
 public:
  // Starts moreaud (MOREAUD_PATH) with --host 127.0.0.1 --port 0
  // --metrics-port 0 --drain-delay-s 0 and `flags` (which may override
  // those, e.g. --host 127.0.0.2), and waits for its "listening on" line. With `stderr_path`, the
  // server's stderr is appended to that file.
  static absl::StatusOr<std::unique_ptr<ServerProcess>> Start(
      const std::vector<std::string>& flags = {}, const std::string& stderr_path = "");
  ~ServerProcess();

  const std::string& address() const { return address_; }  // host:port
  const std::string& host() const { return host_; }
  int port() const { return port_; }
  int metrics_port() const { return metrics_port_; }
  pid_t pid() const { return pid_; }

  // Sends SIGTERM and waits; returns the exit code (or 128 + signal).
  int Terminate();
  // Sends SIGKILL (a crash) and waits; returns 128 + 9.
  int Kill();
  // Sends `signal` without waiting.
  void Signal(int signal);
  // Waits for the process to exit; the exit code (or 128 + signal).
  int Wait();
  // Resident set size now (kB), from /proc/PID/status.
  long RssKb() const;

 private:
  ServerProcess() = default;
  pid_t pid_ = -1;
  std::string address_;
  std::string host_;
  int port_ = 0;
  int metrics_port_ = 0;
};

// The whole file (e.g. a server's stderr), or "" when it cannot be read.
std::string ReadTextFile(const std::string& path);

// GET http://127.0.0.1:port/path over a plain socket; the body.
absl::StatusOr<std::string> HttpGet(int port, const std::string& path);
// The same from an IPv4 `host` (e.g. a server on 127.0.0.2).
absl::StatusOr<std::string> HttpGet(const std::string& host, int port, const std::string& path);

// The value of the first sample line of a Prometheus text page that starts
// with `series` (e.g. `moreau_steps_total{contact="moreau-sor",model="box"}`),
// or -1 when absent.
double MetricValue(const std::string& page, const std::string& series);

}  // namespace moreau::testing

#endif  // MOREAU_TESTS_INTEGRATION_SERVER_PROCESS_H_
