// The contact model's parameters by name: one table shared by the service
// (Settings.contact_parameters in simulator.proto) and `moreau sim
// --contact-param`, so both accept and reject the same names.
#ifndef MOREAU_ENGINE_SIM_CONTACT_PARAMETERS_H_
#define MOREAU_ENGINE_SIM_CONTACT_PARAMETERS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/sim/settings.h"

namespace moreau::sim {

// The names SetContactParameter accepts for the model, in a fixed order.
std::vector<std::string> ContactParameterNames(ContactModel model);

// Sets the named parameter of settings.contact, its model's. InvalidArgument
// when the value is not finite, the name is not one of ContactParameterNames
// (the message lists them), an integer parameter (max_iterations) gets a
// non-integer or out-of-range value, or a flag (hertz's implicit_friction)
// gets anything but 0 or 1. Range checks of the values themselves are
// Validate(Settings)'s.
absl::Status SetContactParameter(Settings& settings, absl::string_view name, double value);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_CONTACT_PARAMETERS_H_
