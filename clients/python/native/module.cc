// moreau._local: the Python client's in-process engine. A Server is a
// moreaud inside the Python process (server/in_process_server.h); calls go
// to it as serialized messages through gRPC's in-process transport, with the
// GIL released while they wait, so the Python client (moreau/local.py)
// decodes them exactly as it decodes a remote server's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "absl/time/time.h"
#include "clients/python/native/local_calls.h"
#include "clients/python/native/task_terms.h"
#include "server/in_process_server.h"
#include "server/service_options.h"

namespace py = pybind11;

namespace moreau::local {
namespace {

namespace server = moreau::server;

// The longest single wait with the GIL released: waits are sliced so that
// Ctrl-C (a pending Python signal) interrupts a long call.
constexpr absl::Duration kWaitSlice = absl::Milliseconds(100);

absl::Duration WaitFor(std::optional<double> timeout_s) {
  return timeout_s.has_value() ? absl::Seconds(*timeout_s) : absl::InfiniteDuration();
}

py::bytes Bytes(const std::string& bytes) { return py::bytes(bytes.data(), bytes.size()); }

// A reply's bytes as one Python bytes object, copied once from its slices.
py::bytes ReplyBytes(const grpc::ByteBuffer& reply) {
  PyObject* bytes = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(reply.Length()));
  if (bytes == nullptr) throw py::error_already_set();
  py::bytes out = py::reinterpret_steal<py::bytes>(bytes);
  if (!moreau::local::CopyByteBuffer(reply, PyBytes_AS_STRING(bytes))) {
    throw std::runtime_error("the in-process server's reply could not be read");
  }
  return out;
}

// (code, message, reply bytes or None) of a finished unary call.
py::tuple Outcome(UnaryCall& call) {
  const CallStatus& status = call.status();
  if (status.code != 0) return py::make_tuple(status.code, status.message, py::none());
  return py::make_tuple(0, "", ReplyBytes(call.response()));
}

// (code, message, reply bytes or None) of a finished direct StepBatch: the
// reply serialized straight into the bytes object.
py::tuple Outcome(server::DirectStepBatch& call) {
  const absl::Status& status = call.status();
  if (!status.ok()) {
    return py::make_tuple(static_cast<int>(status.code()), std::string(status.message()),
                          py::none());
  }
  PyObject* bytes = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(call.reply_bytes()));
  if (bytes == nullptr) throw py::error_already_set();
  py::bytes out = py::reinterpret_steal<py::bytes>(bytes);
  call.reply().SerializeWithCachedSizesToArray(
      reinterpret_cast<uint8_t*>(PyBytes_AS_STRING(bytes)));
  return py::make_tuple(0, "", out);
}

void Cancel(UnaryCall& call) { call.Cancel(); }
// A direct call is not cancelled: its steps finish on the pool, unread.
void Cancel(server::DirectStepBatch& /*call*/) {}

// Waits for `call` in slices, checking for Python signals between them;
// false when `timeout` passed first.
template <typename Call>
bool WaitInterruptibly(Call& call, absl::Duration timeout) {
  const absl::Time until = absl::Now() + timeout;
  for (;;) {
    const absl::Duration left = until - absl::Now();
    bool finished;
    {
      py::gil_scoped_release release;
      finished = call.Wait(std::min(left, kWaitSlice));
    }
    if (finished) return true;
    if (PyErr_CheckSignals() != 0) {
      Cancel(call);
      throw py::error_already_set();
    }
    if (absl::Now() >= until) return false;
  }
}

// tasks.LeggedTask's base terms of every env: (n, 10) float64 from the
// base poses (n, 7) and twists (n, 6).
py::array_t<double> LeggedBaseTermsOf(
    const py::array_t<double, py::array::c_style | py::array::forcecast>& pose,
    const py::array_t<double, py::array::c_style | py::array::forcecast>& twist) {
  if (pose.ndim() != 2 || pose.shape(1) != 7 || twist.ndim() != 2 || twist.shape(1) != 6 ||
      twist.shape(0) != pose.shape(0)) {
    throw py::value_error("legged_base_terms takes base poses (n, 7) and twists (n, 6)");
  }
  const long n = static_cast<long>(pose.shape(0));
  py::array_t<double> out({static_cast<py::ssize_t>(n), py::ssize_t{kLeggedBaseTerms}});
  LeggedBaseTerms(pose.data(), twist.data(), n, out.mutable_data());
  return out;
}

