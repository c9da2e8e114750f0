// One table per enum of the settings vocabulary: each value with its name on
// the command line and the wire, and a one-line help. Name, Parse, the list
// of names in error messages and the CLI's help all read the same table, so
// they cannot drift apart.
#ifndef MOREAU_ENGINE_UTIL_ENUM_TABLE_H_
#define MOREAU_ENGINE_UTIL_ENUM_TABLE_H_

#include <initializer_list>
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
  const char* name;  // as written on the command line and the wire
  const char* help;  // one line, no final period
};

template <typename Enum>
class EnumTable {
 public:
  // `what` names the vocabulary in messages ("contact model").
  EnumTable(const char* what, std::initializer_list<EnumEntry<Enum>> entries)
      : what_(what), entries_(entries) {}

  const char* what() const { return what_; }
  const std::vector<EnumEntry<Enum>>& entries() const { return entries_; }

  // The value's name, "unknown" for a value outside the table.
  const char* Name(Enum value) const {
    for (const EnumEntry<Enum>& entry : entries_) {
      if (entry.value == value) return entry.name;
    }
    return "unknown";
  }

  // InvalidArgument "unknown <what> '<name>' (expected a, b or c)" for a name
  // outside the table.
  absl::StatusOr<Enum> Parse(std::string_view name) const {
    for (const EnumEntry<Enum>& entry : entries_) {
      if (name == entry.name) return entry.value;
    }
    return absl::InvalidArgumentError(
        absl::StrCat("unknown ", what_, " '", std::string(name), "' (expected ", NameList(), ")"));
  }

  // "a, b or c".
  std::string NameList() const {
    std::string list;
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (i > 0) list += i + 1 == entries_.size() ? " or " : ", ";
      list += entries_[i].name;
    }
    return list;
  }

 private:
  const char* what_;
  std::vector<EnumEntry<Enum>> entries_;
};

}  // namespace moreau

#endif  // MOREAU_ENGINE_UTIL_ENUM_TABLE_H_
