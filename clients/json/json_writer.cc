#include "clients/json/json_writer.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/strings/string_view.h"

namespace moreau {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if there is none
// (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
int Utf8SequenceLength(absl::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  int length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (int k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

std::string JsonQuote(absl::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (size_t i = 0; i < text.size();) {
    const unsigned char ch = static_cast<unsigned char>(text[i]);
    if (ch >= 0x80) {
      const int length = Utf8SequenceLength(text, i);
      if (length == 0) {
        out += "\\ufffd";  // invalid UTF-8 byte
        ++i;
      } else {
        out.append(text.data() + i, length);
        i += length;
      }
      continue;
    }
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (ch < 0x20 || ch == 0x7F) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", ch);
          out += escaped;
        } else {
          out.push_back(static_cast<char>(ch));
        }
    }
    ++i;
  }
  out.push_back('"');
  return out;
}

std::string JsonNumber(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  return buffer;
}

void JsonWriter::NewLine(int depth) {
  out_ << '\n';
  for (int i = 0; i < depth; ++i) out_ << "  ";
}

void JsonWriter::BeforeValue(bool container) {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;  // the top-level value
  Level& level = stack_.back();
  // Inside an array: scalars share a line; containers start their own.
  if (level.count > 0) out_ << ',';
  if (container || level.had_container) {
    NewLine(static_cast<int>(stack_.size()));
  } else if (level.count > 0) {
    out_ << ' ';
  }
  if (container) level.had_container = true;
  ++level.count;
}

JsonWriter& JsonWriter::Key(absl::string_view key) {
  Level& level = stack_.back();
  if (level.count > 0) out_ << ',';
  NewLine(static_cast<int>(stack_.size()));
  out_ << JsonQuote(key) << ": ";
  ++level.count;
  level.had_container = true;  // keys always start their own line
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::BeginObject() {
  BeforeValue(/*container=*/true);
  out_ << '{';
  stack_.push_back({.object = true});
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeforeValue(/*container=*/true);
  out_ << '[';
  stack_.push_back({.object = false});
  return *this;
}

void JsonWriter::EndContainer(char close) {
  const Level level = stack_.back();
  stack_.pop_back();
  if (level.had_container) NewLine(static_cast<int>(stack_.size()));
  out_ << close;
  if (stack_.empty()) out_ << '\n';
}

JsonWriter& JsonWriter::EndObject() {
  EndContainer('}');
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  EndContainer(']');
  return *this;
}

JsonWriter& JsonWriter::String(absl::string_view value) {
  BeforeValue(/*container=*/false);
  out_ << JsonQuote(value);
  return *this;
}

JsonWriter& JsonWriter::Number(double value) {
  BeforeValue(/*container=*/false);
  out_ << JsonNumber(value);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue(/*container=*/false);
  out_ << value;
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue(/*container=*/false);
  out_ << (value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue(/*container=*/false);
  out_ << "null";
  return *this;
}

JsonWriter& JsonWriter::Numbers(const Eigen::Ref<const Eigen::VectorXd>& values) {
  BeginArray();
  for (Eigen::Index i = 0; i < values.size(); ++i) Number(values[i]);
  return EndArray();
}

JsonWriter& JsonWriter::Numbers(const std::vector<double>& values) {
  BeginArray();
  for (double value : values) Number(value);
  return EndArray();
}

JsonWriter& JsonWriter::Strings(const std::vector<std::string>& values) {
  BeginArray();
  for (const std::string& value : values) String(value);
  return EndArray();
}

JsonWriter& JsonWriter::Matrix(const Eigen::Ref<const Eigen::MatrixXd>& matrix) {
  BeginArray();
  for (Eigen::Index r = 0; r < matrix.rows(); ++r) Numbers(matrix.row(r).transpose());
  return EndArray();
}

}  // namespace moreau
