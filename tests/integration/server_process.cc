#include "tests/integration/server_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

extern char** environ;

namespace moreau::testing {
namespace {

// Reads one line from fd within `timeout_ms`.
absl::StatusOr<std::string> ReadLine(int fd, int timeout_ms) {
  std::string line;
  char c = 0;
  while (true) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) {
      return absl::DeadlineExceededError(absl::StrCat("moreaud printed no line; got '", line, "'"));
    }
    const ssize_t n = read(fd, &c, 1);
    if (n <= 0) return absl::UnavailableError(absl::StrCat("moreaud exited; got '", line, "'"));
    if (c == '\n') return line;
    line.push_back(c);
  }
}

int AfterColon(const std::string& text, size_t from) {
  const size_t colon = text.find(':', from);
  int port = 0;
  size_t end = colon + 1;
  while (end < text.size() && isdigit(static_cast<unsigned char>(text[end]))) ++end;
  if (colon == std::string::npos ||
      !absl::SimpleAtoi(text.substr(colon + 1, end - colon - 1), &port)) {
    return 0;
  }
  return port;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ServerProcess>> ServerProcess::Start(
    const std::vector<std::string>& flags, const std::string& stderr_path) {
  // No drain delay unless a test asks for one: stopping stays quick.
  std::vector<std::string> args = {MOREAUD_PATH,     "--host", "127.0.0.1",       "--port", "0",
                                   "--metrics-port", "0",      "--drain-delay-s", "0"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int out[2];
  if (pipe(out) != 0) return absl::InternalError("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  if (!stderr_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
  }
  std::unique_ptr<ServerProcess> server(new ServerProcess());
  const int rc = posix_spawn(&server->pid_, MOREAUD_PATH, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    return absl::InternalError(absl::StrCat("cannot start ", MOREAUD_PATH));
  }
  auto line = ReadLine(out[0], 20000);
  close(out[0]);  // later output goes nowhere (SIGPIPE-free: moreaud prints once)
  if (!line.ok()) return line.status();
  const size_t listening = line->find("listening on ");
  const size_t metrics = line->find("metrics on http://");
  if (listening == std::string::npos) {
    return absl::InternalError(absl::StrCat("unexpected first line: ", *line));
  }
  // "listening on HOST:PORT": the host is the text before the port's colon.
  const size_t host_start = listening + std::string("listening on ").size();
  const size_t host_end = line->find(':', host_start);
  const int port = AfterColon(*line, listening);
  server->host_ = line->substr(host_start, host_end - host_start);
  server->port_ = port;
  server->address_ = absl::StrCat(server->host_, ":", port);
  if (metrics != std::string::npos) {
    server->metrics_port_ = AfterColon(*line, metrics + std::string("metrics on http").size() + 1);
  }
  return server;
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) Terminate();
}

int ServerProcess::Terminate() {
  Signal(SIGTERM);
  return Wait();
}

int ServerProcess::Kill() {
  Signal(SIGKILL);
  return Wait();
}

void ServerProcess::Signal(int signal) {
  if (pid_ > 0) kill(pid_, signal);
}

int ServerProcess::Wait() {
  if (pid_ <= 0) return -1;
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

long ServerProcess::RssKb() const {
  std::ifstream status(absl::StrCat("/proc/", pid_, "/status"));
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      long kb = 0;
      status >> kb;
      return kb;
    }
    std::getline(status, key);
  }
  return -1;
}

std::string ReadTextFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

absl::StatusOr<std::string> HttpGet(int port, const std::string& path) {
  return HttpGet("127.0.0.1", port, path);
}

absl::StatusOr<std::string> HttpGet(const std::string& host, int port, const std::string& path) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
    return absl::InvalidArgumentError(absl::StrCat("not an IPv4 address: ", host));
  }
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return absl::InternalError("socket failed");
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return absl::UnavailableError(absl::StrCat("cannot connect to ", host, ":", port));
  }
  const std::string request = absl::StrCat("GET ", path, " HTTP/1.0\r\nHost: localhost\r\n\r\n");
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(fd);
    return absl::InternalError("write failed");
  }
  std::string response;
  char buffer[65536];
  ssize_t n = 0;
  while ((n = read(fd, buffer, sizeof(buffer))) > 0)
    response.append(buffer, static_cast<size_t>(n));
  close(fd);
  const size_t body = response.find("\r\n\r\n");
  if (response.rfind("HTTP/1.", 0) != 0 || body == std::string::npos) {
    return absl::InternalError(absl::StrCat("not an HTTP response: ", response.substr(0, 80)));
  }
  if (response.find(" 200 ") == std::string::npos) {
    return absl::InternalError(
        absl::StrCat("HTTP error: ", response.substr(0, response.find('\r'))));
  }
  return response.substr(body + 4);
}

double MetricValue(const std::string& page, const std::string& series) {
  std::istringstream lines(page);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(series, 0) == 0 && line.size() > series.size() && line[series.size()] == ' ') {
      double value = 0.0;
      if (absl::SimpleAtod(line.substr(series.size() + 1), &value)) return value;
    }
  }
  return -1.0;
}

}  // namespace moreau::testing
