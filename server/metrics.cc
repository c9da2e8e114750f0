#include "server/metrics.h"

#include <chrono>
#include <exception>
#include <iterator>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/util/enum_table.h"
#include "server/build_info.h"

namespace moreau::server {
namespace {

// The name of gRPC status code `code` (gRPC's codes are absl::StatusCode's).
std::string CodeName(int code) {
  return absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
}

// `labels` with tenant=`tenant`, or without the label for the tenant ""
// (the same series to Prometheus).
prometheus::Labels WithTenant(prometheus::Labels labels, const std::string& tenant) {
  if (!tenant.empty()) labels.emplace("tenant", tenant);
  return labels;
}

// The buckets of moreau_rpc_latency_seconds (seconds).
const prometheus::Histogram::BucketBoundaries& RpcLatencyBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 0.1, 1.0, 10.0};
  return *buckets;
}

// The one series of an unlabelled metric, registered with `registry`.
prometheus::Gauge* UnlabelledGauge(prometheus::Registry& registry, const char* name,
                                   const char* help) {
  return &prometheus::BuildGauge().Name(name).Help(help).Register(registry).Add({});
}
prometheus::Counter* UnlabelledCounter(prometheus::Registry& registry, const char* name,
                                       const char* help) {
  return &prometheus::BuildCounter().Name(name).Help(help).Register(registry).Add({});
}
prometheus::Histogram* UnlabelledHistogram(prometheus::Registry& registry, const char* name,
                                           const char* help,
                                           const prometheus::Histogram::BucketBoundaries& buckets) {
  return &prometheus::BuildHistogram().Name(name).Help(help).Register(registry).Add({}, buckets);
}

double ClockSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The RPCs' names as in simulator.proto's service.
constexpr EnumEntry<Rpc> kRpcs[] = {{Rpc::kListModels, "ListModels"},
                                    {Rpc::kGetModel, "GetModel"},
                                    {Rpc::kCreateInstances, "CreateInstances"},
                                    {Rpc::kDestroyInstances, "DestroyInstances"},
                                    {Rpc::kListInstances, "ListInstances"},
                                    {Rpc::kReset, "Reset"},
                                    {Rpc::kStep, "Step"},
                                    {Rpc::kStepBatch, "StepBatch"},
                                    {Rpc::kSession, "Session"},
                                    {Rpc::kGetState, "GetState"},
                                    {Rpc::kSetState, "SetState"},
                                    {Rpc::kQuery, "Query"},
                                    {Rpc::kWatch, "Watch"},
                                    {Rpc::kGetMesh, "GetMesh"}};
static_assert(std::size(kRpcs) == static_cast<size_t>(Rpc::kCount));

}  // namespace

const char* RpcName(Rpc rpc) { return EnumName(kRpcs, rpc); }

std::optional<Rpc> RpcByName(std::string_view name) {
  for (const EnumEntry<Rpc>& entry : kRpcs) {
    if (name == entry.name) return entry.value;
  }
  return std::nullopt;
}

