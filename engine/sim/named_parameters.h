// Settings fields by name: a table of names, each pointing to a field of a
// settings struct (a number, an integer count or a 0/1 flag), and the one
// function that checks a value and sets the field a name points to. The
// contact model's parameters (contact_parameters.h) and the controller's
// (controller_parameters.h) are two such tables.
#ifndef MOREAU_ENGINE_SIM_NAMED_PARAMETERS_H_
#define MOREAU_ENGINE_SIM_NAMED_PARAMETERS_H_

#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace moreau::sim {

// One named field; exactly one of number, integer and flag is set. A number
// field is written {"mu", &law.mu}; the others by Integer and Flag.
struct NamedParameter {
  const char* name;
  double* number = nullptr;
  // An integer in [min, max].
  int* integer = nullptr;
  int min = 0;
  int max = 0;
  // An enum field whose values 0 .. choices.size() − 1 name `choices`: the
  // enum by number, for a table of numbers (the service's parameters are
  // doubles). Set by Choice; set_choice writes the value into the field.
  void* choice = nullptr;
  void (*set_choice)(void* field, int value) = nullptr;
  const std::vector<std::string>* choices = nullptr;
  // 0 or 1, their meanings named by off and on: "0 (off) or 1 (on)".
  bool* flag = nullptr;
  const char* off = "off";
  const char* on = "on";
};

// An integer field taking the values in [min, max].
NamedParameter Integer(const char* name, int* field, int min, int max);

// An enum field taking 0 .. choices.size() − 1, value k naming choices[k]
// (in the messages: "0 (auto), 1 (paper-001) or 2 (derived)"). `choices`
// must outlive the table.
template <typename Enum>
NamedParameter Choice(const char* name, Enum* field, const std::vector<std::string>& choices) {
  return {
      .name = name,
      .choice = field,
      .set_choice = [](void* f, int value) { *static_cast<Enum*>(f) = static_cast<Enum>(value); },
      .choices = &choices};
}

// A 0/1 flag; off and on name what 0 and 1 mean.
NamedParameter Flag(const char* name, bool* field, const char* off = "off", const char* on = "on");

// The names of the table, in its order.
std::vector<std::string> ParameterNames(const std::vector<NamedParameter>& table);

// How SetNamedParameter's messages speak of a parameter.
struct ParameterWording {
  // "contact parameter": "contact parameter 'mu' is nan, expected a finite
  // number".
  absl::string_view noun;
  // Said of a flag before "must be 0 (off) or 1 (on)": "" or "is a flag: ".
  absl::string_view flag_is = "";
};

// Sets the field `name` points to in `table` to `value`. InvalidArgument
// when the value is not finite, an integer field gets a non-integer or a
// value outside [min, max], or a flag gets anything but 0 or 1; `unknown()`
// when no entry has the name (the caller words it, listing the names).
absl::Status SetNamedParameter(const std::vector<NamedParameter>& table, absl::string_view name,
                               double value, const ParameterWording& wording,
                               absl::FunctionRef<absl::Status()> unknown);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_NAMED_PARAMETERS_H_
