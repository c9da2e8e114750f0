#include "engine/model/xml_scan.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace moreau::model_internal {
namespace {

absl::Status ParseError(absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("URDF parse error: ", message));
}

// The length of the well-formed UTF-8 sequence at text[i] (RFC 3629 §4:
// no overlong forms, no surrogates, nothing above U+10FFFF), or 0.
size_t Utf8Length(absl::string_view text, size_t i) {
  const auto byte = [&](size_t k) {
    return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u;
  };
  const unsigned c = byte(i);
  const auto tail = [&](size_t k) { return byte(k) >= 0x80 && byte(k) <= 0xBF; };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return tail(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned lo = c == 0xE0 ? 0xA0 : 0x80;
    const unsigned hi = c == 0xED ? 0x9F : 0xBF;
    return byte(i + 1) >= lo && byte(i + 1) <= hi && tail(i + 2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned lo = c == 0xF0 ? 0x90 : 0x80;
    const unsigned hi = c == 0xF4 ? 0x8F : 0xBF;
    return byte(i + 1) >= lo && byte(i + 1) <= hi && tail(i + 2) && tail(i + 3) ? 4 : 0;
  }
  return 0;
}

// XML 1.0 §2.2 and RFC 3629. TinyXML reads a multi-byte character as one
// unit of the length its first byte announces, so a truncated sequence would
// make it step over the byte after it (a closing quote, the terminating NUL).
absl::Status CheckIsText(absl::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == absl::string_view::npos) {
    return ParseError("empty input");
  }
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      return ParseError(absl::StrFormat("not XML text: control byte 0x%02x at offset %d", c, i));
    }
  }
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t length = Utf8Length(text, i);
    if (length == 0) {
      return ParseError(absl::StrFormat(
          "not UTF-8 text: malformed sequence from byte 0x%02x at offset %d", c, i));
    }
    i += length;
  }
  return absl::OkStatus();
}

