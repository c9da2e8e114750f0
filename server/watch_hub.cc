#include "server/watch_hub.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/sim/inspection.h"
#include "engine/sim/state.h"
#include "server/convert.h"
#include "server/watch_pacer.h"

namespace moreau::server {
namespace {

grpc::Status ShuttingDown() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is shutting down");
}

}  // namespace

class WatchHub::Reactor final : public grpc::ServerWriteReactor<v1::WatchFrame> {
 public:
  Reactor(WatchHub* hub, std::shared_ptr<Instance> instance, double rate_hz)
      : hub_(hub),
        instance_(std::move(instance)),
        // Capped at ~32 years: a rate of 1e-250 Hz (valid, > 0) must not
        // overflow the conversion; its stream shows the first frame only.
        pacer_(std::max<int64_t>(1, static_cast<int64_t>(std::min(1e9 / rate_hz, 1e18)))),
        inspection_(instance_->sim->model()),
        start_ns_(MonotonicNowNs()) {
    ++instance_->watchers;
    // First frame at once: an instance that is not stepped still shows.
    absl::MutexLock lock(&instance_->mu);
    instance_->PublishSample();
  }

  void OnWriteDone(bool ok) override {
    bool finish = false;
    grpc::Status status;
    {
      absl::MutexLock lock(&hub_->mu_);
      writing_ = false;
      if ((!ok || cancelled_ || hub_->stopping_) && !finishing_) finish = finishing_ = true;
      if (hub_->stopping_) status = ShuttingDown();
    }
    if (finish) Finish(status);
  }

  void OnCancel() override {
    bool finish = false;
    {
      absl::MutexLock lock(&hub_->mu_);
      cancelled_ = true;
      if (!writing_ && !finishing_) finish = finishing_ = true;
    }
    if (finish) Finish(grpc::Status::CANCELLED);
  }

  void OnDone() override {
    {
      absl::MutexLock lock(&hub_->mu_);
      auto& list = hub_->reactors_;
      list.erase(std::remove(list.begin(), list.end(), this), list.end());
      hub_->metrics_->SetOpenStreams(Rpc::kWatch, static_cast<int>(list.size()));
    }
    --instance_->watchers;
    hub_->metrics_->ObserveRpc(Rpc::kWatch, grpc::StatusCode::OK,
                               static_cast<double>(MonotonicNowNs() - start_ns_) * 1e-9,
                               instance_->tenant);
    delete this;
  }

  // Under hub_->mu_: what the pump should do with this stream now.
  enum class Action { kNone, kWrite, kFinish, kFinishShuttingDown };
  Action Poll(int64_t now_ns) ABSL_EXCLUSIVE_LOCKS_REQUIRED(hub_->mu_) {
    if (writing_ || finishing_) return Action::kNone;
    if (hub_->stopping_) {
      finishing_ = true;
      return Action::kFinishShuttingDown;
    }
    if (instance_->destroyed) {
      finishing_ = true;
      return Action::kFinish;
    }
    if (!pacer_.Due(now_ns)) return Action::kNone;
    {
      absl::MutexLock lock(&instance_->sample_mu);
      const WatchSample& s = instance_->sample;
      state_ = s.state;  // equal sizes after the first frame: no allocation
      frame_.Clear();
      frame_.set_time(s.state.time);
      frame_.set_steps(static_cast<int64_t>(s.state.steps));
      frame_.mutable_contact_normal_forces()->Assign(s.normal_forces.begin(),
                                                     s.normal_forces.end());
      for (char flag : s.contact_flags) frame_.add_contact_flags(flag != 0);
    }
    // The body poses, outside the sample's lock: the stepping thread only
    // copies the state, the kinematics run here.
    inspection_.Inspect(state_);
    const Model& model = instance_->sim->model();  // immutable, shared
    FillBodyPoses(model, inspection_.BodyTransforms(), frame_.mutable_body_poses());
    pacer_.Sent(now_ns);
    writing_ = true;
    return Action::kWrite;
  }

