// One cheap pass over XML text, before any XML parser sees it: checks that it
// is text (UTF-8, RFC 3629; no control bytes but tab, LF and CR, XML 1.0
// §2.2) and that its markup tokenizes, and measures the tree a parser would
// build from it — nesting depth, element count, <link> and <joint> children
// of the root — without building anything. It runs in constant stack and in
// memory bounded by the depth limit.
//
// The tokenizer reads markup the way TinyXML 2.6 (which PrepareUrdf and
// urdfdom parse with) does — comments to "-->", CDATA to "]]>", other "<!"
// constructs to the first '>', an element name starting with a letter, '_' or
// a byte ≥ 127, end tags written exactly "</name>" — and is stricter where
// TinyXML would read on differently: attribute values must be quoted and hold
// no '<', an <?xml …?> declaration's values no space or quote, other "<?"
// instructions no '>' before "?>", and every construct must be terminated.
// So for every text it accepts, TinyXML's DOM is no deeper and no larger than
// what it measured (a fuzz target checks this).
#ifndef MOREAU_ENGINE_MODEL_XML_SCAN_H_
#define MOREAU_ENGINE_MODEL_XML_SCAN_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/model/urdf_limits.h"

namespace moreau::model_internal {

struct XmlCounts {
  int max_depth = 0;     // deepest element; a top-level element is at depth 1
  int64_t elements = 0;  // start and empty-element tags
  int64_t links = 0;     // <link> elements whose parent is a top-level element
  int64_t joints = 0;    // <joint> elements whose parent is a top-level element
};

// Scans `text`. Errors: InvalidArgument "URDF parse error: …" naming the
// offset or line and column, or a LimitError as soon as an element lies
// deeper than `max_depth` (the scan stops there).
absl::StatusOr<XmlCounts> ScanXml(std::string_view text, int max_depth);

// `text` with each byte that is not part of a well-formed UTF-8 sequence
// (RFC 3629) replaced by U+FFFD, so that a Latin-1 name or comment still
// reads as text and the scan and TinyXML see the same characters.
std::string ReplaceInvalidUtf8(std::string_view text);

// The URDF limits that the scan measures (all but max_contact_points), in
// order: bytes (of `text` as given), depth, elements, links, joints. Returns
// the text every parser then reads: `text` after ReplaceInvalidUtf8.
absl::StatusOr<std::string> CheckUrdfText(std::string_view text, const UrdfLimits& limits);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_XML_SCAN_H_
