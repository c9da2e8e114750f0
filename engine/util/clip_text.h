// Quoting a client's or a document's text in a message without the message
// growing with it.
#ifndef MOREAU_ENGINE_UTIL_CLIP_TEXT_H_
#define MOREAU_ENGINE_UTIL_CLIP_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace moreau {

// `text` whole when it has at most `max` bytes; else its first bytes up to
// `max`, cut at a UTF-8 character boundary, then "…".
inline std::string ClipText(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t end = max;
  // Back off continuation bytes (10xxxxxx) to the start of a character.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "…";
}

}  // namespace moreau

#endif  // MOREAU_ENGINE_UTIL_CLIP_TEXT_H_