  void Write() { StartWrite(&frame_); }

 private:
  WatchHub* const hub_;
  const std::shared_ptr<Instance> instance_;
  WatchPacer pacer_;
  sim::Inspection inspection_;  // of the sampled state: the frame's body poses
  sim::State state_;            // the sample's, copied under its lock
  v1::WatchFrame frame_;
  const int64_t start_ns_;
  bool writing_ = false;    // under hub_->mu_
  bool finishing_ = false;  // under hub_->mu_
  bool cancelled_ = false;  // under hub_->mu_
};

WatchHub::WatchHub(Metrics* metrics, int max_streams)
    : metrics_(metrics), max_streams_(max_streams), pump_([this] { Pump(); }) {}

WatchHub::~WatchHub() {
  Stop();
  pump_.join();
}

grpc::ServerWriteReactor<v1::WatchFrame>* WatchHub::Start(std::shared_ptr<Instance> instance,
                                                          double rate_hz) {
  {
    absl::MutexLock lock(&mu_);
    if (stopping_) {
      return new FailedWriteReactor<v1::WatchFrame>(ShuttingDown());
    }
    const int open = static_cast<int>(reactors_.size()) + starting_;
    if (open >= max_streams_) {
      metrics_->ObserveRpc(Rpc::kWatch, grpc::StatusCode::RESOURCE_EXHAUSTED, 0.0);
      return new FailedWriteReactor<v1::WatchFrame>(
          grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                       absl::StrCat("the server has ", open, " open Watch streams, at most ",
                                    max_streams_, " (the server's --max-watches)")));
    }
    ++starting_;
  }
  auto* reactor = new Reactor(this, std::move(instance), rate_hz);
  absl::MutexLock lock(&mu_);
  --starting_;
  reactors_.push_back(reactor);
  metrics_->SetOpenStreams(Rpc::kWatch, static_cast<int>(reactors_.size()));
  return reactor;
}

void WatchHub::Stop() {
  absl::MutexLock lock(&mu_);
  stopping_ = true;  // the pump finishes every stream on its next tick
}

void WatchHub::Pump() {
  std::vector<std::pair<Reactor*, Reactor::Action>> todo;
  for (;;) {
    bool done = false;
    {
      absl::MutexLock lock(&mu_);
      // Nothing watched: no tick (no thread waking every millisecond beside
      // the stepping threads) until a Watch is admitted or the hub stops.
      mu_.Await(absl::Condition(&WatchHub::PumpHasWork, this));
      const int64_t now = MonotonicNowNs();
      for (Reactor* r : reactors_) {
        const Reactor::Action action = r->Poll(now);
        if (action != Reactor::Action::kNone) todo.emplace_back(r, action);
      }
      // Not while a Start is still building its reactor (it can wait for a
      // long step to release the instance, and SIGTERM may come meanwhile):
      // that reactor joins reactors_ after this check, and with the pump gone
      // nothing would ever finish it, so gRPC's Shutdown would wait for it
      // until --shutdown-grace-s. Polled on, it ends with UNAVAILABLE.
      done = stopping_ && reactors_.empty() && starting_ == 0;
    }
    // Outside the lock: a reaction may run inline and take it. A reactor
    // marked writing or finishing stays alive until its reaction has run.
    for (auto& [reactor, action] : todo) {
      if (action == Reactor::Action::kWrite) {
        reactor->Write();
      } else if (action == Reactor::Action::kFinishShuttingDown) {
        reactor->Finish(ShuttingDown());
      } else {
        reactor->Finish(grpc::Status::OK);
      }
    }
    todo.clear();
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

bool WatchHub::PumpHasWork(WatchHub* hub) {
  hub->mu_.AssertHeld();
  return !hub->reactors_.empty() || hub->starting_ > 0 || hub->stopping_;
}

}  // namespace moreau::server
