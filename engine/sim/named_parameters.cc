#include "engine/sim/named_parameters.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace moreau::sim {

NamedParameter Integer(const char* name, int* field, int min, int max) {
  return {.name = name, .integer = field, .min = min, .max = max};
}

NamedParameter Flag(const char* name, bool* field, const char* off, const char* on) {
  return {.name = name, .flag = field, .off = off, .on = on};
}

std::vector<std::string> ParameterNames(const std::vector<NamedParameter>& table) {
  std::vector<std::string> names;
  names.reserve(table.size());
  for (const NamedParameter& p : table) names.emplace_back(p.name);
  return names;
}

absl::Status SetNamedParameter(const std::vector<NamedParameter>& table, absl::string_view name,
                               double value, const ParameterWording& wording,
                               absl::FunctionRef<absl::Status()> unknown) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat(wording.noun, " '", name, "' is ", value, ", expected a finite number"));
  }
  for (const NamedParameter& p : table) {
    if (name != p.name) continue;
    if (p.choice != nullptr) {
      const int count = static_cast<int>(p.choices->size());
      if (value < 0 || value >= count || value != std::floor(value)) {
        std::string expected;
        for (int k = 0; k < count; ++k) {
          absl::StrAppend(&expected,
                          k == 0           ? ""
                          : k + 1 == count ? " or "
                                           : ", ",
                          k, " (", (*p.choices)[k], ")");
        }
        return absl::InvalidArgumentError(
            absl::StrCat(wording.noun, " '", name, "' must be ", expected, ", got ", value));
      }
      p.set_choice(p.choice, static_cast<int>(value));
    } else if (p.integer != nullptr) {
      if (value < p.min || value > p.max || value != std::floor(value)) {
        return absl::InvalidArgumentError(absl::StrCat(wording.noun, " '", name,
                                                       "' must be an integer in [", p.min, ", ",
                                                       p.max, "], got ", value));
      }
      *p.integer = static_cast<int>(value);
    } else if (p.flag != nullptr) {
      if (value != 0.0 && value != 1.0) {
        return absl::InvalidArgumentError(absl::StrCat(wording.noun, " '", name, "' ",
                                                       wording.flag_is, "must be 0 (", p.off,
                                                       ") or 1 (", p.on, "), got ", value));
      }
      *p.flag = value == 1.0;
    } else {
      *p.number = value;
    }
    return absl::OkStatus();
  }
  return unknown();
}

}  // namespace moreau::sim
