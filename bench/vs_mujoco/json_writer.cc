#include "bench/vs_mujoco/json_writer.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace moreau::vs_mujoco {

void JsonWriter::Newline() { out_ << '\n' << std::string(2 * has_member_.size(), ' '); }

void JsonWriter::Separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_member_.empty()) {
    if (has_member_.back()) out_ << ',';
    has_member_.back() = true;
    Newline();
  }
}

JsonWriter& JsonWriter::BeginObject() {
  Separate();
  out_ << '{';
  has_member_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  const bool had = has_member_.back();
  has_member_.pop_back();
  if (had) Newline();
  out_ << '}';
  if (has_member_.empty()) out_ << '\n';
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  Separate();
  out_ << '[';
  has_member_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  const bool had = has_member_.back();
  has_member_.pop_back();
  if (had) Newline();
  out_ << ']';
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  Separate();
  WriteString(key);
  out_ << ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  Separate();
  WriteString(value);
  return *this;
}

void JsonWriter::WriteString(std::string_view value) {
  out_ << '"';
  for (const char ch : value) {
    switch (ch) {
      case '"':
        out_ << "\\\"";
        break;
      case '\\':
        out_ << "\\\\";
        break;
      case '\n':
        out_ << "\\n";
        break;
      case '\t':
        out_ << "\\t";
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof(buffer), "\\u%04x", ch);
          out_ << buffer;
        } else {
          out_ << ch;
        }
    }
  }
  out_ << '"';
}

JsonWriter& JsonWriter::Number(double value) {
  Separate();
  if (!std::isfinite(value)) {
    out_ << "null";
    return *this;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.10g", value);
  out_ << buffer;
  return *this;
}

JsonWriter& JsonWriter::Int(long long value) {
  Separate();
  out_ << value;
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  Separate();
  out_ << (value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Numbers(const std::vector<double>& values) {
  Separate();
  out_ << '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out_ << ", ";
    if (std::isfinite(values[i])) {
      char buffer[32];
      std::snprintf(buffer, sizeof(buffer), "%.10g", values[i]);
      out_ << buffer;
    } else {
      out_ << "null";
    }
  }
  out_ << ']';
  return *this;
}

}  // namespace moreau::vs_mujoco
