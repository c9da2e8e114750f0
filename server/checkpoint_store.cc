#include "server/checkpoint_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace moreau::server {
namespace {

std::string FileName(const std::string& id) { return absl::StrCat(id, kCheckpointSuffix); }

void LogLine(const std::string& line) {
  std::fprintf(stderr, "moreaud: %s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace

CheckpointStore::CheckpointStore(CheckpointStoreOptions options, Metrics* metrics)
    : options_(std::move(options)), metrics_(metrics) {}

CheckpointStore::~CheckpointStore() {
  StopPeriodic();
  if (lock_fd_ >= 0) close(lock_fd_);
}

absl::Status CheckpointStore::Open() {
  std::error_code error;
  std::filesystem::create_directories(options_.dir, error);
  if (error) {
    return absl::UnavailableError(
        absl::StrCat("state dir ", options_.dir, ": cannot create: ", error.message()));
  }
  const std::string lock_path = absl::StrCat(options_.dir, "/.lock");
  lock_fd_ = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd_ < 0) {
    return absl::UnavailableError(absl::StrCat("state dir ", options_.dir, ": cannot open ",
                                               lock_path, ": ", std::strerror(errno)));
  }
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    close(lock_fd_);
    lock_fd_ = -1;
    if (e == EWOULDBLOCK) {
      return absl::FailedPreconditionError(absl::StrCat(
          "state dir ", options_.dir, " is in use by another moreaud (", lock_path, " is locked)"));
    }
    return absl::UnavailableError(absl::StrCat("state dir ", options_.dir, ": cannot lock ",
                                               lock_path, ": ", std::strerror(e)));
  }
  return absl::OkStatus();
}

int CheckpointStore::RestoreAll(absl::FunctionRef<absl::Status(const CheckpointRecord&)> adopt) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (std::filesystem::directory_iterator it(options_.dir, error), end; !error && it != end;
       it.increment(error)) {
    if (it->is_regular_file(error)) files.push_back(it->path());
  }
  if (error) {
    LogLine(absl::StrCat("error: state dir ", options_.dir, ": cannot list: ", error.message(),
                         "; no instance restored"));
    return 0;
  }
  std::sort(files.begin(), files.end());
  int restored = 0, skipped = 0;
  for (const std::filesystem::path& path : files) {
    const std::string name = path.filename().string();
    if (name.front() == '.') {
      // A write that a crash interrupted before its rename: the previous
      // checkpoint (if any) is intact under the real name.
      if (absl::EndsWith(name, absl::StrCat(kCheckpointSuffix, ".tmp"))) {
        std::filesystem::remove(path, error);
      }
      continue;
    }
    absl::Status status;
    auto bytes = ReadWholeFile(path.string());
    absl::StatusOr<CheckpointRecord> record =
        bytes.ok() ? DecodeCheckpoint(*bytes) : absl::StatusOr<CheckpointRecord>(bytes.status());
    if (!record.ok()) {
      status = record.status();
    } else if (name != FileName(record->id)) {
      status = absl::DataLossError(
          absl::StrCat("the file name does not match the instance id inside ('", record->id,
                       "', expected file ", FileName(record->id), ")"));
    } else {
      status = adopt(*record);
    }
    if (!status.ok()) {
      ++skipped;
      LogLine(absl::StrCat("error: skipping checkpoint ", path.string(), ": ", status.message()));
      continue;
    }
    ++restored;
    absl::MutexLock lock(&mu_);
    written_[record->id] =
        Written{std::move(record->state), record->diverged, std::move(record->diverged_message)};
  }
  LogLine(absl::StrCat("restored ", restored, " instance(s) from ", options_.dir,
                       skipped > 0 ? absl::StrCat(" (", skipped, " file(s) skipped)") : ""));
  return restored;
}

