// Failing with a report. A command's report is normally printed only when it
// succeeds (main.cc). A command whose report stays meaningful when it fails —
// `sim` stopping at a divergence still reports the run up to it — returns
// WithReport(status): main.cc then prints the report to stdout, then the one
// error line to stderr, and exits with the failure's code.
#ifndef MOREAU_CLIENTS_CLI_COMMAND_STATUS_H_
#define MOREAU_CLIENTS_CLI_COMMAND_STATUS_H_

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/string_view.h"

namespace moreau::cli {

inline constexpr absl::string_view kPrintReportPayload = "moreau.cli/print-report";

// `status` (not OK) marked so that the command's report is printed anyway.
inline absl::Status WithReport(absl::Status status) {
  if (!status.ok()) status.SetPayload(kPrintReportPayload, absl::Cord("1"));
  return status;
}

// Whether a failed command's report is to be printed.
inline bool PrintsReport(const absl::Status& status) {
  return status.GetPayload(kPrintReportPayload).has_value();
}

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_COMMAND_STATUS_H_
