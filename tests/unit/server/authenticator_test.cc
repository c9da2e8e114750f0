#include "server/authenticator.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"

namespace moreau::server {
namespace {

std::string HexDigest(const std::string& token) {
  std::string hex;
  for (uint8_t byte : TokenTable::Hash(token))
    absl::StrAppend(&hex, absl::Hex(byte, absl::kZeroPad2));
  return hex;
}

// A tokens file in a fresh temporary folder.
class AuthenticatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/moreau_auth_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    path_ = dir_ + "/tokens";
  }
  void TearDown() override {
    unlink(path_.c_str());
    rmdir(dir_.c_str());
  }
  void Write(const std::string& text) { std::ofstream(path_, std::ios::trunc) << text; }

  std::string dir_;
  std::string path_;
};

// Metadata as gRPC hands it to the server; the strings outlive the map.
Authenticator::Metadata Entries(const std::vector<std::pair<std::string, std::string>>& entries) {
  Authenticator::Metadata metadata;
  for (const auto& [key, value] : entries) metadata.emplace(key, value);
  return metadata;
}

TEST_F(AuthenticatorTest, ABearerTokenNamesItsTenant) {
  Write(absl::StrCat("alice ", HexDigest("tok-a"), " max_instances=4\n"));
  auto auth = Authenticator::FromFile(path_);
  ASSERT_TRUE(auth.ok()) << auth.status();
  for (const std::string value : {"Bearer tok-a", "bearer tok-a", "BEARER   tok-a"}) {
    const std::vector<std::pair<std::string, std::string>> entries = {{"authorization", value}};
    absl::StatusOr<Tenant> tenant = (*auth)->Authenticate(Entries(entries));
    ASSERT_TRUE(tenant.ok()) << value << ": " << tenant.status();
    EXPECT_EQ(tenant->name, "alice");
    EXPECT_EQ(tenant->max_instances, 4);
  }
}

TEST_F(AuthenticatorTest, MissingMalformedAndUnknownTokensAreUnauthenticated) {
  Write(absl::StrCat("alice ", HexDigest("tok-a"), "\n"));
  auto auth = Authenticator::FromFile(path_);
  ASSERT_TRUE(auth.ok()) << auth.status();
  const std::vector<std::pair<std::string, std::string>> kNone = {{"x-other", "1"}};
  struct Case {
    std::vector<std::pair<std::string, std::string>> entries;
    std::string message;
  };
  const Case cases[] = {
      {kNone, "requires a bearer token"},
      {{{"authorization", "Basic dG9rLWE="}}, "must be 'Bearer TOKEN'"},
      {{{"authorization", "Bearer"}}, "must be 'Bearer TOKEN'"},
      {{{"authorization", "Bearer "}}, "must be 'Bearer TOKEN'"},
      {{{"authorization", "Bearertok-a"}}, "must be 'Bearer TOKEN'"},
      {{{"authorization", "Bearer tok-b"}}, "the bearer token is not valid"},
      {{{"authorization", "Bearer tok-a"}, {"authorization", "Bearer tok-a"}}, "more than one"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Tenant> tenant = (*auth)->Authenticate(Entries(c.entries));
    ASSERT_FALSE(tenant.ok()) << c.message;
    EXPECT_EQ(tenant.status().code(), absl::StatusCode::kUnauthenticated);
    EXPECT_NE(tenant.status().message().find(c.message), std::string::npos) << tenant.status();
    EXPECT_EQ(tenant.status().message().find("tok-"), std::string::npos)
        << "the error must not echo the token: " << tenant.status();
  }
}

TEST_F(AuthenticatorTest, ReloadSwapsTheTokensAndABadFileKeepsThem) {
  Write(absl::StrCat("alice ", HexDigest("tok-a"), "\n"));
  auto auth = Authenticator::FromFile(path_);
  ASSERT_TRUE(auth.ok()) << auth.status();
  const auto tenant_of = [&](const std::string& token) {
    return (*auth)->Authenticate(Entries({{"authorization", "Bearer " + token}}));
  };
  Write(absl::StrCat("bob ", HexDigest("tok-b"), "\n"));
  ASSERT_TRUE((*auth)->Reload().ok());
  EXPECT_EQ(tenant_of("tok-a").status().code(), absl::StatusCode::kUnauthenticated);
  ASSERT_TRUE(tenant_of("tok-b").ok());
  EXPECT_EQ(tenant_of("tok-b")->name, "bob");

  Write(absl::StrCat("carol ", HexDigest("tok-c"), "\ncarol not-a-digest\n"));
  const absl::Status reload = (*auth)->Reload();
  EXPECT_EQ(reload.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(reload.message().find(absl::StrCat(path_, ":2: ")), std::string::npos) << reload;
  EXPECT_TRUE(tenant_of("tok-b").ok());  // the old tokens stay in force
  EXPECT_FALSE(tenant_of("tok-c").ok());

  unlink(path_.c_str());
  EXPECT_EQ((*auth)->Reload().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(tenant_of("tok-b").ok());
}

}  // namespace
}  // namespace moreau::server
