#include "bench/service/soak_supervisor.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <random>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/service/soak_process.h"
#include "bench/service/soak_tally.h"

namespace moreau::bench::soak {
namespace {

using Clock = std::chrono::steady_clock;

// RSS is compared as the high-water mark of a window this long (s).
constexpr double kRssWindowS = 10.0;

std::atomic<bool> interrupted{false};

void OnInterrupt(int) { interrupted = true; }

double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Slot {
  Child child;
  int incarnation = -1;
};

class Soak {
 public:
  explicit Soak(const SoakOptions& options) : o_(options), rng_(options.seed) {}

  int Run() {
    struct sigaction action = {};
    action.sa_handler = OnInterrupt;
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGINT, &action, nullptr);
    if (!StartServer()) return 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    start_ = ReadProcStats(server_.pid);
    slots_.resize(static_cast<size_t>(o_.workers));
    for (Slot& slot : slots_) SpawnWorker(slot);

    const double warmup =
        o_.warmup_s > 0.0 ? o_.warmup_s : std::clamp(o_.duration_s / 4.0, 15.0, 120.0);
    const Clock::time_point t0 = Clock::now();
    Clock::time_point next_kill = t0 + KillInterval();
    bool warm = false;
    Clock::time_point next_sample = t0;
    while (SecondsSince(t0) < o_.duration_s && !interrupted) {
      Pump(100);
      if (ServerExited()) break;
      if (Clock::now() >= next_sample) {
        rss_.emplace_back(SecondsSince(t0), ReadProcStats(server_.pid).rss_kb);
        next_sample += std::chrono::seconds(1);
      }
      for (Slot& slot : slots_) {
        if (const int status = WaitFor(slot.child.pid, 0.0); status != -1) {
          std::fprintf(stderr, "soak: worker %d exited by itself (%d)\n", slot.incarnation,
                       ExitCodeOf(status));
          ++worker_failures_;
          Reap(slot);
          SpawnWorker(slot);
        }
      }
      // At most two killed workers' instances wait for the idle reclaim at
      // once, so that the server's population (and memory) stays bounded.
      while (!kill_times_.empty() && SecondsSince(kill_times_.front()) > o_.idle_timeout_s + 2.0) {
        kill_times_.pop_front();
      }
      if (o_.kill_every_s > 0.0 && Clock::now() >= next_kill && kill_times_.size() < 2) {
        kill_times_.push_back(Clock::now());
        Slot& slot = slots_[static_cast<size_t>(
            std::uniform_int_distribution<int>(0, o_.workers - 1)(rng_))];
        kill(slot.child.pid, SIGKILL);
        if (WaitFor(slot.child.pid, 10.0) == -1) ++worker_failures_;
        ++kills_;
        Reap(slot);
        SpawnWorker(slot);
        next_kill = Clock::now() + KillInterval();
      }
      if (!warm && SecondsSince(t0) >= warmup) {
        warm_ = ReadProcStats(server_.pid);
        warm_.rss_kb = MaxRss(warmup - kRssWindowS, warmup);
        warm = true;
      }
    }
    elapsed_s_ = SecondsSince(t0);
    if (!server_crashed_) {
      end_ = ReadProcStats(server_.pid);
      end_.rss_kb = std::max(end_.rss_kb, MaxRss(elapsed_s_ - kRssWindowS, elapsed_s_));
    }
    StopWorkers();
    if (!server_crashed_) {
      // Streams and connections of the workers wind down, then the server is
      // idle again (but for the instances of killed workers, until reclaimed).
      std::this_thread::sleep_for(std::chrono::seconds(2));
      drained_ = ReadProcStats(server_.pid);
      StopServer();
    }
    return Report(warm, warmup);
  }

 private:
  // The largest RSS sampled in [from_s, to_s] of the run: the population of
  // instances varies (churn, killed workers' instances until reclaimed), so
  // windows' high-water marks are compared rather than single samples.
  long MaxRss(double from_s, double to_s) const {
    long rss = -1;
    for (const auto& [t, kb] : rss_) {
      if (t >= from_s && t <= to_s) rss = std::max(rss, kb);
    }
    return rss;
  }

  Clock::duration KillInterval() {
    const double s = o_.kill_every_s * std::uniform_real_distribution<double>(0.5, 1.5)(rng_);
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }

