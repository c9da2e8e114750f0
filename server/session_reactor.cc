#include "server/session_reactor.h"

#include <algorithm>
#include <utility>

#include "server/convert.h"
#include "server/service.h"

namespace moreau::server {

SessionReactor::SessionReactor(SimulatorService* service, grpc::CallbackServerContext* context,
                               std::string tenant)
    : service_(service), context_(context), start_(absl::Now()), tenant_(std::move(tenant)) {
  StartRead(&request_);
}

void SessionReactor::OnReadDone(bool ok) {
  if (!ok) {  // the client closed its side (or the call was cancelled)
    Finish(grpc::Status::OK);
    return;
  }
  if (service_->RunsInline(std::max(1, request_.step().substeps()))) {
    Process();
  } else {
    service_->pool().Submit([this] { Process(); });
  }
}

void SessionReactor::Process() {
  response_.Clear();
  v1::Observation* obs = response_.mutable_observation();
  auto instance = service_->ResolveStep(request_.step(), tenant_);
  if (instance.ok()) {
    // Each message is stepped to completion: the stream's deadline bounds the
    // whole session, not one step.
    service_->StepInstance(**instance, request_.step(), absl::InfiniteFuture(), obs);
  } else {
    obs->set_instance_id(request_.step().instance_id());
    SetStatus(instance.status(), obs->mutable_status());
  }
  StartWrite(&response_);
}

void SessionReactor::OnWriteDone(bool ok) {
  if (!ok) {
    Finish(grpc::Status(grpc::StatusCode::CANCELLED, "the session's stream was closed"));
    return;
  }
  StartRead(&request_);
}

void SessionReactor::OnDone() {
  service_->metrics().ObserveRpc(Rpc::kSession, grpc::StatusCode::OK,
                                 absl::ToDoubleSeconds(absl::Now() - start_), tenant_);
  service_->SessionEnded();
  delete this;
}

}  // namespace moreau::server
