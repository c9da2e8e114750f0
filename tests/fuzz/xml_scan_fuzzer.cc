// The scan that bounds a URDF's XML before any parser sees it
// (engine/model/xml_scan.h), held against the parser it protects: for every
// text the scan accepts, the tree TinyXML builds is no deeper and has no more
// elements than the scan measured. A violation would let text the limits
// allow drive TinyXML's recursion deeper than they say.
#include <tinyxml.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/xml_scan.h"

namespace {

constexpr int kMaxDepth = 16;

// Element depth and count of TinyXML's tree, walked without recursion.
std::pair<int, int64_t> Measure(const TiXmlNode& document) {
  int max_depth = 0;
  int64_t elements = 0;
  std::vector<std::pair<const TiXmlNode*, int>> stack = {{&document, 0}};
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    for (const TiXmlNode* child = node->FirstChild(); child != nullptr;
         child = child->NextSibling()) {
      if (child->ToElement() == nullptr) continue;
      ++elements;
      if (depth + 1 > max_depth) max_depth = depth + 1;
      stack.emplace_back(child, depth + 1);
    }
  }
  return {max_depth, elements};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto counts = moreau::model_internal::ScanXml(text, kMaxDepth);
  if (!counts.ok()) return 0;
  TiXmlDocument document;
  document.Parse(text.c_str(), nullptr, TIXML_ENCODING_UTF8);
  const auto [depth, elements] = Measure(document);
  if (depth > counts->max_depth || elements > counts->elements) std::abort();
  return 0;
}