// The value of `c` as a digit in `base` (10 or 16), or -1.
int DigitValue(char c, uint32_t base) {
  if (c >= '0' && c <= '9') return c - '0';
  if (base == 16 && c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (base == 16 && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// XML 1.0 §2.2 Char.
bool IsXmlChar(uint32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsAsciiLetter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// TinyXML's IsAlpha / IsAlphaNum in UTF-8 mode take every byte ≥ 127 as a
// letter (part of a multi-byte character).
bool IsNameStart(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  return c >= 127 || IsAsciiLetter(c) || c == '_';
}
bool IsNameChar(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  return IsNameStart(ch) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':';
}
bool StartsWithNoCase(absl::string_view text, size_t at, absl::string_view prefix) {
  if (text.size() - at < prefix.size()) return false;
  for (size_t k = 0; k < prefix.size(); ++k) {
    char c = text[at + k];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[k]) return false;
  }
  return true;
}

class Scanner {
 public:
  Scanner(absl::string_view text, int max_depth) : text_(text), max_depth_(max_depth) {}

  absl::StatusOr<XmlCounts> Run() {
    while (true) {
      const size_t lt = text_.find('<', pos_);  // text runs to the next '<'
      absl::Status s = CheckCharacterReferences(pos_, std::min(lt, text_.size()));
      if (!s.ok()) return s;
      if (lt == absl::string_view::npos) break;
      pos_ = lt;
      s = Markup();
      if (!s.ok()) return s;
    }
    if (!open_.empty()) {
      return Error(open_.back().first - 1,
                   absl::StrCat("element <", Name(open_.back()), "> is not closed"));
    }
    return counts_;
  }

 private:
  using Span = std::pair<size_t, size_t>;  // offset, length

  absl::string_view Name(const Span& span) const { return text_.substr(span.first, span.second); }

  // "malformed or truncated XML at line L, column C: what" for offset `at`.
  absl::Status Error(size_t at, absl::string_view what) const {
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < at && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return ParseError(absl::StrFormat("malformed or truncated XML at line %d, column %d: %s", line,
                                      at - line_start + 1, what));
  }

  bool At(absl::string_view s) const { return text_.substr(pos_, s.size()) == s; }

  // XML 1.0 §4.1 CharRef in text_[begin, end): "&#" digits ";" or "&#x" hex
  // digits ";", naming a character §2.2 allows. TinyXML looks for the ';'
  // wherever it comes and reads the digits back from it, so a malformed
  // reference would swallow the markup up to the next "#digits;" unseen.
  absl::Status CheckCharacterReferences(size_t begin, size_t end) const {
    for (size_t at = text_.find("&#", begin); at < end; at = text_.find("&#", at + 2)) {
      size_t i = at + 2;
      const bool hex = i < end && text_[i] == 'x';
      const uint32_t base = hex ? 16 : 10;
      if (hex) ++i;
      const size_t digits = i;
      uint32_t code = 0;
      for (int digit; i < end && (digit = DigitValue(text_[i], base)) >= 0; ++i) {
        code = std::min<uint32_t>(code * base + static_cast<uint32_t>(digit), 0x110000);
      }
      if (i == digits || i >= end || text_[i] != ';') {
        return Error(at, hex ? "malformed character reference: expected &#x, hex digits, ';'"
                             : "malformed character reference: expected &#, digits, ';'");
      }
      if (!IsXmlChar(code)) {
        return Error(at, absl::StrFormat("character reference to %s, not an XML character",
                                         code >= 0x110000 ? std::string("beyond U+10FFFF")
                                                          : absl::StrFormat("U+%04X", code)));
      }
    }
    return absl::OkStatus();
  }

  // Moves past `terminator` (searched from pos_ + skip), or fails naming `what`.
  absl::Status SkipPast(size_t skip, absl::string_view terminator, absl::string_view what) {
    const size_t end = text_.find(terminator, pos_ + skip);
    if (end == absl::string_view::npos) {
      return Error(pos_, absl::StrCat(what, " without its closing '", terminator, "'"));
    }
    pos_ = end + terminator.size();
    return absl::OkStatus();
  }

  // One construct starting at the '<' at pos_.
  absl::Status Markup() {
    if (At("<!--")) return SkipPast(4, "-->", "comment");
    if (At("<![CDATA[")) return SkipPast(9, "]]>", "CDATA section");
    if (At("<!")) return SkipPast(2, ">", "'<!' declaration");
    if (At("<?")) return Instruction();
    if (At("</")) return EndTag();
    if (pos_ + 1 < text_.size() && IsNameStart(text_[pos_ + 1])) return StartTag();
    return Error(pos_, "'<' not followed by an element name");
  }

  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }

  // A name at pos_ (TinyXML's ReadName); empty when there is none.
  Span ReadName() {
    const size_t start = pos_;
    if (pos_ < text_.size() && IsNameStart(text_[pos_])) {
      while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
    }
    return {start, pos_ - start};
  }

  // name S? '=' S? quoted value; `strict_value` also bars spaces and the other
  // quote from the value (TinyXML reads an <?xml …?> declaration's unknown
  // attributes word by word).
  absl::Status Attribute(bool strict_value) {
    const size_t start = pos_;
    if (ReadName().second == 0) return Error(start, "expected an attribute name");
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '=') {
      return Error(pos_, "expected '=' after an attribute name");
    }
    ++pos_;
    SkipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) {
      return Error(pos_, "expected a quoted attribute value");
    }
    const char quote = text_[pos_];
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == absl::string_view::npos) return Error(pos_, "attribute value without closing quote");
    const absl::string_view value = text_.substr(pos_ + 1, end - pos_ - 1);
    if (value.find('<') != absl::string_view::npos) {
      return Error(pos_, "'<' in an attribute value");
    }
    if (absl::Status s = CheckCharacterReferences(pos_ + 1, end); !s.ok()) return s;
    if (strict_value && value.find_first_of(" \t\r\n\"'>") != absl::string_view::npos) {
      return Error(pos_, "space, quote or '>' in an <?xml?> declaration's value");
    }
    pos_ = end + 1;
    return absl::OkStatus();
  }

  // <?target …?>. TinyXML reads "<?xml…" (any case) as a declaration whose
  // attributes may hold '>' and all other "<?" as unknown up to the first '>'.
  absl::Status Instruction() {
    const size_t start = pos_;
    if (!StartsWithNoCase(text_, pos_, "<?xml")) {
      const size_t end = text_.find("?>", pos_ + 2);
      if (end == absl::string_view::npos) {
        return Error(start, "processing instruction without its closing '?>'");
      }
      if (text_.substr(pos_, end - pos_).find('>') != absl::string_view::npos) {
        return Error(start, "'>' inside a processing instruction");
      }
      pos_ = end + 2;
      return absl::OkStatus();
    }
    pos_ += 2;
    ReadName();  // xml…
    while (true) {
      const size_t before = pos_;
      SkipSpace();
      if (At("?>")) {
        pos_ += 2;
        return absl::OkStatus();
      }
      if (pos_ >= text_.size()) return Error(start, "<?xml declaration without its closing '?>'");
      if (pos_ == before) return Error(pos_, "expected a space in the <?xml declaration");
      absl::Status s = Attribute(/*strict_value=*/true);
      if (!s.ok()) return s;
    }
  }

  absl::Status EndTag() {
    if (open_.empty()) return Error(pos_, "end tag without a start tag");
    const absl::string_view name = Name(open_.back());
    // TinyXML accepts exactly "</name>".
    if (text_.substr(pos_ + 2, name.size()) != name ||
        text_.substr(pos_ + 2 + name.size(), 1) != ">") {
      return Error(pos_, absl::StrCat("expected </", name, ">"));
    }
    pos_ += 2 + name.size() + 1;
    open_.pop_back();
    return absl::OkStatus();
  }

  absl::Status StartTag() {
    const size_t start = pos_;
    ++pos_;
    const Span name = ReadName();
    const int depth = static_cast<int>(open_.size()) + 1;
    if (depth > max_depth_) {
      return LimitError(
          absl::StrFormat("URDF nests XML elements %d deep (at line %d), at most %d (the server's "
                          "--max-xml-depth)",
                          depth, LineOf(start), max_depth_));
    }
    ++counts_.elements;
    if (depth > counts_.max_depth) counts_.max_depth = depth;
    if (depth == 2) {
      if (Name(name) == "link") ++counts_.links;
      if (Name(name) == "joint") ++counts_.joints;
    }
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size()) return Error(start, "tag without its closing '>'");
      if (At("/>")) {
        pos_ += 2;
        return absl::OkStatus();
      }
      if (At(">")) {
        ++pos_;
        open_.push_back(name);
        return absl::OkStatus();
      }
      absl::Status s = Attribute(/*strict_value=*/false);
      if (!s.ok()) return s;
    }
  }

  int LineOf(size_t at) const {
    int line = 1;
    for (size_t i = 0; i < at && i < text_.size(); ++i) line += text_[i] == '\n' ? 1 : 0;
    return line;
  }

  const absl::string_view text_;
  const int max_depth_;
  size_t pos_ = 0;
  std::vector<Span> open_;  // names of the open elements, at most max_depth_
  XmlCounts counts_;
};

}  // namespace

