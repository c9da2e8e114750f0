// A table of named fields: each name sets its own field, integers take only
// whole numbers in their range, flags only 0 or 1, a non-finite value is
// refused, and an unknown name is the caller's error; a refused value leaves
// every field as it was.
#include "engine/sim/named_parameters.h"

#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace moreau::sim {
namespace {

using ::testing::ElementsAre;

struct Fields {
  double gain = 1.0;
  int count = 10;
  bool on = true;
};

std::vector<NamedParameter> Table(Fields& f) {
  return {{"gain", &f.gain}, Integer("count", &f.count, 1, 100), Flag("on", &f.on, "no", "yes")};
}

constexpr ParameterWording kWording = {.noun = "test parameter", .flag_is = "is a flag: "};

absl::Status Set(Fields& f, absl::string_view name, double value) {
  return SetNamedParameter(Table(f), name, value, kWording,
                           [&] { return absl::NotFoundError(std::string(name)); });
}

TEST(NamedParametersTest, NamesInTheTablesOrder) {
  Fields f;
  EXPECT_THAT(ParameterNames(Table(f)), ElementsAre("gain", "count", "on"));
  EXPECT_TRUE(ParameterNames({}).empty());
}

TEST(NamedParametersTest, EachNameSetsItsOwnField) {
  Fields f;
  ASSERT_TRUE(Set(f, "gain", 2.5).ok());
  EXPECT_EQ(f.gain, 2.5);
  EXPECT_EQ(f.count, 10);
  EXPECT_TRUE(f.on);
  ASSERT_TRUE(Set(f, "count", 100.0).ok());
  EXPECT_EQ(f.count, 100);
  ASSERT_TRUE(Set(f, "count", 1.0).ok());
  EXPECT_EQ(f.count, 1);
  ASSERT_TRUE(Set(f, "on", 0.0).ok());
  EXPECT_FALSE(f.on);
  ASSERT_TRUE(Set(f, "on", 1.0).ok());
  EXPECT_TRUE(f.on);
  EXPECT_EQ(f.gain, 2.5);
}

TEST(NamedParametersTest, RefusesNonFiniteValuesNamingTheParameter) {
  for (double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Fields f;
    const absl::Status status = Set(f, "gain", bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(),
              absl::StrCat("test parameter 'gain' is ", bad, ", expected a finite number"));
    EXPECT_EQ(f.gain, 1.0);
  }
  // Before the name is looked up.
  Fields f;
  EXPECT_EQ(Set(f, "nope", std::numeric_limits<double>::infinity()).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(NamedParametersTest, IntegersTakeWholeNumbersInTheirRange) {
  for (double bad : {0.0, 101.0, 2.5, -3.0}) {
    Fields f;
    const absl::Status status = Set(f, "count", bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(),
              absl::StrCat("test parameter 'count' must be an integer in [1, 100], got ", bad));
    EXPECT_EQ(f.count, 10);
  }
}

TEST(NamedParametersTest, FlagsTakeZeroOrOneNamedByTheirMeanings) {
  Fields f;
  absl::Status status = Set(f, "on", 0.5);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "test parameter 'on' is a flag: must be 0 (no) or 1 (yes), got 0.5");
  EXPECT_TRUE(f.on);
  // The default meanings, and no word before "must be".
  bool flag = false;
  status = SetNamedParameter({Flag("flag", &flag)}, "flag", 2.0, {.noun = "p"},
                             [] { return absl::OkStatus(); });
  EXPECT_EQ(status.message(), "p 'flag' must be 0 (off) or 1 (on), got 2");
  EXPECT_FALSE(flag);
}

TEST(NamedParametersTest, AnUnknownNameIsTheCallersError) {
  Fields f;
  const absl::Status status = Set(f, "gian", 2.0);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "gian");
  EXPECT_EQ(f.gain, 1.0);
  // An empty table: every name is unknown.
  EXPECT_EQ(SetNamedParameter({}, "gain", 1.0, kWording, [] { return absl::NotFoundError("none"); })
                .message(),
            "none");
}

}  // namespace
}  // namespace moreau::sim
