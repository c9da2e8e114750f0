// One table per enum of the settings vocabulary: each value with its name on
// the command line and the wire, and a one-line help. Name, Parse, the list
// of names in error messages and the CLI's help all read the same table, so
// they cannot drift apart.
#ifndef MOREAU_ENGINE_UTIL_ENUM_TABLE_H_
#define MOREAU_ENGINE_UTIL_ENUM_TABLE_H_

#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace moreau {

template <typename Enum>
struct EnumEntry {
  Enum value;
  const char* name;       // as written on the command line and the wire
  const char* help = "";  // one line, no final period
};

// The lookups over a list of entries (a constant array or EnumTable's): a
// vocabulary that needs no help lines is a constexpr EnumEntry array read by
// these alone.

// The value's name, "unknown" for a value outside the entries.
template <typename Entries, typename Enum>
const char* EnumName(const Entries& entries, Enum value) {
  for (const EnumEntry<Enum>& entry : entries) {
    if (entry.value == value) return entry.name;
  }
  return "unknown";
}

// "a, b or c".
template <typename Entries>
std::string EnumNameList(const Entries& entries) {
  std::string list;
  const size_t n = std::size(entries);
  size_t i = 0;
  for (const auto& entry : entries) {
    if (i > 0) list += i + 1 == n ? " or " : ", ";
    list += entry.name;
    ++i;
  }
  return list;
}

// The value named `name`; InvalidArgument "unknown <what> '<name>' (expected
// a, b or c)" for a name outside the entries.
template <typename Enum, typename Entries>
absl::StatusOr<Enum> ParseEnum(const char* what, const Entries& entries, std::string_view name) {
  for (const EnumEntry<Enum>& entry : entries) {
    if (name == entry.name) return entry.value;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown ", what, " '", std::string(name),
                                                 "' (expected ", EnumNameList(entries), ")"));
}

template <typename Enum>
class EnumTable {
 public:
  // `what` names the vocabulary in messages ("contact model").
  EnumTable(const char* what, std::initializer_list<EnumEntry<Enum>> entries)
      : what_(what), entries_(entries) {}

  const char* what() const { return what_; }
  const std::vector<EnumEntry<Enum>>& entries() const { return entries_; }

  // The value's name, "unknown" for a value outside the table.
  const char* Name(Enum value) const { return EnumName(entries_, value); }

  // InvalidArgument "unknown <what> '<name>' (expected a, b or c)" for a name
  // outside the table.
  absl::StatusOr<Enum> Parse(std::string_view name) const {
    return ParseEnum<Enum>(what_, entries_, name);
  }

  // "a, b or c".
  std::string NameList() const { return EnumNameList(entries_); }

 private:
  const char* what_;
  std::vector<EnumEntry<Enum>> entries_;
};

}  // namespace moreau

#endif  // MOREAU_ENGINE_UTIL_ENUM_TABLE_H_