absl::StatusOr<XmlCounts> ScanXml(std::string_view std_text, int max_depth) {
  const absl::string_view text(std_text.data(), std_text.size());
  if (absl::Status s = CheckIsText(text); !s.ok()) return s;
  return Scanner(text, max_depth).Run();
}

std::string ReplaceInvalidUtf8(std::string_view std_text) {
  const absl::string_view text(std_text.data(), std_text.size());
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8Length(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text.data() + i, length);
      i += length;
    }
  }
  return out;
}

absl::StatusOr<std::string> CheckUrdfText(std::string_view given, const UrdfLimits& limits) {
  if (static_cast<int64_t>(given.size()) > limits.max_bytes) {
    return LimitError(absl::StrCat("URDF is ", given.size(), " bytes, at most ", limits.max_bytes,
                                   " (the server's --max-urdf-bytes)"));
  }
  std::string text = ReplaceInvalidUtf8(given);
  const absl::StatusOr<XmlCounts> counts = ScanXml(text, limits.max_depth);
  if (!counts.ok()) return counts.status();
  if (counts->elements > limits.max_elements) {
    return LimitError(absl::StrCat("URDF has ", counts->elements, " XML elements, at most ",
                                   limits.max_elements, " (the server's --max-xml-elements)"));
  }
  if (counts->links > limits.max_links) {
    return LimitError(absl::StrCat("URDF has ", counts->links, " links, at most ", limits.max_links,
                                   " (the server's --max-links)"));
  }
  if (counts->joints > limits.max_joints) {
    return LimitError(absl::StrCat("URDF has ", counts->joints, " joints, at most ",
                                   limits.max_joints, " (the server's --max-joints)"));
  }
  return text;
}

}  // namespace moreau::model_internal
