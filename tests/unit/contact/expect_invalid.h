// The check of the contact laws' and solvers' Validate: bad parameters are
// refused with InvalidArgument and a message naming the field.
#ifndef MOREAU_TESTS_UNIT_CONTACT_EXPECT_INVALID_H_
#define MOREAU_TESTS_UNIT_CONTACT_EXPECT_INVALID_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/status/status.h"

namespace moreau::contact::testing {

// Validate(params) (found by argument-dependent lookup) is InvalidArgument,
// its message naming `field`.
template <typename Params>
void ExpectInvalid(const Params& params, const std::string& field) {
  const absl::Status s = Validate(params);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), ::testing::HasSubstr(field));
}

}  // namespace moreau::contact::testing

#endif  // MOREAU_TESTS_UNIT_CONTACT_EXPECT_INVALID_H_