  bool StartServer() {
    auto server =
        Spawn({o_.moreaud, "--host", "127.0.0.1", "--port", "0", "--metrics_port", "0",
               absl::StrCat("--max_batch=", o_.max_batch),
               absl::StrCat("--max_message_bytes=", o_.max_message_bytes),
               absl::StrCat("--idle_timeout_s=", o_.idle_timeout_s)},
              o_.server_malloc_arena_max > 0 ? std::vector<std::string>{absl::StrCat(
                                                   "MALLOC_ARENA_MAX=", o_.server_malloc_arena_max)}
                                             : std::vector<std::string>{});
    if (!server.ok()) {
      std::printf("soak: %s\n", std::string(server.status().message()).c_str());
      return false;
    }
    server_ = *server;
    const Clock::time_point t0 = Clock::now();
    while (SecondsSince(t0) < 20.0 && address_.empty()) {
      pollfd p{server_.out_fd, POLLIN, 0};
      poll(&p, 1, 100);
      std::vector<std::string> lines;
      const bool open = ReadLines(server_, lines);
      for (const std::string& line : lines) {
        std::fprintf(stderr, "%s\n", line.c_str());
        if (auto address = ListeningAddress(line); address.ok()) address_ = *address;
      }
      if (!open) break;
    }
    if (address_.empty()) {
      std::printf("soak: moreaud printed no 'listening on HOST:PORT' line within 20 s\n");
      kill(server_.pid, SIGKILL);
      WaitFor(server_.pid, 10.0);
      return false;
    }
    return true;
  }

  void SpawnWorker(Slot& slot) {
    slot.incarnation = incarnations_++;
    auto child =
        Spawn({o_.self, "--worker", absl::StrCat("--address=", address_),
               absl::StrCat("--seed=", o_.seed * 100003 + slot.incarnation),
               absl::StrCat("--instances=", o_.instances), absl::StrCat("--pace_ms=", o_.pace_ms),
               absl::StrCat("--max_batch=", o_.max_batch),
               absl::StrCat("--max_message_bytes=", o_.max_message_bytes)});
    if (!child.ok()) {
      ++worker_failures_;
      slot.child = Child();
      return;
    }
    slot.child = *child;
  }

  // Reads the output of a worker that has exited.
  void Reap(Slot& slot) {
    std::vector<std::string> lines;
    DrainUntilExit(slot.child, lines);
    Handle(slot.incarnation, lines);
  }

  // Waits up to `timeout_ms` for output and handles it.
  void Pump(int timeout_ms) {
    std::vector<pollfd> fds;
    if (server_.out_fd >= 0) fds.push_back({server_.out_fd, POLLIN, 0});
    for (const Slot& slot : slots_) {
      if (slot.child.out_fd >= 0) fds.push_back({slot.child.out_fd, POLLIN, 0});
    }
    poll(fds.data(), fds.size(), timeout_ms);
    std::vector<std::string> lines;
    ReadLines(server_, lines);
    for (const std::string& line : lines) std::fprintf(stderr, "%s\n", line.c_str());
    for (Slot& slot : slots_) {
      lines.clear();
      ReadLines(slot.child, lines);
      Handle(slot.incarnation, lines);
    }
  }

  void Handle(int incarnation, const std::vector<std::string>& lines) {
    for (const std::string& line : lines) {
      if (line.rfind("T ", 0) == 0 || line == "T") {
        Counts counts;
        if (ParseSnapshot(line.size() > 2 ? absl::string_view(line).substr(2) : "", counts)) {
          snapshots_[incarnation] = std::move(counts);
        }
      } else if (line.rfind("U ", 0) == 0) {
        if (unexpected_lines_.size() < 40) {
          unexpected_lines_.push_back(absl::StrCat("worker ", incarnation, ": ", line.substr(2)));
        }
        ++unexpected_;
      } else {
        std::fprintf(stderr, "worker %d: %s\n", incarnation, line.c_str());
      }
    }
  }

  bool ServerExited() {
    if (server_crashed_) return true;
    const int status = WaitFor(server_.pid, 0.0);
    if (status == -1) return false;
    server_crashed_ = true;
    server_status_ = ExitCodeOf(status);
    std::vector<std::string> lines;
    DrainUntilExit(server_, lines);
    for (const std::string& line : lines) std::fprintf(stderr, "%s\n", line.c_str());
    return true;
  }

  void StopWorkers() {
    for (Slot& slot : slots_) {
      if (slot.child.pid > 0) kill(slot.child.pid, SIGTERM);
    }
    const Clock::time_point t0 = Clock::now();
    std::vector<bool> done(slots_.size(), false);
    while (std::count(done.begin(), done.end(), false) > 0) {
      Pump(50);
      for (size_t i = 0; i < slots_.size(); ++i) {
        if (done[i]) continue;
        Slot& slot = slots_[i];
        int status = WaitFor(slot.child.pid, 0.0);
        if (status == -1 && SecondsSince(t0) > 40.0) {  // stuck: a failure
          kill(slot.child.pid, SIGKILL);
          status = WaitFor(slot.child.pid, 10.0);
          ++worker_failures_;
        } else if (status != -1 && ExitCodeOf(status) != 0) {
          std::fprintf(stderr, "soak: worker %d exited with %d\n", slot.incarnation,
                       ExitCodeOf(status));
          ++worker_failures_;
        }
        if (status == -1 && SecondsSince(t0) <= 40.0) continue;
        Reap(slot);
        done[i] = true;
      }
    }
  }

  void StopServer() {
    kill(server_.pid, SIGTERM);
    int status = WaitFor(server_.pid, 30.0);
    if (status == -1) {
      kill(server_.pid, SIGKILL);
      WaitFor(server_.pid, 10.0);
      server_status_ = -1;  // did not stop on SIGTERM
    } else {
      server_status_ = ExitCodeOf(status);
    }
    std::vector<std::string> lines;
    DrainUntilExit(server_, lines);
    for (const std::string& line : lines) std::fprintf(stderr, "%s\n", line.c_str());
  }

