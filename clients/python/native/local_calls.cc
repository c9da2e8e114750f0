#include "clients/python/native/local_calls.h"

#include <chrono>
#include <cstring>
#include <utility>
#include <vector>

namespace moreau::local {

void SetDeadline(grpc::ClientContext& context, std::optional<double> timeout_s) {
  if (!timeout_s.has_value()) return;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::duration_cast<std::chrono::system_clock::duration>(
                           std::chrono::duration<double>(*timeout_s)));
}

grpc::ByteBuffer ToByteBuffer(std::string_view bytes) {
  grpc::Slice slice(bytes.data(), bytes.size());
  return grpc::ByteBuffer(&slice, 1);
}

bool CopyByteBuffer(const grpc::ByteBuffer& buffer, char* out) {
  std::vector<grpc::Slice> slices;
  if (!buffer.Dump(&slices).ok()) return false;
  for (const grpc::Slice& slice : slices) {
    std::memcpy(out, slice.begin(), slice.size());
    out += slice.size();
  }
  return true;
}

std::string FromByteBuffer(const grpc::ByteBuffer& buffer) {
  std::string bytes(buffer.Length(), '\0');
  if (!CopyByteBuffer(buffer, bytes.data())) bytes.clear();
  return bytes;
}

std::shared_ptr<UnaryCall> UnaryCall::Start(grpc::GenericStub& stub, const std::string& method,
                                            std::string_view request,
                                            std::optional<double> timeout_s) {
  std::shared_ptr<UnaryCall> call(new UnaryCall());
  SetDeadline(call->context_, timeout_s);
  call->request_ = ToByteBuffer(request);
  // The callback holds the call until it has run.
  stub.UnaryCall(&call->context_, method, grpc::StubOptions(), &call->request_, &call->response_,
                 [call](grpc::Status status) {
                   call->status_ = {static_cast<int>(status.error_code()), status.error_message()};
                   call->done_.Notify();
                 });
  return call;
}

bool UnaryCall::Wait(absl::Duration timeout) {
  return done_.WaitForNotificationWithTimeout(timeout);
}

std::shared_ptr<StreamCall> StreamCall::Open(grpc::GenericStub& stub, const std::string& method,
                                             std::optional<double> timeout_s) {
  std::shared_ptr<StreamCall> call(new StreamCall());
  call->self_ = call;
  SetDeadline(call->context_, timeout_s);
  stub.PrepareBidiStreamingCall(&call->context_, method, grpc::StubOptions(), call.get());
  // Writes come from outside the reactions: held until the last one.
  call->AddHold();
  call->StartRead(&call->read_buffer_);
  call->StartCall();
  return call;
}

bool StreamCall::Write(std::string_view message) {
  grpc::ByteBuffer* start = nullptr;
  {
    absl::MutexLock lock(&mu_);
    if (done_ || reads_ended_ || writes_done_asked_) return false;
    to_write_.push_back(ToByteBuffer(message));
    if (!writing_) {
      writing_ = true;
      start = &to_write_.front();
    }
  }
  if (start != nullptr) StartWrite(start);
  return true;
}

void StreamCall::WritesDone() {
  bool send = false;
  {
    absl::MutexLock lock(&mu_);
    if (writes_done_asked_) return;
    writes_done_asked_ = true;
    if (!writing_ && !hold_released_) send = hold_released_ = true;
  }
  if (send) {
    StartWritesDone();
    RemoveHold();
  }
}

void StreamCall::Cancel() {
  context_.TryCancel();
  bool release = false;
  {
    absl::MutexLock lock(&mu_);
    writes_done_asked_ = true;
    if (!writing_ && !hold_released_) release = hold_released_ = true;
  }
  if (release) RemoveHold();
}

void StreamCall::OnWriteDone(bool ok) {
  grpc::ByteBuffer* next = nullptr;
  bool send_writes_done = false;
  bool release = false;
  {
    absl::MutexLock lock(&mu_);
    to_write_.pop_front();
    writing_ = false;
    if (!ok || reads_ended_) to_write_.clear();
    if (!to_write_.empty()) {
      writing_ = true;
      next = &to_write_.front();
    } else if (!hold_released_ && (writes_done_asked_ || !ok || reads_ended_)) {
      hold_released_ = release = true;
      send_writes_done = ok && !reads_ended_;
    }
  }
  if (next != nullptr) StartWrite(next);
  if (send_writes_done) StartWritesDone();
  if (release) RemoveHold();
}

void StreamCall::OnReadDone(bool ok) {
  bool release = false;
  {
    absl::MutexLock lock(&mu_);
    if (ok) {
      received_.push_back(FromByteBuffer(read_buffer_));
    } else {
      reads_ended_ = true;
      // The server has finished: no write can matter any more.
      if (!writing_ && !hold_released_) release = hold_released_ = true;
    }
  }
  if (ok) StartRead(&read_buffer_);
  if (release) RemoveHold();
}

void StreamCall::OnDone(const grpc::Status& status) {
  std::shared_ptr<StreamCall> keep;
  {
    absl::MutexLock lock(&mu_);
    status_ = {static_cast<int>(status.error_code()), status.error_message()};
    done_ = true;
    reads_ended_ = true;
    keep = std::move(self_);
  }
  // `keep` may be the last owner: *this may end here.
}

std::optional<std::string> StreamCall::Read(absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  auto ready = [this]()
                   ABSL_SHARED_LOCKS_REQUIRED(mu_) { return !received_.empty() || reads_ended_; };
  mu_.AwaitWithTimeout(absl::Condition(&ready), timeout);
  if (received_.empty()) return std::nullopt;
  std::string message = std::move(received_.front());
  received_.pop_front();
  return message;
}

bool StreamCall::ended() const {
  absl::MutexLock lock(&mu_);
  return received_.empty() && reads_ended_;
}

CallStatus StreamCall::Finish() {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(&done_));
  return status_;
}

bool StreamCall::done() const {
  absl::MutexLock lock(&mu_);
  return done_;
}

}  // namespace moreau::local