class Server {
 public:
  Server(int workers, int max_instances, int max_substeps, int max_batch, int max_create,
         int inline_substeps, int max_message_bytes) {
    server::ServiceOptions options;
    options.worker_threads = workers;
    options.max_instances = max_instances;
    options.max_substeps = max_substeps;
    options.max_batch = max_batch;
    options.max_create = max_create;
    options.inline_substeps = inline_substeps;
    auto started = server::InProcessServer::Start(options, max_message_bytes);
    if (!started.ok()) throw py::value_error(std::string(started.status().message()));
    server_ = std::shared_ptr<server::InProcessServer>(*std::move(started));
    stub_ = std::make_unique<grpc::GenericStub>(server_->channel());
  }

  int workers() const { return Running().workers(); }

  // Calls `method` ("/moreau.v1.Simulator/Step") and waits:
  // (code, message, reply bytes or None).
  py::tuple Call(const std::string& method, std::string_view request,
                 std::optional<double> timeout_s) {
    std::shared_ptr<UnaryCall> call = UnaryCall::Start(Stub(), method, request, timeout_s);
    WaitInterruptibly(*call, absl::InfiniteDuration());
    return Outcome(*call);
  }

  std::shared_ptr<UnaryCall> Start(const std::string& method, std::string_view request,
                                   std::optional<double> timeout_s) {
    return UnaryCall::Start(Stub(), method, request, timeout_s);
  }

  // A StepBatch (serialized request) without gRPC, the calling thread
  // stepping entries alongside the pool: (code, message, reply bytes or
  // None), as Call gives.
  py::tuple StepBatch(std::string_view request, std::optional<double> timeout_s) {
    std::shared_ptr<server::InProcessServer> running = Shared();
    std::shared_ptr<server::DirectStepBatch> call;
    {
      py::gil_scoped_release release;
      call = running->StartStepBatch(request, timeout_s, /*caller_helps=*/true);
      call->Help(absl::Now() + kWaitSlice);
      // A server closed meanwhile ends here, its pool drained.
      running.reset();
    }
    WaitInterruptibly(*call, absl::InfiniteDuration());
    return Outcome(*call);
  }

  // The same started on the pool alone, to wait for later.
  std::shared_ptr<server::DirectStepBatch> StartStepBatch(std::string_view request,
                                                          std::optional<double> timeout_s) {
    std::shared_ptr<server::InProcessServer> running = Shared();
    py::gil_scoped_release release;
    std::shared_ptr<server::DirectStepBatch> call =
        running->StartStepBatch(request, timeout_s, /*caller_helps=*/false);
    running.reset();
    return call;
  }

  std::shared_ptr<StreamCall> Open(const std::string& method, std::optional<double> timeout_s) {
    return StreamCall::Open(Stub(), method, timeout_s);
  }

  // Frees every instance and stops the threads; later calls fail.
  void Close() {
    py::gil_scoped_release release;
    stub_.reset();
    server_.reset();
  }

 private:
  const server::InProcessServer& Running() const {
    if (server_ == nullptr) throw std::runtime_error("the in-process server is closed");
    return *server_;
  }
  grpc::GenericStub& Stub() {
    Running();
    return *stub_;
  }
  std::shared_ptr<server::InProcessServer> Shared() const {
    Running();
    return server_;
  }

  // Shared with the direct calls under way, which keep it until they return.
  std::shared_ptr<server::InProcessServer> server_;
  std::unique_ptr<grpc::GenericStub> stub_;
};

}  // namespace
}  // namespace moreau::local

