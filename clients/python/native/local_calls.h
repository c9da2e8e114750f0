// Calls into an in-process moreaud as serialized messages: a unary call
// waited on (or cancelled) from any thread, and a bidirectional stream whose
// reads and writes block the caller, not gRPC's threads. The Python module
// (module.cc) wraps them; nothing here knows Python.
#ifndef MOREAU_CLIENTS_PYTHON_NATIVE_LOCAL_CALLS_H_
#define MOREAU_CLIENTS_PYTHON_NATIVE_LOCAL_CALLS_H_

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

namespace moreau::local {

// A finished call's outcome: its gRPC code and message.
struct CallStatus {
  int code = 0;
  std::string message;
};

// Sets `context`'s deadline `timeout_s` seconds from now (none when empty).
void SetDeadline(grpc::ClientContext& context, std::optional<double> timeout_s);

// A message's bytes as a ByteBuffer (one copy) and back.
grpc::ByteBuffer ToByteBuffer(std::string_view bytes);
std::string FromByteBuffer(const grpc::ByteBuffer& buffer);
// Copies `buffer`'s bytes to `out`, which has room for buffer.Length();
// false when its slices cannot be read.
bool CopyByteBuffer(const grpc::ByteBuffer& buffer, char* out);

// One unary call: started by Start, finished on a gRPC thread.
class UnaryCall : public std::enable_shared_from_this<UnaryCall> {
 public:
  static std::shared_ptr<UnaryCall> Start(grpc::GenericStub& stub, const std::string& method,
                                          std::string_view request,
                                          std::optional<double> timeout_s);
  // Waits up to `timeout` for the call to finish; whether it has.
  bool Wait(absl::Duration timeout);
  bool done() const { return done_.HasBeenNotified(); }
  // After done(): the outcome and, when OK, the reply.
  const CallStatus& status() const { return status_; }
  const grpc::ByteBuffer& response() const { return response_; }
  std::string ResponseBytes() { return FromByteBuffer(response_); }
  void Cancel() { context_.TryCancel(); }

 private:
  UnaryCall() = default;

  grpc::ClientContext context_;
  grpc::ByteBuffer request_;
  grpc::ByteBuffer response_;
  CallStatus status_;
  absl::Notification done_;
};

// One bidirectional stream (a server-streaming method is one write, then
// WritesDone). Writes queue and go out one at a time; reads are buffered.
class StreamCall : public grpc::ClientBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>,
                   public std::enable_shared_from_this<StreamCall> {
 public:
  static std::shared_ptr<StreamCall> Open(grpc::GenericStub& stub, const std::string& method,
                                          std::optional<double> timeout_s);
  // Queues a message; false once the stream has finished.
  bool Write(std::string_view message);
  // No more writes (after the queued ones).
  void WritesDone();
  // The next message received; empty when the stream has ended (then
  // ended() is true and Finish gives its outcome) or `timeout` passed.
  std::optional<std::string> Read(absl::Duration timeout);
  // Every message has been read and no more will come.
  bool ended() const;
  // Waits for the stream's end and returns its outcome.
  CallStatus Finish();
  bool done() const;
  // Cancels the stream; its queued writes are dropped.
  void Cancel();

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnWritesDoneDone(bool /*ok*/) override {}
  void OnDone(const grpc::Status& status) override;

 private:
  StreamCall() = default;

  grpc::ClientContext context_;
  std::shared_ptr<StreamCall> self_;  // alive until OnDone
  mutable absl::Mutex mu_;
  std::deque<grpc::ByteBuffer> to_write_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool writes_done_asked_ ABSL_GUARDED_BY(mu_) = false;
  bool hold_released_ ABSL_GUARDED_BY(mu_) = false;
  std::deque<std::string> received_ ABSL_GUARDED_BY(mu_);
  grpc::ByteBuffer read_buffer_;
  bool reads_ended_ ABSL_GUARDED_BY(mu_) = false;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  CallStatus status_ ABSL_GUARDED_BY(mu_);
};

}  // namespace moreau::local

#endif  // MOREAU_CLIENTS_PYTHON_NATIVE_LOCAL_CALLS_H_
