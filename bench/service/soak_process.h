// Child processes of the soak (the server, the workers) and what /proc says
// of them.
#ifndef MOREAU_BENCH_SERVICE_SOAK_PROCESS_H_
#define MOREAU_BENCH_SERVICE_SOAK_PROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace moreau::bench::soak {

// A child whose stdout is a pipe read by the parent, line by line.
struct Child {
  pid_t pid = -1;
  int out_fd = -1;      // the read end; -1 once closed
  std::string pending;  // bytes read, not yet a whole line
};

// Starts argv[0] with `argv` (stdin /dev/null, stderr inherited), in this
// process's environment plus `env` ("NAME=VALUE" each). The child is killed
// when this process dies.
absl::StatusOr<Child> Spawn(const std::vector<std::string>& argv,
                            const std::vector<std::string>& env = {});

// Reads what is available (the fd is non-blocking) and appends whole lines
// to `lines`; closes the fd at end of file. Returns false once closed.
bool ReadLines(Child& child, std::vector<std::string>& lines);

// Reads the child's output until `pid` has exited and its pipe is drained.
void DrainUntilExit(Child& child, std::vector<std::string>& lines);

// Waits up to `timeout_s` for `pid` to exit; its wait status, or -1.
int WaitFor(pid_t pid, double timeout_s);

// Exit code, or 128 + signal, of a wait status.
int ExitCodeOf(int wait_status);

// From /proc/PID: resident memory, threads and open file descriptors.
struct ProcStats {
  long rss_kb = -1;
  int threads = -1;
  int fds = -1;
};
ProcStats ReadProcStats(pid_t pid);

// "127.0.0.1:PORT" from moreaud's first line, "moreaud: listening on
// HOST:PORT …" (whatever follows the port).
absl::StatusOr<std::string> ListeningAddress(absl::string_view line);

}  // namespace moreau::bench::soak

#endif  // MOREAU_BENCH_SERVICE_SOAK_PROCESS_H_
