// The wire's Settings (proto/moreau/v1) as engine settings: what moreaud does
// with CreateInstances' settings and what `moreau sim --settings FILE` does
// with a text-format file, so both read one file the same way.
#ifndef MOREAU_SERVER_WIRE_SETTINGS_H_
#define MOREAU_SERVER_WIRE_SETTINGS_H_

#include "absl/status/statusor.h"
#include "engine/contact/terrain.h"
#include "engine/sim/settings.h"
#include "moreau/v1/simulator.pb.h"

namespace moreau::server {

namespace v1 = ::moreau::v1;

// The controller of Settings.controller, its parameters by name for the
// controller its kind runs under control mode `mode` (SetControllerParameter).
// InvalidArgument naming the field: an unknown kind (listing the kinds),
// period_steps < 0, an unknown parameter (listing the names) or a non-finite
// value.
absl::StatusOr<sim::ControllerSettings> ControllerFromProto(const v1::ControllerSettings& proto,
                                                            sim::ControlMode mode);

// Engine settings from the message; unset fields keep sim::Settings'
// defaults. InvalidArgument names the bad field or the exceeded limit.
absl::StatusOr<sim::Settings> SettingsFromProto(const v1::Settings& proto,
                                                const contact::HeightfieldLimits& limits = {});

}  // namespace moreau::server

#endif  // MOREAU_SERVER_WIRE_SETTINGS_H_
