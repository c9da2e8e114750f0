// Helpers for the human-readable reports: numbers, vectors, aligned tables and
// labelled matrices.
#ifndef MOREAU_CLIENTS_CLI_TEXT_FORMAT_H_
#define MOREAU_CLIENTS_CLI_TEXT_FORMAT_H_

#include <Eigen/Core>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace moreau::cli {

// "%.6g"; "inf", "-inf", "nan" for non-finite values.
std::string FormatNumber(double value);
// "[a, b, c]" with FormatNumber.
std::string FormatVector(const Eigen::Ref<const Eigen::VectorXd>& values);

// Fills each paragraph (separated by '\n') of `text` into lines of at most
// `width` columns, each starting with `indent`; ends with a newline.
std::string WrapText(absl::string_view text, int width = 80, absl::string_view indent = "");

// Left-aligned columns separated by two spaces, each line indented by two;
// nothing when there are no rows under the header.
class Table {
 public:
  explicit Table(std::vector<std::string> header) : rows_{std::move(header)} {}
  void AddRow(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void Print(std::ostream& out) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

// A matrix under a title, rows labelled with `row_labels` (may be empty),
// numbers right-aligned in columns:
//   M (18 x 18):
//     floating_base   1.23  0  ...
void PrintMatrix(std::ostream& out, absl::string_view title,
                 const Eigen::Ref<const Eigen::MatrixXd>& matrix,
                 const std::vector<std::string>& row_labels);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_TEXT_FORMAT_H_
