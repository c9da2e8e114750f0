#include "clients/cpp/health.h"

#include <gtest/gtest.h>

#include <string>

namespace moreau::client {
namespace {

TEST(HealthTest, RequestForTheWholeServerIsEmpty) { EXPECT_EQ(EncodeHealthCheckRequest(""), ""); }

TEST(HealthTest, RequestCarriesTheServiceName) {
  EXPECT_EQ(EncodeHealthCheckRequest("moreau.v1.Simulator"),
            std::string("\x0a\x13") + "moreau.v1.Simulator");
}

TEST(HealthTest, LongServiceNameHasAVarintLength) {
  const std::string name(200, 'x');
  EXPECT_EQ(EncodeHealthCheckRequest(name), std::string("\x0a\xc8\x01") + name);
}

TEST(HealthTest, DecodesEveryStatus) {
  EXPECT_EQ(DecodeHealthCheckResponse(""), ServingStatus::kUnknown);
  EXPECT_EQ(DecodeHealthCheckResponse("\x08\x01"), ServingStatus::kServing);
  EXPECT_EQ(DecodeHealthCheckResponse("\x08\x02"), ServingStatus::kNotServing);
  EXPECT_EQ(DecodeHealthCheckResponse("\x08\x03"), ServingStatus::kServiceUnknown);
}

TEST(HealthTest, SkipsUnknownFields) {
  // field 2 (length-delimited "ab"), field 3 (fixed32), then the status.
  const std::string bytes(
      "\x12\x02"
      "ab"
      "\x1d\x00\x00\x00\x00"
      "\x08\x01",
      11);
  EXPECT_EQ(DecodeHealthCheckResponse(bytes), ServingStatus::kServing);
}

TEST(HealthTest, RejectsMalformedBytes) {
  EXPECT_EQ(DecodeHealthCheckResponse("\x08"), std::nullopt);  // truncated varint
  EXPECT_EQ(DecodeHealthCheckResponse("\x12\x05"
                                      "ab"),
            std::nullopt);                                         // short field
  EXPECT_EQ(DecodeHealthCheckResponse("\x08\x09"), std::nullopt);  // no such status
  EXPECT_EQ(DecodeHealthCheckResponse("\x0f"), std::nullopt);      // wire type 7
}

TEST(HealthTest, NamesAreTheProtosNames) {
  EXPECT_EQ(ServingStatusName(ServingStatus::kServing), "SERVING");
  EXPECT_EQ(ServingStatusName(ServingStatus::kNotServing), "NOT_SERVING");
}

}  // namespace
}  // namespace moreau::client
