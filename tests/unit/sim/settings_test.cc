// The settings vocabularies: every enumerator is in its table with a unique
// name and a help line, names parse back to their value, and an unknown name
// is refused with a message listing every known one.
#include "engine/sim/settings.h"

#include <set>
#include <string>

#include "engine/sim/actuation.h"
#include "gtest/gtest.h"

namespace moreau::sim {
namespace {

// Checks `table` against the enumerators 0..last (all of them, in order).
template <typename Enum>
void ExpectCompleteTable(const EnumTable<Enum>& table, Enum last) {
  SCOPED_TRACE(table.what());
  const int count = static_cast<int>(last) + 1;
  ASSERT_EQ(static_cast<int>(table.entries().size()), count);
  std::set<std::string> names;
  for (int i = 0; i < count; ++i) {
    const Enum value = static_cast<Enum>(i);
    const std::string name = table.Name(value);
    EXPECT_NE(name, "unknown") << "enumerator " << i;
    EXPECT_TRUE(names.insert(name).second) << name << " twice";
    const absl::StatusOr<Enum> parsed = table.Parse(name);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, value) << name;
  }
  for (const EnumEntry<Enum>& entry : table.entries()) {
    EXPECT_GT(std::string(entry.help).size(), 10u) << entry.name;
  }
  const absl::StatusOr<Enum> bad = table.Parse("no-such-name");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(bad.status().message());
  EXPECT_NE(message.find(std::string("unknown ") + table.what() + " 'no-such-name'"),
            std::string::npos)
      << message;
  for (const std::string& name : names) {
    EXPECT_NE(message.find(name), std::string::npos) << message << " lacks " << name;
  }
}

TEST(SettingsVocabulary, EveryEnumeratorIsInItsTable) {
  ExpectCompleteTable(ContactModels(), ContactModel::kMicroMacro);
  ExpectCompleteTable(Integrators(), step::Integrator::kRk4);
  ExpectCompleteTable(LoopSolvers(), step::LoopSolver::kDirect);
  ExpectCompleteTable(ControlModes(), ControlMode::kCommand);
}

TEST(SettingsVocabulary, NamesListEndsWithOr) {
  EXPECT_EQ(Integrators().NameList(), "euler, heun or rk4");
  EXPECT_EQ(LoopSolvers().NameList(), "prox or direct");
  EXPECT_EQ(ContactModelName(ContactModel::kSpringDamper), std::string("spring-damper"));
  EXPECT_EQ(*ParseContactModel("micro-macro"), ContactModel::kMicroMacro);
  EXPECT_FALSE(ParseContactModel("spring_damper").ok());
}

}  // namespace
}  // namespace moreau::sim
