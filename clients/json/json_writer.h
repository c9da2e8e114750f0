// A small streaming JSON writer for the --json output of the `moreau` command
// and the benchmarks.
//
// Objects put one key per line; arrays of scalars stay on one line, so a
// matrix prints as one row per line. Numbers are written with round-trip
// precision ("%.17g"); NaN and ±∞ have no JSON spelling and become null.
// Strings are escaped per RFC 8259; invalid UTF-8 is replaced by U+FFFD so
// that the output is always valid JSON text.
//
//   JsonWriter json(std::cout);
//   json.BeginObject();
//   json.Key("nq").Int(19);
//   json.Key("q").Numbers(q);
//   json.EndObject();  // also ends the line
#ifndef MOREAU_CLIENTS_JSON_JSON_WRITER_H_
#define MOREAU_CLIENTS_JSON_JSON_WRITER_H_

#include <Eigen/Core>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace moreau {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  // The key of the next value; only inside an object.
  JsonWriter& Key(absl::string_view key);

  JsonWriter& String(absl::string_view value);
  JsonWriter& Number(double value);  // non-finite → null
  JsonWriter& Int(int64_t value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();

  // Conveniences: an array of numbers, an array of strings, and a matrix as
  // an array of rows.
  JsonWriter& Numbers(const Eigen::Ref<const Eigen::VectorXd>& values);
  JsonWriter& Numbers(const std::vector<double>& values);
  JsonWriter& Strings(const std::vector<std::string>& values);
  JsonWriter& Matrix(const Eigen::Ref<const Eigen::MatrixXd>& matrix);

 private:
  struct Level {
    bool object = false;
    int count = 0;               // values written at this level
    bool had_container = false;  // a nested object/array was written
  };

  // Separator and line break before a value (`container`: the value is an
  // object or array).
  void BeforeValue(bool container);
  void EndContainer(char close);
  void NewLine(int depth);

  std::ostream& out_;
  std::vector<Level> stack_;
  bool after_key_ = false;
};

// `text` as a quoted JSON string literal.
std::string JsonQuote(absl::string_view text);
// `value` as a JSON number ("%.17g"), or "null" when not finite.
std::string JsonNumber(double value);

}  // namespace moreau

#endif  // MOREAU_CLIENTS_JSON_JSON_WRITER_H_
