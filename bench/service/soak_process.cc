#include "bench/service/soak_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <fstream>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

extern char** environ;

namespace moreau::bench::soak {

absl::StatusOr<Child> Spawn(const std::vector<std::string>& argv,
                            const std::vector<std::string>& env) {
  std::vector<std::string> args = argv;
  std::vector<char*> pointers;
  for (std::string& a : args) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  std::vector<std::string> env_storage = env;
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  for (std::string& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return absl::InternalError("pipe2 failed");
  const pid_t parent = getpid();
  const pid_t pid = fork();  // the supervisor is single-threaded
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    return absl::InternalError("fork failed");
  }
  if (pid == 0) {
    // Dies with the supervisor, however it ends (a child left running would
    // hold the machine).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    const int in = open("/dev/null", O_RDONLY);
    dup2(in, STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    execve(pointers[0], pointers.data(), envp.data());
    _exit(127);
  }
  close(out[1]);
  fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
  Child child;
  child.pid = pid;
  child.out_fd = out[0];
  return child;
}

bool ReadLines(Child& child, std::vector<std::string>& lines) {
  if (child.out_fd < 0) return false;
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(child.out_fd, buffer, sizeof buffer);
    if (n > 0) {
      child.pending.append(buffer, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) break;
    close(child.out_fd);  // end of file, or an error
    child.out_fd = -1;
    break;
  }
  size_t start = 0;
  for (size_t nl = child.pending.find('\n'); nl != std::string::npos;
       nl = child.pending.find('\n', start)) {
    lines.push_back(child.pending.substr(start, nl - start));
    start = nl + 1;
  }
  child.pending.erase(0, start);
  return child.out_fd >= 0;
}

void DrainUntilExit(Child& child, std::vector<std::string>& lines) {
  // The writer has exited: every byte is in the pipe, end of file follows.
  for (int i = 0; i < 1000 && ReadLines(child, lines); ++i) {
    pollfd p{child.out_fd, POLLIN, 0};
    poll(&p, 1, 10);
  }
  if (child.out_fd >= 0) {
    close(child.out_fd);
    child.out_fd = -1;
  }
}

int WaitFor(pid_t pid, double timeout_s) {
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::microseconds(static_cast<int64_t>(timeout_s * 1e6));
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0) return -1;
    if (std::chrono::steady_clock::now() >= until) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

int ExitCodeOf(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return -1;
}

ProcStats ReadProcStats(pid_t pid) {
  ProcStats stats;
  std::ifstream status(absl::StrCat("/proc/", pid, "/status"));
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      status >> stats.rss_kb;
    } else if (key == "Threads:") {
      status >> stats.threads;
    }
    std::getline(status, key);
  }
  if (DIR* dir = opendir(absl::StrCat("/proc/", pid, "/fd").c_str()); dir != nullptr) {
    int fds = 0;
    while (const dirent* entry = readdir(dir)) {
      if (entry->d_name[0] != '.') ++fds;
    }
    closedir(dir);
    stats.fds = fds;
  }
  return stats;
}

absl::StatusOr<std::string> ListeningAddress(absl::string_view line) {
  constexpr absl::string_view kMarker = "listening on ";
  const size_t at = line.find(kMarker);
  if (at == absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("no '", kMarker, "' in: ", line));
  }
  absl::string_view rest = line.substr(at + kMarker.size());
  rest = rest.substr(0, rest.find_first_of(" \t,("));  // HOST:PORT
  const size_t colon = rest.rfind(':');
  if (colon == absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("no HOST:PORT in: ", line));
  }
  absl::string_view digits = rest.substr(colon + 1);
  size_t end = 0;
  while (end < digits.size() && std::isdigit(static_cast<unsigned char>(digits[end]))) ++end;
  int port = 0;
  if (!absl::SimpleAtoi(digits.substr(0, end), &port) || port <= 0 || port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("no port in: ", line));
  }
  return absl::StrCat("127.0.0.1:", port);
}

}  // namespace moreau::bench::soak