Metrics::Metrics() : registry_(std::make_shared<prometheus::Registry>()) {
  steps_family_ = &prometheus::BuildCounter()
                       .Name("moreau_steps_total")
                       .Help("Simulation steps taken, by model and contact model")
                       .Register(*registry_);
  diverged_family_ = &prometheus::BuildCounter()
                          .Name("moreau_diverged_total")
                          .Help("Steps that diverged (non-finite or exploding state)")
                          .Register(*registry_);
  sim_seconds_family_ = &prometheus::BuildCounter()
                             .Name("moreau_simulated_seconds_total")
                             .Help("Simulated time advanced, by model and contact model")
                             .Register(*registry_);
  rpc_latency_family_ = &prometheus::BuildHistogram()
                             .Name("moreau_rpc_latency_seconds")
                             .Help("Server-side RPC latency by method and status code")
                             .Register(*registry_);
  live_instances_ =
      UnlabelledGauge(*registry_, "moreau_live_instances", "Simulation instances currently hosted");
  reclaimed_ = UnlabelledCounter(*registry_, "moreau_instances_reclaimed_total",
                                 "Instances freed after the idle timeout");
  step_wall_seconds_ = UnlabelledCounter(*registry_, "moreau_step_wall_seconds_total",
                                         "Wall time spent stepping instances");
  step_seconds_ =
      UnlabelledHistogram(*registry_, "moreau_step_duration_seconds",
                          "Wall time per simulation step (averaged over a call's sub-steps)",
                          prometheus::Histogram::BucketBoundaries{2e-6, 5e-6, 1e-5, 2e-5, 5e-5,
                                                                  1e-4, 2e-4, 5e-4, 1e-3, 1e-2});
  solver_iterations_ = UnlabelledHistogram(
      *registry_, "moreau_solver_iterations",
      "Prox solver sweeps of a call's last step (hard contact)",
      prometheus::Histogram::BucketBoundaries{0, 1, 2, 5, 10, 20, 50, 100, 200, 500});
  tenant_instances_family_ = &prometheus::BuildGauge()
                                  .Name("moreau_tenant_instances")
                                  .Help("Simulation instances currently hosted, by tenant")
                                  .Register(*registry_);
  realtime_factor_ =
      UnlabelledGauge(*registry_, "moreau_realtime_factor",
                      "Simulated seconds per wall second, all instances, last interval");
  auto& checkpoints = prometheus::BuildCounter()
                          .Name("moreau_checkpoints_total")
                          .Help(
                              "Instance checkpoint files written to the state directory, by "
                              "outcome (ok, error)")
                          .Register(*registry_);
  checkpoints_ok_ = &checkpoints.Add({{"outcome", "ok"}});
  checkpoints_error_ = &checkpoints.Add({{"outcome", "error"}});
  auto& in_flight = prometheus::BuildGauge()
                        .Name("moreau_rpcs_in_flight")
                        .Help("Calls being served now, by method (a stream until it ends)")
                        .Register(*registry_);
  auto& open_streams = prometheus::BuildGauge()
                           .Name("moreau_open_streams")
                           .Help("Open Session and Watch streams, by method")
                           .Register(*registry_);
  open_sessions_ = &open_streams.Add({{"method", RpcName(Rpc::kSession)}});
  open_watches_ = &open_streams.Add({{"method", RpcName(Rpc::kWatch)}});
  worker_threads_ = UnlabelledGauge(*registry_, "moreau_worker_threads",
                                    "Threads of the worker pool that runs the longer steps");
  queue_depth_ = UnlabelledGauge(*registry_, "moreau_worker_queue_depth",
                                 "Step tasks waiting for a worker thread");
  queue_wait_ =
      UnlabelledHistogram(*registry_, "moreau_worker_queue_wait_seconds",
                          "Time a step task waited in the worker queue before a worker ran it",
                          prometheus::Histogram::BucketBoundaries{1e-5, 5e-5, 1e-4, 5e-4, 1e-3,
                                                                  5e-3, 1e-2, 0.1, 1.0, 10.0});
  max_instances_ = UnlabelledGauge(*registry_, "moreau_max_instances",
                                   "Most instances the server hosts at once (--max-instances)");
  prometheus::BuildGauge()
      .Name("moreau_build_info")
      .Help("Always 1; the labels are the server's version and git commit")
      .Register(*registry_)
      .Add({{"version", kMoreauVersion}, {"commit", kMoreauCommit}})
      .Set(1);
  for (const EnumEntry<Rpc>& entry : kRpcs) {
    in_flight_[static_cast<int>(entry.value)] = &in_flight.Add({{"method", entry.name}});
    // Each method's successful calls, so that rates and ratios have a series
    // before the first call.
    latency_[static_cast<int>(entry.value)][static_cast<int>(grpc::StatusCode::OK)].store(
        &rpc_latency_family_->Add(
            {{"method", entry.name}, {"code", CodeName(static_cast<int>(grpc::StatusCode::OK))}},
            RpcLatencyBuckets()),
        std::memory_order_release);
  }
  last_clock_s_ = ClockSeconds();
}

