#include "server/session_reactor.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "server/convert.h"

namespace moreau::server {
namespace {

grpc::Status ShuttingDown() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is shutting down");
}

}  // namespace

SessionHub::SessionHub(const InstanceStepper* stepper, WorkerPool* pool, Metrics* metrics,
                       int max_sessions)
    : stepper_(stepper), pool_(pool), metrics_(metrics), max_sessions_(max_sessions) {}

grpc::ServerBidiReactor<v1::SessionRequest, v1::SessionResponse>* SessionHub::Start(
    std::string tenant) {
  using Refused = FailedBidiReactor<v1::SessionRequest, v1::SessionResponse>;
  auto* reactor = new SessionReactor(this, std::move(tenant));
  {
    absl::MutexLock lock(&mu_);
    if (stopping_) {
      delete reactor;
      return new Refused(ShuttingDown());
    }
    const int open = static_cast<int>(sessions_.size());
    if (open >= max_sessions_) {
      delete reactor;
      return new Refused(
          grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                       absl::StrCat("the server has ", open, " open Session streams, at most ",
                                    max_sessions_, " (the server's --max-sessions)")));
    }
    sessions_.push_back(reactor);
    metrics_->SetOpenStreams(Rpc::kSession, static_cast<int>(sessions_.size()));
  }
  reactor->ArmRead();
  return reactor;
}

void SessionHub::Stop() {
  std::vector<SessionReactor*> idle;
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    for (SessionReactor* r : sessions_) {
      // A session between requests ends now; one stepping ends once its
      // response is written (OnWriteDone), one whose read is being started
      // once StartRead returns (ArmRead).
      if (r->phase_ == SessionReactor::Phase::kReading && r->read_armed_) {
        r->phase_ = SessionReactor::Phase::kFinished;
        idle.push_back(r);
      }
    }
  }
  // Not deleted meanwhile: OnDone comes only after Finish.
  for (SessionReactor* r : idle) r->FinishWith(ShuttingDown());
}

SessionReactor::SessionReactor(SessionHub* hub, std::string tenant)
    : hub_(hub), start_(absl::Now()), tenant_(std::move(tenant)) {}

void SessionReactor::ArmRead() {
  uint64_t reads = 0;
  {
    absl::MutexLock lock(&hub_->mu_);
    phase_ = Phase::kReading;
    read_armed_ = false;
    reads = reads_done_;
  }
  StartRead(&request_);
  bool finish = false;
  {
    absl::MutexLock lock(&hub_->mu_);
    // Unless the read already completed (its reaction may have run inline).
    if (phase_ == Phase::kReading && reads_done_ == reads) {
      read_armed_ = true;
      if (hub_->stopping_) {
        phase_ = Phase::kFinished;
        finish = true;
      }
    }
  }
  if (finish) FinishWith(ShuttingDown());
}

void SessionReactor::OnReadDone(bool ok) {
  {
    absl::MutexLock lock(&hub_->mu_);
    ++reads_done_;
    if (phase_ == Phase::kFinished) return;  // shutdown finished the stream meanwhile
    phase_ = ok ? Phase::kStepping : Phase::kFinished;
  }
  if (!ok) {  // the client closed its side (or the call was cancelled)
    FinishWith(grpc::Status::OK);
    return;
  }
  if (hub_->stepper_->RunsInline(std::max(1, request_.step().substeps()))) {
    Process();
  } else {
    hub_->pool_->Submit([this] { Process(); });
  }
}

void SessionReactor::Process() {
  response_.Clear();
  v1::Observation* obs = response_.mutable_observation();
  auto instance = hub_->stepper_->Resolve(request_.step(), tenant_);
  if (instance.ok()) {
    // Each message is stepped to completion: the stream's deadline bounds the
    // whole session, not one step.
    hub_->stepper_->Step(**instance, request_.step(), absl::InfiniteFuture(), obs);
  } else {
    obs->set_instance_id(request_.step().instance_id());
    SetStatus(instance.status(), obs->mutable_status());
  }
  StartWrite(&response_);
}

void SessionReactor::OnWriteDone(bool ok) {
  grpc::Status finish_status;
  bool finish = false;
  {
    absl::MutexLock lock(&hub_->mu_);
    if (!ok) {
      finish_status = grpc::Status(grpc::StatusCode::CANCELLED, "the session's stream was closed");
    } else if (hub_->stopping_) {
      finish_status = ShuttingDown();
    }
    finish = !ok || hub_->stopping_;
    if (finish) phase_ = Phase::kFinished;
  }
  if (finish) {
    FinishWith(finish_status);
  } else {
    ArmRead();
  }
}

void SessionReactor::FinishWith(const grpc::Status& status) {
  code_ = status.error_code();
  Finish(status);
}

void SessionReactor::OnDone() {
  {
    absl::MutexLock lock(&hub_->mu_);
    auto& list = hub_->sessions_;
    list.erase(std::remove(list.begin(), list.end(), this), list.end());
    hub_->metrics_->SetOpenStreams(Rpc::kSession, static_cast<int>(list.size()));
  }
  hub_->metrics_->ObserveRpc(Rpc::kSession, code_, absl::ToDoubleSeconds(absl::Now() - start_),
                             tenant_);
  delete this;
}

}  // namespace moreau::server
