// Upper bounds on the size of a URDF, so that hostile text cannot exhaust the
// stack, memory or time of the process that loads it. Each is checked before
// the work it bounds: the byte count first, then one cheap non-recursive scan
// of the text (xml_scan.h) bounds the element nesting (TinyXML's parser,
// printer and destructor recurse once per level), the element count and the
// number of links and joints before any XML parser sees the text; the contact
// points are counted once the model is built, before anything is sized by
// them (a simulation's contact buffers grow with their square).
#ifndef MOREAU_ENGINE_MODEL_URDF_LIMITS_H_
#define MOREAU_ENGINE_MODEL_URDF_LIMITS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace moreau {

// Defaults fit every real robot description by a wide margin (the largest in
// common use have a few hundred links and a few MB of text). Each field is
// set in moreaud by the flag named beside it, which limit errors name.
struct UrdfLimits {
  int64_t max_bytes = int64_t{8} << 20;  // --max-urdf-bytes: the text's length
  int max_depth = 64;                    // --max-xml-depth: element nesting (<robot> is 1)
  int64_t max_elements = 100000;         // --max-xml-elements: elements in all
  int max_links = 1000;                  // --max-links: <link> children of <robot>
  int max_joints = 1000;                 // --max-joints: <joint> children of <robot>
  int max_contact_points = 256;          // --max-contact-points: of the built model
};

// An InvalidArgument error for an exceeded limit, marked so that callers can
// tell "too large" from "malformed" (IsLimitError). `message` names the limit,
// the value and the flag, e.g. "URDF has 2000 links, at most 1000 (the
// server's --max-links)".
absl::Status LimitError(absl::string_view message);
bool IsLimitError(const absl::Status& status);

}  // namespace moreau

#endif  // MOREAU_ENGINE_MODEL_URDF_LIMITS_H_
