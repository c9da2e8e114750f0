#include "clients/cli/number_list.h"

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "clients/json/json_writer.h"

namespace moreau::cli {

absl::StatusOr<Eigen::VectorXd> ParseNumberList(absl::string_view flag, absl::string_view text,
                                                int expected_size, absl::string_view size_name) {
  std::vector<double> values;
  if (!absl::StripAsciiWhitespace(text).empty()) {
    int entry = 0;
    for (absl::string_view piece : absl::StrSplit(text, ',')) {
      ++entry;
      const absl::string_view word = absl::StripAsciiWhitespace(piece);
      // JsonQuote: the entry may hold any bytes; show it escaped.
      double value = 0.0;
      if (word.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(flag, ": entry ", entry, " is empty"));
      }
      if (!absl::SimpleAtod(word, &value)) {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, ": entry ", entry, " (", JsonQuote(word), ") is not a number"));
      }
      if (!std::isfinite(value)) {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, ": entry ", entry, " (", JsonQuote(word), ") is not finite"));
      }
      values.push_back(value);
    }
  }
  if (static_cast<int>(values.size()) != expected_size) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": expected ", expected_size, " values (",
                                                   size_name, "), got ", values.size()));
  }
  return Eigen::Map<const Eigen::VectorXd>(values.data(), expected_size);
}

absl::StatusOr<std::pair<std::string, double>> ParseNamedNumber(absl::string_view flag,
                                                                absl::string_view entry) {
  const std::vector<absl::string_view> parts = absl::StrSplit(entry, absl::MaxSplits('=', 1));
  if (parts.size() != 2 || parts[0].empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": entry ", JsonQuote(entry), " is not NAME=VALUE"));
  }
  double value = 0.0;
  if (!absl::SimpleAtod(parts[1], &value)) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": value of ", JsonQuote(parts[0]), " (",
                                                   JsonQuote(parts[1]), ") is not a number"));
  }
  return std::make_pair(std::string(parts[0]), value);
}

}  // namespace moreau::cli