PYBIND11_MODULE(_local, m) {
  using moreau::local::Bytes;
  using moreau::local::CallStatus;
  using moreau::local::kWaitSlice;
  using moreau::local::Outcome;
  using moreau::local::Server;
  using moreau::local::StreamCall;
  using moreau::local::UnaryCall;
  using moreau::local::WaitFor;
  using moreau::local::WaitInterruptibly;
  namespace server = moreau::server;
  using server::DirectStepBatch;
  m.doc() = "The in-process engine of the moreau Python client (see moreau.local).";

  m.def("legged_base_terms", &moreau::local::LeggedBaseTermsOf, py::arg("base_pose"),
        py::arg("base_twist"),
        "(n, 10): base height, gravity direction (3) and linear velocity (3) in the base "
        "frame, angular velocity (3); the bits of moreau.tasks' numpy formulas.");

  py::class_<UnaryCall, std::shared_ptr<UnaryCall>>(m, "UnaryCall")
      .def(
          "wait",
          [](UnaryCall& call, std::optional<double> timeout_s) {
            return WaitInterruptibly(call, WaitFor(timeout_s));
          },
          py::arg("timeout") = py::none(),
          "Waits up to `timeout` s (None: until it finishes); whether it finished.")
      .def("done", &UnaryCall::done)
      .def(
          "outcome", [](UnaryCall& call) { return Outcome(call); },
          "(code, message, reply bytes or None) once done.")
      .def("cancel", &UnaryCall::Cancel);

  py::class_<DirectStepBatch, std::shared_ptr<DirectStepBatch>>(m, "DirectStepBatch")
      .def(
          "wait",
          [](DirectStepBatch& call, std::optional<double> timeout_s) {
            return WaitInterruptibly(call, WaitFor(timeout_s));
          },
          py::arg("timeout") = py::none(),
          "Waits up to `timeout` s (None: until it finishes); whether it finished.")
      .def("done", &DirectStepBatch::done)
      .def(
          "outcome", [](DirectStepBatch& call) { return Outcome(call); },
          "(code, message, reply bytes or None) once done.")
      .def("cancel", [](DirectStepBatch& /*call*/) {});

  py::class_<StreamCall, std::shared_ptr<StreamCall>>(m, "StreamCall")
      .def(
          "write", [](StreamCall& call, std::string_view message) { return call.Write(message); },
          "Queues a message; False once the stream has finished.")
      .def("writes_done", &StreamCall::WritesDone)
      .def(
          "read",
          [](StreamCall& call, std::optional<double> timeout_s) -> py::object {
            const absl::Time until = absl::Now() + WaitFor(timeout_s);
            for (;;) {
              std::optional<std::string> message;
              {
                py::gil_scoped_release release;
                message = call.Read(std::min(until - absl::Now(), kWaitSlice));
              }
              if (message.has_value()) return Bytes(*message);
              if (call.ended() || absl::Now() >= until) return py::none();
              if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            }
          },
          py::arg("timeout") = py::none(),
          "The next message's bytes; None at the stream's end (ended() is then true) or when "
          "`timeout` s passed.")
      .def("ended", &StreamCall::ended)
      .def(
          "finish",
          [](StreamCall& call) {
            CallStatus status;
            {
              py::gil_scoped_release release;
              status = call.Finish();
            }
            return py::make_tuple(status.code, status.message);
          },
          "Waits for the stream's end: (code, message).")
      .def("done", &StreamCall::done)
      .def("cancel", [](StreamCall& call) { call.Cancel(); });

  py::class_<Server>(m, "Server")
      .def(py::init<int, int, int, int, int, int, int>(), py::arg("workers") = 0,
           py::arg("max_instances") = server::ServiceOptions{}.max_instances,
           py::arg("max_substeps") = server::ServiceOptions{}.max_substeps,
           py::arg("max_batch") = server::ServiceOptions{}.max_batch,
           py::arg("max_create") = server::ServiceOptions{}.max_create,
           py::arg("inline_substeps") = server::ServiceOptions{}.inline_substeps,
           py::arg("max_message_bytes") = 16 << 20)
      .def_property_readonly("workers", &Server::workers)
      .def("call", &Server::Call, py::arg("method"), py::arg("request"),
           py::arg("timeout") = py::none())
      .def("start", &Server::Start, py::arg("method"), py::arg("request"),
           py::arg("timeout") = py::none())
      .def("step_batch", &Server::StepBatch, py::arg("request"), py::arg("timeout") = py::none(),
           "StepBatch without gRPC, the caller stepping too: (code, message, reply or None).")
      .def("start_step_batch", &Server::StartStepBatch, py::arg("request"),
           py::arg("timeout") = py::none(), "StepBatch without gRPC, on the pool alone.")
      .def("open", &Server::Open, py::arg("method"), py::arg("timeout") = py::none())
      .def("close", &Server::Close);
}
