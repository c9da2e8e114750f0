// moreau._local: the Python client's in-process engine. A Server is a
// moreaud inside the Python process (server/in_process_server.h); calls go
// to it as serialized messages through gRPC's in-process transport, with the
// GIL released while they wait, so the Python client (moreau/local.py)
// decodes them exactly as it decodes a remote server's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "clients/python/native/local_calls.h"
#include "clients/python/native/task_terms.h"
#include "server/in_process_server.h"
#include "server/service_options.h"

namespace py = pybind11;

namespace moreau::local {
namespace {

namespace server = moreau::server;
namespace v1 = moreau::v1;

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

// Copies `count` rows of `width` values from `source` (row-major) into rows
// `rows` of `target` (n, width) or (n,), whatever its strides; an empty
// source (a batch whose instances all failed) writes NaN or 0 instead.
template <typename T, typename Values>
void CopyRows(const char* name, const Values& source, int count,
              const std::vector<py::ssize_t>& rows, py::array& target) {
  if (!target.dtype().is(py::dtype::of<T>())) {
    throw py::type_error(std::string("ObservationBatch.") + name + " has dtype " +
                         std::string(py::str(target.dtype())));
  }
  const py::ssize_t width = target.ndim() == 1 ? 1 : target.shape(1);
  const bool empty = source.empty();
  if (!empty && static_cast<py::ssize_t>(source.size()) != count * width) {
    throw py::value_error(std::string("ObservationBatch.") + name + " rows have " +
                          std::to_string(count > 0 ? source.size() / count : 0) +
                          " values, this batch's have " + std::to_string(width));
  }
  const T fill = std::numeric_limits<T>::has_quiet_NaN ? std::numeric_limits<T>::quiet_NaN() : T{};
  char* base = static_cast<char*>(target.mutable_data());
  const py::ssize_t row_stride = target.strides(0);
  const py::ssize_t column_stride = target.ndim() == 1 ? 0 : target.strides(1);
  for (int k = 0; k < count; ++k) {
    char* row = base + rows[static_cast<size_t>(k)] * row_stride;
    for (py::ssize_t j = 0; j < width; ++j) {
      *reinterpret_cast<T*>(row + j * column_stride) =
          empty ? fill : static_cast<T>(source.Get(static_cast<int>(k * width + j)));
    }
  }
}

// Writes the packed reply of a finished direct StepBatch into rows `where`
// (a slice or indices) of `out`'s arrays (a moreau.ObservationBatch), as
// moreau._wire.decode_packed_into does from its bytes. Returns
// (code, message, labels): labels is None when every entry is OK (the ids are
// the request's, the messages empty), else (instance ids, status messages).
py::tuple OutcomeInto(server::DirectStepBatch& call, py::object out, py::object where) {
  const absl::Status& status = call.status();
  if (!status.ok()) {
    return py::make_tuple(static_cast<int>(status.code()), std::string(status.message()),
                          py::none());
  }
  const v1::ObservationBatch& batch = call.reply().packed();
  const int count = batch.count();
  std::vector<py::ssize_t> rows(static_cast<size_t>(count));
  if (py::isinstance<py::slice>(where)) {
    py::ssize_t start = 0, stop = 0, step = 0, length = 0;
    const py::ssize_t n = py::len(out.attr("status_code"));
    if (!where.cast<py::slice>().compute(n, &start, &stop, &step, &length) || length != count) {
      throw py::value_error("the rows to write do not match the reply's");
    }
    for (int k = 0; k < count; ++k) rows[static_cast<size_t>(k)] = start + k * step;
  } else {
    auto indices = py::array_t<py::ssize_t, py::array::forcecast>::ensure(where);
    if (!indices || indices.ndim() != 1 || indices.shape(0) != count) {
      throw py::value_error("the rows to write do not match the reply's");
    }
    for (int k = 0; k < count; ++k) rows[static_cast<size_t>(k)] = indices.at(k);
  }
  auto array = [&out](const char* name) { return out.attr(name).cast<py::array>(); };
  py::array a;
#define MOREAU_COPY(T, name, field) \
  a = array(name);                  \
  CopyRows<T>(name, batch.field(), count, rows, a)
  MOREAU_COPY(double, "time", time);
  MOREAU_COPY(int64_t, "steps", steps);
  MOREAU_COPY(double, "q", q);
  MOREAU_COPY(double, "v", v);
  MOREAU_COPY(double, "joint_positions", joint_positions);
  MOREAU_COPY(double, "joint_velocities", joint_velocities);
  MOREAU_COPY(double, "joint_torques", joint_torques);
  MOREAU_COPY(double, "base_pose", base_pose);
  MOREAU_COPY(double, "base_twist", base_twist);
  MOREAU_COPY(double, "contact_normal_forces", contact_normal_forces);
  MOREAU_COPY(bool, "contact_flags", contact_flags);
  MOREAU_COPY(int32_t, "solver_iterations", solver_iterations);
  MOREAU_COPY(bool, "solver_converged", solver_converged);
  MOREAU_COPY(int32_t, "status_code", status_codes);
  MOREAU_COPY(double, "link_positions", link_positions);
  MOREAU_COPY(int32_t, "substeps_done", substeps_done);
#undef MOREAU_COPY
  const bool all_ok = std::all_of(batch.status_codes().begin(), batch.status_codes().end(),
                                  [](int32_t code) { return code == 0; });
  if (all_ok && batch.status_codes_size() == count) return py::make_tuple(0, "", py::none());
  py::list ids, messages;
  for (const std::string& id : batch.instance_ids()) ids.append(py::str(id));
  for (const std::string& message : batch.status_messages()) {
    messages.append(py::reinterpret_steal<py::object>(
        PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "replace")));
  }
  return py::make_tuple(0, "", py::make_tuple(ids, messages));
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

// The Python class `name` of a call of kind Call (UnaryCall or
// DirectStepBatch): wait, done, outcome and cancel, as moreau.local's
// futures use them.
template <typename Call>
void BindCall(py::module_& m, const char* name) {
  py::class_<Call, std::shared_ptr<Call>>(m, name)
      .def(
          "wait",
          [](Call& call, std::optional<double> timeout_s) {
            return WaitInterruptibly(call, WaitFor(timeout_s));
          },
          py::arg("timeout") = py::none(),
          "Waits up to `timeout` s (None: until it finishes); whether it finished.")
      .def("done", &Call::done)
      .def(
          "outcome", [](Call& call) { return Outcome(call); },
          "(code, message, reply bytes or None) once done.")
      .def("cancel", [](Call& call) { Cancel(call); });
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
    return Outcome(*StepBatchCall(request, timeout_s));
  }

