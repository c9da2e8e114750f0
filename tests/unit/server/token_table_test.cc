#include "server/token_table.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"

namespace moreau::server {
namespace {

// SHA-256 test vectors (FIPS 180-2, Appendix B.1; and of the empty string).
constexpr char kAbcDigest[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
constexpr char kEmptyDigest[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

std::string HexDigest(const std::string& token) {
  std::string hex;
  for (uint8_t byte : TokenTable::Hash(token))
    absl::StrAppend(&hex, absl::Hex(byte, absl::kZeroPad2));
  return hex;
}

TEST(TokenTable, HashIsSha256) {
  EXPECT_EQ(HexDigest("abc"), kAbcDigest);
  EXPECT_EQ(HexDigest(""), kEmptyDigest);
}

TEST(TokenTable, ParsesTenantsTokensQuotasCommentsAndBlankLines) {
  const std::string text = absl::StrCat(
      "# tokens of the test\n\n", "alice ", HexDigest("a1"), " max_instances=3\r\n", "\tbob\t",
      HexDigest("b1"), "   # a trailing comment\n", "alice ", HexDigest("a2"), "\n");
  absl::StatusOr<TokenTable> table = TokenTable::Parse(text, "tokens");
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->tokens(), 3);
  EXPECT_EQ(table->tenants(), 2);
  const Tenant* alice = table->Find("a2");
  ASSERT_NE(alice, nullptr);
  EXPECT_EQ(alice->name, "alice");
  EXPECT_EQ(alice->max_instances, 3);  // given on another of alice's lines
  EXPECT_EQ(table->Find("a1"), alice);
  const Tenant* bob = table->Find("b1");
  ASSERT_NE(bob, nullptr);
  EXPECT_EQ(bob->name, "bob");
  EXPECT_EQ(bob->max_instances, 0);
}

TEST(TokenTable, DigestsMayBeUpperCaseHex) {
  std::string hex = HexDigest("t");
  for (char& c : hex) c = static_cast<char>(std::toupper(c));
  absl::StatusOr<TokenTable> table = TokenTable::Parse(absl::StrCat("x ", hex), "f");
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_NE(table->Find("t"), nullptr);
}

TEST(TokenTable, UnknownTokensAndNearMissesFindNothing) {
  absl::StatusOr<TokenTable> table =
      TokenTable::Parse(absl::StrCat("alice ", HexDigest("secret")), "f");
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->Find("secreT"), nullptr);
  EXPECT_EQ(table->Find("secret "), nullptr);
  EXPECT_EQ(table->Find(""), nullptr);
  // The digest itself is not a token.
  EXPECT_EQ(table->Find(HexDigest("secret")), nullptr);
}

TEST(TokenTable, AnEmptyFileHasNoTokens) {
  absl::StatusOr<TokenTable> table = TokenTable::Parse("# nobody yet\n\n", "f");
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->tokens(), 0);
  EXPECT_EQ(table->Find(""), nullptr);
}

// Each bad line: the error is INVALID_ARGUMENT and names the file, the line
// and the problem.
struct BadLine {
  std::string line;
  std::string expected;
};

TEST(TokenTable, BadLinesAreNamed) {
  const std::string good = absl::StrCat("alice ", HexDigest("a"), " max_instances=2\n");
  const BadLine cases[] = {
      {"alice", "expected 'TENANT SHA256_HEX [max_instances=N]', got 1 field(s)"},
      {absl::StrCat("bob ", HexDigest("b"), " max_instances=1 extra"), "got 4 field(s)"},
      {absl::StrCat("b@d ", HexDigest("b")), "tenant 'b@d' must be 1 to 64 of"},
      {absl::StrCat(std::string(65, 'x'), " ", HexDigest("b")), "must be 1 to 64 of"},
      {"bob the-token-itself", "must be 64 hex digits, got 16 character(s)"},
      {absl::StrCat("bob ", HexDigest("b").substr(1), "g"), "must be 64 hex digits"},
      {absl::StrCat("bob ", HexDigest("b"), " quota=3"), "unknown option 'quota=3'"},
      {absl::StrCat("bob ", HexDigest("b"), " max_instances=0"),
       "max_instances must be an integer ≥ 1, got '0'"},
      {absl::StrCat("bob ", HexDigest("b"), " max_instances=many"), "got 'many'"},
      {absl::StrCat("bob ", HexDigest("a")), "the same token digest as line 1"},
      {absl::StrCat("alice ", HexDigest("b"), " max_instances=5"),
       "tenant 'alice' has max_instances=2 on line 1 but 5 here"},
  };
  for (const BadLine& bad : cases) {
    absl::StatusOr<TokenTable> table =
        TokenTable::Parse(absl::StrCat(good, "\n", bad.line, "\n"), "/etc/moreau/tokens");
    ASSERT_FALSE(table.ok()) << bad.line;
    EXPECT_EQ(table.status().code(), absl::StatusCode::kInvalidArgument) << bad.line;
    EXPECT_NE(table.status().message().find("/etc/moreau/tokens:3: "), std::string::npos)
        << table.status();
    EXPECT_NE(table.status().message().find(bad.expected), std::string::npos) << table.status();
  }
}

TEST(TokenTable, AMissingFileIsNotFound) {
  absl::StatusOr<TokenTable> table = TokenTable::Load("/nonexistent/moreau-tokens");
  EXPECT_EQ(table.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(table.status().message().find("/nonexistent/moreau-tokens"), std::string::npos);
}

}  // namespace
}  // namespace moreau::server