CheckpointPass CheckpointStore::CheckpointChanged(const Registry& registry) {
  absl::MutexLock pass_lock(&pass_mu_);
  CheckpointPass pass;
  std::vector<std::string> renamed;  // files written by this pass
  for (const std::shared_ptr<Instance>& instance : registry.All()) {
    Written now;
    const Model* model = nullptr;
    {
      // The only time the instance is held: to copy what the file needs.
      absl::MutexLock lock(&instance->mu);
      now.state = instance->sim->Snapshot();
      now.diverged = instance->sim->diverged();
      now.diverged_message = instance->sim->diverged_message();
      model = &instance->sim->model();  // immutable, lives as long as the instance
    }
    {
      absl::MutexLock lock(&mu_);
      auto it = written_.find(instance->id);
      if (it != written_.end() && it->second.state == now.state &&
          it->second.diverged == now.diverged &&
          it->second.diverged_message == now.diverged_message) {
        ++pass.unchanged;
        continue;
      }
    }
    CheckpointRecord record;
    record.id = instance->id;
    record.tenant = instance->tenant;
    if (instance->source != nullptr) record.source = *instance->source;
    record.settings = instance->settings;
    record.model_fingerprint = ModelFingerprint(*model);
    record.state = now.state;
    record.diverged = now.diverged;
    record.diverged_message = now.diverged_message;
    const std::string bytes = EncodeCheckpoint(record);

    absl::Status status;
    {
      absl::MutexLock lock(&mu_);
      // Destroyed meanwhile: Forget has run or waits for this lock; either
      // way no file may be left behind.
      if (instance->destroyed) continue;
      status = IsCheckpointableId(instance->id)
                   ? WriteAndRename(options_.dir, FileName(instance->id), bytes)
                   : absl::InvalidArgumentError(
                         absl::StrCat("instance id '", instance->id, "' cannot name a file"));
      if (status.ok()) written_[instance->id] = std::move(now);
    }
    if (status.ok()) {
      renamed.push_back(instance->id);
    } else {
      ++pass.failed;
      if (pass.first_error.empty()) pass.first_error = std::string(status.message());
    }
  }
  if (!renamed.empty()) {
    if (absl::Status s = SyncDirectory(options_.dir); s.ok()) {
      pass.written = static_cast<int>(renamed.size());
    } else {
      // The files are written but their names may not survive a power loss:
      // failed, and written again by the next pass.
      pass.failed += static_cast<int>(renamed.size());
      if (pass.first_error.empty()) pass.first_error = std::string(s.message());
      absl::MutexLock lock(&mu_);
      for (const std::string& id : renamed) written_.erase(id);
    }
  }
  metrics_->CheckpointsWritten(pass.written, pass.failed);
  return pass;
}

void CheckpointStore::StartPeriodic(const Registry* registry) {
  if (options_.interval <= absl::ZeroDuration() || periodic_.joinable()) return;
  periodic_ = std::thread([this, registry] {
    while (!stop_.WaitForNotificationWithTimeout(options_.interval)) {
      const CheckpointPass pass = CheckpointChanged(*registry);
      if (pass.failed > 0) {
        LogLine(absl::StrCat("error: checkpoint: ", pass.failed, " of ", pass.failed + pass.written,
                             " changed instance(s) not saved to ", options_.dir, ": ",
                             pass.first_error));
      }
    }
  });
}

void CheckpointStore::StopPeriodic() {
  if (!stop_.HasBeenNotified()) stop_.Notify();
  if (periodic_.joinable()) periodic_.join();
}

void CheckpointStore::Forget(const std::vector<std::string>& ids) {
  if (ids.empty()) return;
  bool removed = false;
  {
    absl::MutexLock lock(&mu_);
    for (const std::string& id : ids) {
      written_.erase(id);
      if (!IsCheckpointableId(id)) continue;
      const std::string path = absl::StrCat(options_.dir, "/", FileName(id));
      if (unlink(path.c_str()) == 0) {
        removed = true;
      } else if (errno != ENOENT) {
        LogLine(absl::StrCat("error: cannot remove checkpoint ", path, ": ", std::strerror(errno)));
      }
    }
  }
  if (removed) {
    if (absl::Status s = SyncDirectory(options_.dir); !s.ok()) {
      LogLine(absl::StrCat("error: ", s.message()));
    }
  }
}

}  // namespace moreau::server
