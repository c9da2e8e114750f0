#include "clients/cpp/health.h"

#include <grpcpp/generic/generic_stub.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/synchronization/notification.h"
#include "clients/cpp/client.h"

namespace moreau::client {
namespace {

constexpr char kCheckMethod[] = "/grpc.health.v1.Health/Check";

void AppendVarint(uint64_t value, std::string& out) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

// Reads a varint at `bytes[*at]` and moves past it; false at a truncated or
// over-long one.
bool ReadVarint(absl::string_view bytes, size_t* at, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64 && *at < bytes.size(); shift += 7) {
    const auto byte = static_cast<uint8_t>(bytes[(*at)++]);
    *value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace

absl::string_view ServingStatusName(ServingStatus status) {
  switch (status) {
    case ServingStatus::kUnknown:
      return "UNKNOWN";
    case ServingStatus::kServing:
      return "SERVING";
    case ServingStatus::kNotServing:
      return "NOT_SERVING";
    case ServingStatus::kServiceUnknown:
      return "SERVICE_UNKNOWN";
  }
  return "UNKNOWN";
}

std::string EncodeHealthCheckRequest(absl::string_view service) {
  std::string bytes;
  if (service.empty()) return bytes;  // proto3 leaves a default field out
  bytes.push_back(0x0a);              // field 1, length-delimited
  AppendVarint(service.size(), bytes);
  bytes.append(service.data(), service.size());
  return bytes;
}

std::optional<ServingStatus> DecodeHealthCheckResponse(absl::string_view bytes) {
  uint64_t status = 0;  // absent: UNKNOWN, proto3's default
  size_t at = 0;
  while (at < bytes.size()) {
    uint64_t tag = 0;
    uint64_t value = 0;
    if (!ReadVarint(bytes, &at, &tag)) return std::nullopt;
    switch (tag & 7) {  // the wire type
      case 0:           // varint
        if (!ReadVarint(bytes, &at, &value)) return std::nullopt;
        if (tag >> 3 == 1) status = value;
        break;
      case 1:  // 64-bit
        if (bytes.size() - at < 8) return std::nullopt;
        at += 8;
        break;
      case 2:  // length-delimited
        if (!ReadVarint(bytes, &at, &value) || bytes.size() - at < value) return std::nullopt;
        at += value;
        break;
      case 5:  // 32-bit
        if (bytes.size() - at < 4) return std::nullopt;
        at += 4;
        break;
      default:
        return std::nullopt;
    }
  }
  if (status > static_cast<uint64_t>(ServingStatus::kServiceUnknown)) return std::nullopt;
  return static_cast<ServingStatus>(status);
}

absl::StatusOr<ServingStatus> CheckHealth(std::shared_ptr<grpc::Channel> channel,
                                          absl::string_view service, absl::Duration timeout) {
  grpc::GenericStub stub(std::move(channel));
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  grpc::Slice slice(EncodeHealthCheckRequest(service));
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  grpc::Status status;
  absl::Notification done;
  stub.UnaryCall(&context, kCheckMethod, grpc::StubOptions(), &request, &response,
                 [&](grpc::Status s) {
                   status = std::move(s);
                   done.Notify();
                 });
  done.WaitForNotification();
  if (!status.ok()) return FromGrpc(status);
  std::vector<grpc::Slice> slices;
  if (!response.Dump(&slices).ok()) return absl::InternalError("unreadable health response");
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  std::optional<ServingStatus> serving = DecodeHealthCheckResponse(bytes);
  if (!serving.has_value()) return absl::InternalError("malformed health response");
  return *serving;
}

}  // namespace moreau::client