  int Report(bool warm, double warmup) {
    Counts total;
    for (const auto& [incarnation, counts] : snapshots_) {
      for (const auto& [key, n] : counts) total[key] += n;
    }
    long calls = 0;
    std::printf(
        "soak: %d workers x %d instances against moreaud pid %d at %s, %.0f s "
        "(warm-up %.0f s), seed %llu, server MALLOC_ARENA_MAX %s\n",
        o_.workers, o_.instances, static_cast<int>(server_.pid), address_.c_str(), elapsed_s_,
        warmup, static_cast<unsigned long long>(o_.seed),
        o_.server_malloc_arena_max > 0 ? absl::StrCat(o_.server_malloc_arena_max).c_str()
                                       : "default");
    std::printf("calls by RPC and code:\n");
    for (const auto& [key, n] : total) {
      std::printf("  %-18s %-20s %10ld\n", key.first.c_str(), CodeName(key.second).c_str(), n);
      calls += n;
    }
    std::printf("  %-39s %10ld\n", "total", calls);
    std::printf("unexpected codes: %ld\n", unexpected_);
    for (const std::string& line : unexpected_lines_) std::printf("  %s\n", line.c_str());
    std::printf("workers: %d started, %d SIGKILLed and restarted, %d failed\n", incarnations_,
                kills_, worker_failures_);
    std::printf("server crashes: %d", server_crashed_ ? 1 : 0);
    std::printf(server_crashed_ ? " (exit %d while under load)\n" : " (exit %d after SIGTERM)\n",
                server_status_);
    const double growth =
        warm && warm_.rss_kb > 0 ? static_cast<double>(end_.rss_kb) / warm_.rss_kb - 1.0 : 1.0;
    std::printf(
        "server RSS: start %ld kB, after warm-up %ld kB, end %ld kB (%+.2f %%; each the "
        "largest of its last 10 s), drained %ld kB\n",
        start_.rss_kb, warm_.rss_kb, end_.rss_kb, 100.0 * growth, drained_.rss_kb);
    std::printf("server threads: start %d, after warm-up %d, end %d, drained %d\n", start_.threads,
                warm_.threads, end_.threads, drained_.threads);
    std::printf("server open fds: start %d, after warm-up %d, end %d, drained %d\n", start_.fds,
                warm_.fds, end_.fds, drained_.fds);

    std::vector<std::string> failures;
    if (interrupted) failures.push_back("interrupted");
    if (unexpected_ > 0) failures.push_back(absl::StrCat(unexpected_, " unexpected codes"));
    if (server_crashed_) failures.push_back("the server crashed");
    if (!server_crashed_ && server_status_ != 0) {
      failures.push_back(absl::StrCat("the server exited with ", server_status_, " on SIGTERM"));
    }
    if (worker_failures_ > 0)
      failures.push_back(absl::StrCat(worker_failures_, " worker failures"));
    if (calls == 0) failures.push_back("no calls");
    if (!warm) failures.push_back("the run ended before its warm-up");
    if (!server_crashed_ && warm && !(growth < o_.max_rss_growth)) {
      failures.push_back(absl::StrCat("RSS grew ", 100.0 * growth, " % after the warm-up"));
    }
    if (!server_crashed_ && drained_.threads > warm_.threads) {
      failures.push_back(absl::StrCat("threads grew: ", warm_.threads, " after the warm-up, ",
                                      drained_.threads, " once the workers were gone"));
    }
    if (!server_crashed_ && drained_.fds > start_.fds) {
      failures.push_back(absl::StrCat("open fds grew: ", start_.fds, " at the start, ",
                                      drained_.fds, " once the workers were gone"));
    }
    if (failures.empty()) {
      std::printf("soak: PASS\n");
      return 0;
    }
    std::printf("soak: FAIL:");
    for (const std::string& f : failures) std::printf(" %s;", f.c_str());
    std::printf("\n");
    return 1;
  }

  const SoakOptions o_;
  std::mt19937_64 rng_;
  Child server_;
  std::string address_;
  std::vector<Slot> slots_;
  std::map<int, Counts> snapshots_;  // the last snapshot of each worker incarnation
  std::vector<std::string> unexpected_lines_;
  long unexpected_ = 0;
  int incarnations_ = 0;
  int kills_ = 0;
  int worker_failures_ = 0;
  bool server_crashed_ = false;
  int server_status_ = 0;
  double elapsed_s_ = 0.0;
  ProcStats start_, warm_, end_, drained_;
  std::vector<std::pair<double, long>> rss_;  // (s since the start, kB), every second
  std::deque<Clock::time_point> kill_times_;  // of the recent SIGKILLs
};

}  // namespace

int RunSoak(const SoakOptions& options) { return Soak(options).Run(); }

}  // namespace moreau::bench::soak
