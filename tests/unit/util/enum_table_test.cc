// The enum vocabularies: a constant EnumEntry array and an EnumTable name,
// list and parse their values the same way; a value outside the entries is
// "unknown", a name outside them is refused with the list.
#include "engine/util/enum_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace moreau {
namespace {

enum class Colour { kRed, kGreen, kBlue, kOther };

constexpr EnumEntry<Colour> kColours[] = {
    {Colour::kRed, "red"}, {Colour::kGreen, "green"}, {Colour::kBlue, "blue"}};

TEST(EnumEntries, NameEachValueAndUnknownOutside) {
  EXPECT_STREQ(EnumName(kColours, Colour::kRed), "red");
  EXPECT_STREQ(EnumName(kColours, Colour::kBlue), "blue");
  EXPECT_STREQ(EnumName(kColours, Colour::kOther), "unknown");
}

TEST(EnumEntries, ListTheNamesInOrder) {
  EXPECT_EQ(EnumNameList(kColours), "red, green or blue");
  constexpr EnumEntry<Colour> one[] = {{Colour::kRed, "red"}};
  EXPECT_EQ(EnumNameList(one), "red");
  EXPECT_EQ(EnumNameList(std::vector<EnumEntry<Colour>>{}), "");
}

TEST(EnumEntries, ParseTheNamesAndRefuseOthersListingThem) {
  for (const EnumEntry<Colour>& entry : kColours) {
    const absl::StatusOr<Colour> parsed = ParseEnum<Colour>("colour", kColours, entry.name);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, entry.value);
  }
  const absl::StatusOr<Colour> bad = ParseEnum<Colour>("colour", kColours, "Red");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "unknown colour 'Red' (expected red, green or blue)");
}

TEST(EnumTable, ReadsLikeTheEntries) {
  const EnumTable<Colour> table(
      "colour", {{Colour::kRed, "red", "warm"}, {Colour::kGreen, "green", "grass"}});
  EXPECT_STREQ(table.Name(Colour::kGreen), "green");
  EXPECT_STREQ(table.Name(Colour::kBlue), "unknown");
  EXPECT_EQ(table.NameList(), "red or green");
  EXPECT_EQ(*table.Parse("red"), Colour::kRed);
  EXPECT_EQ(table.Parse("blue").status().message(),
            "unknown colour 'blue' (expected red or green)");
  EXPECT_STREQ(table.entries()[1].help, "grass");
}

}  // namespace
}  // namespace moreau
