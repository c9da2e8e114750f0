// The state directory (--state-dir): one checkpoint file per instance
// (checkpoint.h), named after its id. Written periodically (only instances
// whose state changed since their last checkpoint; each instance's lock is
// held only to copy its snapshot) and once more at shutdown; read back at
// start; a file is removed when its instance is destroyed or reclaimed.
// A file that cannot be written is logged on stderr and counted
// (moreau_checkpoints_total{outcome="error"}); serving goes on.
#ifndef MOREAU_SERVER_CHECKPOINT_STORE_H_
#define MOREAU_SERVER_CHECKPOINT_STORE_H_

#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "server/checkpoint.h"
#include "server/metrics.h"
#include "server/registry.h"

namespace moreau::server {

struct CheckpointStoreOptions {
  std::string dir;
  // Between periodic passes; zero: checkpoints only at shutdown.
  absl::Duration interval = absl::Seconds(30);
};

// What one pass did.
struct CheckpointPass {
  int written = 0;
  int unchanged = 0;
  int failed = 0;
  std::string first_error;  // of the failed writes
};

class CheckpointStore {
 public:
  CheckpointStore(CheckpointStoreOptions options, Metrics* metrics);
  ~CheckpointStore();  // StopPeriodic
  CheckpointStore(const CheckpointStore&) = delete;
  CheckpointStore& operator=(const CheckpointStore&) = delete;

  // Creates the directory when missing and takes its lock (flock of
  // dir/.lock), so that two servers never share one directory.
  // FAILED_PRECONDITION when another process holds the lock; UNAVAILABLE
  // naming the path and the system error when the directory cannot be
  // created or locked (then reads and writes are still tried, and fail alone).
  absl::Status Open() ABSL_LOCKS_EXCLUDED(mu_);

  // Reads every file of the directory (sorted by name; dot files aside,
  // leftover temporary files removed) and hands each checkpoint to `adopt`,
  // which rebuilds the instance. A file that is foreign, corrupt, truncated,
  // named after another id, or that `adopt` refuses (e.g. its model no longer
  // matches) is skipped with a line on stderr naming it and the reason, and
  // left in place. Returns how many instances were restored.
  int RestoreAll(absl::FunctionRef<absl::Status(const CheckpointRecord&)> adopt)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Writes the checkpoint of every instance of `registry` whose state,
  // diverged flag or message changed since its last checkpoint (or that has
  // none), then syncs the directory. Passes run one at a time.
  CheckpointPass CheckpointChanged(const Registry& registry) ABSL_LOCKS_EXCLUDED(mu_, pass_mu_);

  // Runs CheckpointChanged every options.interval on a thread of its own,
  // logging the passes that fail. No-op when the interval is zero.
  void StartPeriodic(const Registry* registry);
  // Waits for a pass in progress, then stops the thread.
  void StopPeriodic();

  // Removes the checkpoints of these instances (destroyed or reclaimed; they
  // must already be marked destroyed so that a pass in progress skips them).
  void Forget(const std::vector<std::string>& ids) ABSL_LOCKS_EXCLUDED(mu_);

  const std::string& dir() const { return options_.dir; }

 private:
  // What the last checkpoint of an instance held (to tell whether it changed).
  struct Written {
    std::string state;
    bool diverged = false;
    std::string diverged_message;
  };

  const CheckpointStoreOptions options_;
  Metrics* const metrics_;
  int lock_fd_ = -1;

  absl::Mutex pass_mu_ ABSL_ACQUIRED_BEFORE(mu_);  // one pass at a time
  // Held while a file is written or removed, so that a removal never races
  // with a write of the same instance.
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Written> written_ ABSL_GUARDED_BY(mu_);

  absl::Notification stop_;
  std::thread periodic_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_CHECKPOINT_STORE_H_