absl::Status Metrics::Serve(const std::string& address) {
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(address);
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve metrics on ", address, ": ", e.what()));
  }
  exposer_->RegisterCollectable(registry_);
  return absl::OkStatus();
}

int Metrics::port() const {
  if (exposer_ == nullptr) return 0;
  const std::vector<int> ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

prometheus::Counter* Metrics::StepsCounter(const std::string& model, const std::string& contact,
                                           const std::string& tenant) {
  return &steps_family_->Add(WithTenant({{"model", model}, {"contact", contact}}, tenant));
}

prometheus::Counter* Metrics::DivergedCounter(const std::string& model, const std::string& contact,
                                              const std::string& tenant) {
  return &diverged_family_->Add(WithTenant({{"model", model}, {"contact", contact}}, tenant));
}

prometheus::Counter* Metrics::SimSecondsCounter(const std::string& model,
                                                const std::string& contact,
                                                const std::string& tenant) {
  return &sim_seconds_family_->Add(WithTenant({{"model", model}, {"contact", contact}}, tenant));
}

Metrics::LatencyTable& Metrics::LatencyOf(const std::string& tenant) {
  if (tenant.empty()) return latency_;
  {
    absl::ReaderMutexLock lock(&tenants_mu_);
    auto it = tenant_latency_.find(tenant);
    if (it != tenant_latency_.end()) return *it->second;
  }
  absl::MutexLock lock(&tenants_mu_);
  std::unique_ptr<LatencyTable>& table = tenant_latency_[tenant];
  if (table == nullptr) table = std::make_unique<LatencyTable>();
  return *table;
}

void Metrics::SetTenantInstances(const absl::flat_hash_map<std::string, int>& live) {
  absl::MutexLock lock(&tenants_mu_);
  for (auto& [tenant, gauge] : tenant_instances_) {
    if (!live.contains(tenant)) gauge->Set(0);
  }
  for (const auto& [tenant, count] : live) {
    if (tenant.empty()) continue;  // a server without tokens: moreau_live_instances
    prometheus::Gauge*& gauge = tenant_instances_[tenant];
    if (gauge == nullptr) gauge = &tenant_instances_family_->Add({{"tenant", tenant}});
    gauge->Set(count);
  }
}

void Metrics::ObserveRpc(Rpc rpc, grpc::StatusCode code, double seconds,
                         const std::string& tenant) {
  const int c = static_cast<int>(code) >= 0 && static_cast<int>(code) < 17
                    ? static_cast<int>(code)
                    : static_cast<int>(grpc::StatusCode::UNKNOWN);
  std::atomic<prometheus::Histogram*>& slot = LatencyOf(tenant)[static_cast<int>(rpc)][c];
  prometheus::Histogram* h = slot.load(std::memory_order_acquire);
  if (h == nullptr) {
    absl::MutexLock lock(&mu_);
    h = &rpc_latency_family_->Add(
        WithTenant({{"method", RpcName(rpc)}, {"code", CodeName(c)}}, tenant), RpcLatencyBuckets());
    slot.store(h, std::memory_order_release);
  }
  h->Observe(seconds);
}

void Metrics::SetOpenStreams(Rpc rpc, int count) {
  if (rpc == Rpc::kSession) open_sessions_->Set(count);
  if (rpc == Rpc::kWatch) open_watches_->Set(count);
}

void Metrics::ObserveStep(double seconds_per_step, int solver_iterations) {
  step_seconds_->Observe(seconds_per_step);
  solver_iterations_->Observe(solver_iterations);
}

void Metrics::UpdateRealtimeFactor() {
  double sim_seconds = 0.0;
  for (const prometheus::MetricFamily& family : sim_seconds_family_->Collect()) {
    for (const prometheus::ClientMetric& m : family.metric) sim_seconds += m.counter.value;
  }
  absl::MutexLock lock(&mu_);
  const double now = ClockSeconds();
  const double wall = now - last_clock_s_;
  if (wall > 0.0) realtime_factor_->Set((sim_seconds - last_sim_seconds_) / wall);
  last_sim_seconds_ = sim_seconds;
  last_clock_s_ = now;
}

}  // namespace moreau::server