  // The finished direct call of StepBatch.
  std::shared_ptr<server::DirectStepBatch> StepBatchCall(std::string_view request,
                                                         std::optional<double> timeout_s) {
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
    return call;
  }

  // StepBatch as above, its packed reply written into rows `where` of the
  // moreau.ObservationBatch `out` (OutcomeInto) instead of returned as bytes.
  py::tuple StepBatchInto(std::string_view request, std::optional<double> timeout_s, py::object out,
                          py::object where) {
    std::shared_ptr<server::DirectStepBatch> call = StepBatchCall(request, timeout_s);
    return OutcomeInto(*call, std::move(out), std::move(where));
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
  using moreau::local::BindCall;
  using moreau::local::Bytes;
  using moreau::local::CallStatus;
  using moreau::local::kWaitSlice;
  using moreau::local::Server;
  using moreau::local::StreamCall;
  using moreau::local::UnaryCall;
  using moreau::local::WaitFor;
  namespace server = moreau::server;
  using server::DirectStepBatch;
  m.doc() = "The in-process engine of the moreau Python client (see moreau.local).";

  m.def("legged_base_terms", &moreau::local::LeggedBaseTermsOf, py::arg("base_pose"),
        py::arg("base_twist"),
        "(n, 10): base height, gravity direction (3) and linear velocity (3) in the base "
        "frame, angular velocity (3); the bits of moreau.tasks' numpy formulas.");

  BindCall<UnaryCall>(m, "UnaryCall");
  BindCall<DirectStepBatch>(m, "DirectStepBatch");

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
      .def("step_batch_into", &Server::StepBatchInto, py::arg("request"), py::arg("timeout"),
           py::arg("out"), py::arg("where"),
           "step_batch, the packed reply written into rows `where` of the ObservationBatch "
           "`out`: (code, message, None or (instance ids, status messages)).")
      .def("start_step_batch", &Server::StartStepBatch, py::arg("request"),
           py::arg("timeout") = py::none(), "StepBatch without gRPC, on the pool alone.")
      .def("open", &Server::Open, py::arg("method"), py::arg("timeout") = py::none())
      .def("close", &Server::Close);
}
