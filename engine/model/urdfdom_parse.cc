#include "engine/model/urdfdom_parse.h"

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <exception>
#include <string>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"

namespace moreau::model_internal {
namespace {

// console_bridge's handler and log level are process-wide.
ABSL_CONST_INIT absl::Mutex console_mutex(absl::kConstInit);

// Collects urdfdom's error messages. It is never destroyed, since
// console_bridge keeps a pointer to the previous handler (see
// restorePreviousOutputHandler) that may outlive a parse.
class CapturingHandler : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char* /*filename*/,
           int /*line*/) override {
    if (errors_ != nullptr && level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) {
      errors_->push_back(text);
    }
  }
  void set_errors(std::vector<std::string>* errors) { errors_ = errors; }

 private:
  std::vector<std::string>* errors_ = nullptr;
};

CapturingHandler& Handler() {
  static auto* handler = new CapturingHandler;
  return *handler;
}

}  // namespace

absl::StatusOr<urdf::ModelInterfaceSharedPtr> ParseWithUrdfdom(const std::string& xml) {
  std::vector<std::string> errors;
  urdf::ModelInterfaceSharedPtr model;
  {
    absl::MutexLock lock(&console_mutex);
    console_bridge::OutputHandler* const previous_handler = console_bridge::getOutputHandler();
    const console_bridge::LogLevel previous_level = console_bridge::getLogLevel();
    Handler().set_errors(&errors);
    console_bridge::useOutputHandler(&Handler());
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_ERROR);
    try {
      model = urdf::parseURDF(xml);
    } catch (const std::exception& e) {
      model.reset();
      errors.push_back(e.what());
    } catch (...) {
      model.reset();
      errors.push_back("unknown exception in urdfdom");
    }
    console_bridge::setLogLevel(previous_level);
    console_bridge::useOutputHandler(previous_handler);
    Handler().set_errors(nullptr);
  }
  // urdfdom 3 logs some errors (e.g. an unparsable <mass>) but carries on with
  // zeroed values, so any error means failure.
  if (model != nullptr && errors.empty()) return model;
  // Drop the generic "<x> xml is not initialized correctly" that follows the
  // specific message.
  std::vector<std::string> specific;
  for (const std::string& e : errors) {
    if (!absl::StrContains(e, "xml is not initialized correctly")) {
      specific.push_back(e);
    }
  }
  if (specific.empty()) specific = errors;
  if (specific.empty()) specific.push_back("urdfdom rejected the document");
  return absl::InvalidArgumentError(
      absl::StrCat("URDF parse error: ", absl::StrJoin(specific, "; ")));
}

}  // namespace moreau::model_internal
