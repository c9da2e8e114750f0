#include "clients/cli/action_replay.h"

#include <cmath>
#include <fstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace moreau::cli {

absl::StatusOr<std::vector<Eigen::VectorXd>> ReadActionsCsv(const std::string& path, int size) {
  std::ifstream file(path);
  if (!file) return absl::NotFoundError(absl::StrCat("--actions: cannot read '", path, "'"));
  std::vector<Eigen::VectorXd> rows;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    const absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty() || text[0] == '#') continue;
    const std::vector<absl::string_view> fields = absl::StrSplit(text, ',');
    if (static_cast<int>(fields.size()) != size) {
      return absl::InvalidArgumentError(absl::StrCat("--actions ", path, " line ", number, ": ",
                                                     fields.size(), " values, expected ", size,
                                                     " (one per actuator)"));
    }
    Eigen::VectorXd row(size);
    for (int k = 0; k < size; ++k) {
      const absl::string_view field = absl::StripAsciiWhitespace(fields[k]);
      if (!absl::SimpleAtod(field, &row[k]) || !std::isfinite(row[k])) {
        return absl::InvalidArgumentError(absl::StrCat("--actions ", path, " line ", number,
                                                       ": entry ", k + 1, " (\"", field,
                                                       "\") is not a finite number"));
      }
    }
    rows.push_back(std::move(row));
  }
  if (rows.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("--actions ", path, ": no action rows"));
  }
  return rows;
}

}  // namespace moreau::cli
