#include "server/observation_fields.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace moreau::server {
namespace {

google::protobuf::RepeatedPtrField<std::string> Names(const std::vector<std::string>& names) {
  return google::protobuf::RepeatedPtrField<std::string>(names.begin(), names.end());
}

constexpr ObservationField kEvery[] = {
    ObservationField::kTime,
    ObservationField::kSteps,
    ObservationField::kQ,
    ObservationField::kV,
    ObservationField::kJointPositions,
    ObservationField::kJointVelocities,
    ObservationField::kJointTorques,
    ObservationField::kBasePose,
    ObservationField::kBaseTwist,
    ObservationField::kContactNormalForces,
    ObservationField::kContactFlags,
    ObservationField::kSolverIterations,
    ObservationField::kSolverConverged,
    ObservationField::kLinkPositions,
};

TEST(ObservationFieldsTest, Parse_NoNamesIsEveryArray) {
  auto fields = ObservationFields::Parse(Names({}));
  ASSERT_TRUE(fields.ok()) << fields.status();
  EXPECT_EQ(*fields, ObservationFields::All());
  for (ObservationField f : kEvery) EXPECT_TRUE(fields->has(f));
}

TEST(ObservationFieldsTest, Parse_EveryNameOfTheMessagesIsItsArray) {
  const std::vector<std::string> names = {"time",
                                          "steps",
                                          "q",
                                          "v",
                                          "joint_positions",
                                          "joint_velocities",
                                          "joint_torques",
                                          "base_pose",
                                          "base_twist",
                                          "contact_normal_forces",
                                          "contact_flags",
                                          "solver_iterations",
                                          "solver_converged",
                                          "link_positions"};
  ASSERT_EQ(names.size(), std::size(kEvery));
  for (size_t i = 0; i < names.size(); ++i) {
    SCOPED_TRACE(names[i]);
    auto fields = ObservationFields::Parse(Names({names[i]}));
    ASSERT_TRUE(fields.ok()) << fields.status();
    for (size_t k = 0; k < std::size(kEvery); ++k) EXPECT_EQ(fields->has(kEvery[k]), k == i);
  }
  auto together = ObservationFields::Parse(Names(names));
  ASSERT_TRUE(together.ok());
  EXPECT_EQ(*together, ObservationFields::All());
}

TEST(ObservationFieldsTest, Parse_RepeatedNamesAreOneSelection) {
  auto fields = ObservationFields::Parse(Names({"q", "v", "q"}));
  ASSERT_TRUE(fields.ok()) << fields.status();
  EXPECT_TRUE(fields->has(ObservationField::kQ));
  EXPECT_TRUE(fields->has(ObservationField::kV));
  EXPECT_FALSE(fields->has(ObservationField::kTime));
  EXPECT_FALSE(fields->has(ObservationField::kJointPositions));
}

TEST(ObservationFieldsTest, Parse_UnknownNameIsInvalidArgumentNamingIt) {
  for (const std::string& bad :
       {std::string("Q"), std::string(""), std::string("instance_ids"), std::string("status")}) {
    SCOPED_TRACE(bad);
    auto fields = ObservationFields::Parse(Names({"q", bad}));
    ASSERT_FALSE(fields.ok());
    EXPECT_EQ(fields.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(fields.status().message().find("observation_fields[1]: '" + bad + "'"),
              std::string::npos)
        << fields.status();
    EXPECT_NE(fields.status().message().find("contact_normal_forces"), std::string::npos);
  }
  // A long name is quoted clipped.
  auto fields = ObservationFields::Parse(Names({std::string(10000, 'x')}));
  ASSERT_FALSE(fields.ok());
  EXPECT_LT(fields.status().message().size(), 1000u);
}

}  // namespace
}  // namespace moreau::server
