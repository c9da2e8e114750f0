#include "clients/cli/text_format.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace moreau::cli {

std::string FormatNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return absl::StrFormat("%.6g", value);
}

std::string FormatVector(const Eigen::Ref<const Eigen::VectorXd>& values) {
  std::vector<std::string> words;
  words.reserve(values.size());
  for (Eigen::Index i = 0; i < values.size(); ++i) words.push_back(FormatNumber(values[i]));
  return absl::StrCat("[", absl::StrJoin(words, ", "), "]");
}

void Table::Print(std::ostream& out) const {
  if (rows_.size() < 2) return;  // a header alone says nothing
  std::vector<size_t> widths;
  for (const auto& row : rows_) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : rows_) {
    std::string line = " ";
    for (size_t c = 0; c < row.size(); ++c) {
      absl::StrAppend(&line, " ",
                      c + 1 < row.size() ? absl::StrFormat("%-*s ", widths[c], row[c]) : row[c]);
    }
    line.erase(line.find_last_not_of(' ') + 1);  // empty last cells
    out << line << '\n';
  }
}

std::string WrapText(absl::string_view text, int width, absl::string_view indent) {
  std::string out;
  for (absl::string_view paragraph : absl::StrSplit(text, '\n')) {
    std::string line(indent);
    bool empty = true;
    for (absl::string_view word : absl::StrSplit(paragraph, ' ', absl::SkipEmpty())) {
      if (!empty && static_cast<int>(line.size() + 1 + word.size()) > width) {
        absl::StrAppend(&out, line, "\n");
        line = std::string(indent);
        empty = true;
      }
      absl::StrAppend(&line, empty ? "" : " ", word);
      empty = false;
    }
    absl::StrAppend(&out, empty ? "" : line, "\n");
  }
  return out;
}

void PrintMatrix(std::ostream& out, absl::string_view title,
                 const Eigen::Ref<const Eigen::MatrixXd>& matrix,
                 const std::vector<std::string>& row_labels) {
  out << title << " (" << matrix.rows() << " x " << matrix.cols() << "):\n";
  size_t label_width = 0;
  for (const std::string& label : row_labels) label_width = std::max(label_width, label.size());
  size_t width = 1;
  for (Eigen::Index r = 0; r < matrix.rows(); ++r) {
    for (Eigen::Index c = 0; c < matrix.cols(); ++c) {
      width = std::max(width, FormatNumber(matrix(r, c)).size());
    }
  }
  for (Eigen::Index r = 0; r < matrix.rows(); ++r) {
    std::string line = "  ";
    if (label_width > 0) {
      const std::string label =
          r < static_cast<Eigen::Index>(row_labels.size()) ? row_labels[r] : std::string();
      absl::StrAppend(&line, absl::StrFormat("%-*s", label_width, label));
    }
    for (Eigen::Index c = 0; c < matrix.cols(); ++c) {
      absl::StrAppend(&line, absl::StrFormat(" %*s", width, FormatNumber(matrix(r, c))));
    }
    out << line << '\n';
  }
}

}  // namespace moreau::cli
