#include "engine/model/urdf_prepare.h"

#include <tinyxml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "engine/model/urdf_visuals.h"
#include "engine/model/xml_scan.h"

namespace moreau::model_internal {
namespace {

absl::Status ParseError(absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("URDF parse error: ", message));
}

std::vector<TiXmlElement*> Children(TiXmlElement* parent, const char* name) {
  std::vector<TiXmlElement*> children;
  for (TiXmlElement* e = parent->FirstChildElement(name); e != nullptr;
       e = e->NextSiblingElement(name)) {
    children.push_back(e);
  }
  return children;
}

std::string NameOf(const TiXmlElement* element) {
  const char* name = element->Attribute("name");
  return name != nullptr ? name : "";
}

void RemoveAll(TiXmlElement* parent, const char* name) {
  for (TiXmlElement* child : Children(parent, name)) parent->RemoveChild(child);
}

// Adds <link name="world"/> when a joint refers to an undeclared "world";
// returns whether it did.
bool AddImplicitWorld(TiXmlElement* robot, const std::set<std::string>& links) {
  if (links.count("world") > 0) return false;
  bool referenced = false;
  for (TiXmlElement* joint : Children(robot, "joint")) {
    for (const char* end : {"parent", "child"}) {
      const TiXmlElement* e = joint->FirstChildElement(end);
      const char* link = e != nullptr ? e->Attribute("link") : nullptr;
      if (link != nullptr && absl::string_view(link) == "world") {
        referenced = true;
      }
    }
  }
  if (!referenced) return false;
  TiXmlElement world("link");
  world.SetAttribute("name", "world");
  if (robot->FirstChild() != nullptr) {
    robot->InsertBeforeChild(robot->FirstChild(), world);
  } else {
    robot->InsertEndChild(world);
  }
  return true;
}

void CompleteLimits(TiXmlElement* joint) {
  TiXmlElement* limit = joint->FirstChildElement("limit");
  if (limit == nullptr) {
    const char* type = joint->Attribute("type");
    const absl::string_view t = type != nullptr ? type : "";
    if (t != "revolute" && t != "prismatic") return;
    limit = joint->InsertEndChild(TiXmlElement("limit"))->ToElement();
  }
  for (const char* attribute : {"effort", "velocity"}) {
    if (limit->Attribute(attribute) == nullptr) {
      limit->SetAttribute(attribute, "0");
    }
  }
}

std::string LinkOf(const TiXmlElement* joint, const char* end) {
  const TiXmlElement* e = joint->FirstChildElement(end);
  const char* link = e != nullptr ? e->Attribute("link") : nullptr;
  return link != nullptr ? link : "";
}

// Rejects links with two parent joints and kinematic loops with a clear
// message (urdfdom reports them as "two root links" or "no root link", and
// leaks the links of a loop, which hold shared pointers to each other).
absl::Status CheckTreeShape(TiXmlElement* robot) {
  struct Parent {
    std::string joint, link;
  };
  std::map<std::string, Parent> parent_of;  // child link → its parent
  for (TiXmlElement* joint : Children(robot, "joint")) {
    const std::string child = LinkOf(joint, "child");
    if (child.empty()) continue;  // urdfdom names the joint
    const auto [it, inserted] =
        parent_of.emplace(child, Parent{NameOf(joint), LinkOf(joint, "parent")});
    if (!inserted) {
      return ParseError(absl::StrCat("link '", child, "' is the child of two joints, '",
                                     it->second.joint, "' and '", NameOf(joint), "'"));
    }
  }
  // Walk up from every link, each link once. State 1: on the current path,
  // 2: known to reach a root.
  std::map<std::string, int> state;
  for (const auto& [start, unused] : parent_of) {
    std::vector<std::string> path;
    std::string link = start;
    while (state[link] == 0) {
      state[link] = 1;
      path.push_back(link);
      const auto parent = parent_of.find(link);
      if (parent == parent_of.end()) break;
      link = parent->second.link;
    }
    if (state[link] == 1 && parent_of.count(link) > 0) {
      const auto loop_start = std::find(path.begin(), path.end(), link);
      std::vector<std::string> loop(loop_start, path.end());
      std::reverse(loop.begin(), loop.end());
      loop.push_back(loop.front());
      return ParseError(absl::StrCat("kinematic loop: ", absl::StrJoin(loop, " -> ")));
    }
    for (const std::string& l : path) state[l] = 2;
  }
  return absl::OkStatus();
}

// The text of <name> (ROS) or the value attribute of <drake_name value=""/>
// under `parent`, as a finite number; `found` tells whether either is there.
absl::Status ReadTransmissionNumber(const TiXmlElement* parent, const char* name,
                                    const char* drake_name, const std::string& where, double& value,
                                    bool& found) {
  const TiXmlElement* ros = parent->FirstChildElement(name);
  const TiXmlElement* drake = parent->FirstChildElement(drake_name);
  if (ros == nullptr && drake == nullptr) return absl::OkStatus();
  if (ros != nullptr && drake != nullptr) {
    return ParseError(absl::StrCat(where, ": both <", name, "> and <", drake_name, ">"));
  }
  if (found) return ParseError(absl::StrCat(where, ": <", name, "> given twice"));
  found = true;
  const char* text = ros != nullptr ? ros->GetText() : drake->Attribute("value");
  const std::string word(absl::StripAsciiWhitespace(text != nullptr ? text : ""));
  if (!absl::SimpleAtod(word, &value) || !std::isfinite(value)) {
    return ParseError(absl::StrCat(where, ": <", ros != nullptr ? name : drake_name, "> '", word,
                                   "' is not a finite number"));
  }
  return absl::OkStatus();
}

// Reads every <transmission> (urdf_prepare.h, TransmissionSpec).
absl::Status ReadTransmissions(TiXmlElement* robot, PreparedUrdf& prepared) {
  const std::set<std::string> joints(prepared.joint_order.begin(), prepared.joint_order.end());
  std::map<std::string, std::string> transmission_of;  // joint → transmission
  for (TiXmlElement* t : Children(robot, "transmission")) {
    TransmissionSpec spec;
    spec.name = NameOf(t);
    std::string type;
    if (const TiXmlElement* type_element = t->FirstChildElement("type");
        type_element != nullptr && type_element->GetText() != nullptr) {
      type = type_element->GetText();
    } else if (t->Attribute("type") != nullptr) {
      type = t->Attribute("type");
    }
    type = std::string(absl::StripAsciiWhitespace(type));
    const std::vector<TiXmlElement*> joint_elements = Children(t, "joint");
    if (!type.empty() && !absl::EndsWith(type, "SimpleTransmission")) {
      prepared.warnings.push_back(absl::StrCat("transmission '", spec.name, "': type '", type,
                                               "' is not supported (only SimpleTransmission); "
                                               "its joints keep N = 1, I_rotor = 0"));
      continue;
    }
    if (joint_elements.size() != 1 || NameOf(joint_elements[0]).empty()) {
      return ParseError(
          absl::StrCat("transmission '", spec.name, "': expected one <joint name=\"…\">, got ",
                       joint_elements.size(), joint_elements.size() == 1 ? " without a name" : ""));
    }
    spec.joint = NameOf(joint_elements[0]);
    const std::string where =
        absl::StrCat("transmission '", spec.name, "' (joint '", spec.joint, "')");
    if (joints.count(spec.joint) == 0) {
      return ParseError(absl::StrCat(where, ": no joint named '", spec.joint, "'"));
    }
    const auto [it, inserted] = transmission_of.emplace(spec.joint, spec.name);
    if (!inserted) {
      return ParseError(absl::StrCat("joint '", spec.joint, "' has two transmissions, '",
                                     it->second, "' and '", spec.name, "'"));
    }
    // The reduction and rotor inertia: under <actuator> or, pre-Groovy,
    // directly under <transmission>.
    bool has_reduction = false;
    bool has_rotor = false;
    std::vector<const TiXmlElement*> holders = {t};
    const std::vector<TiXmlElement*> actuators = Children(t, "actuator");
    if (actuators.size() > 1) {
      return ParseError(absl::StrCat(where, ": ", actuators.size(),
                                     " <actuator> elements, SimpleTransmission has one"));
    }
    if (!actuators.empty()) holders.push_back(actuators[0]);
    for (const TiXmlElement* holder : holders) {
      if (absl::Status s = ReadTransmissionNumber(holder, "mechanicalReduction", "drake:gear_ratio",
                                                  where, spec.reduction, has_reduction);
          !s.ok()) {
        return s;
      }
      if (absl::Status s = ReadTransmissionNumber(holder, "rotorInertia", "drake:rotor_inertia",
                                                  where, spec.rotor_inertia, has_rotor);
          !s.ok()) {
        return s;
      }
    }
    if (!(spec.reduction > 0.0)) {
      return ParseError(
          absl::StrCat(where, ": mechanicalReduction must be > 0, got ", spec.reduction));
    }
    if (!(spec.rotor_inertia >= 0.0)) {
      return ParseError(
          absl::StrCat(where, ": rotorInertia must be ≥ 0 kg m², got ", spec.rotor_inertia));
    }
    prepared.transmissions.push_back(std::move(spec));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PreparedUrdf> PrepareUrdf(std::string_view urdf_xml, const UrdfLimits& limits) {
  // Before TinyXML, whose parser, printer and destructor recurse once per
  // nesting level: text that would nest deeper than the limit (or is not
  // text) never reaches them.
  absl::StatusOr<std::string> checked = CheckUrdfText(urdf_xml, limits);
  if (!checked.ok()) return checked.status();
  const std::string text = *std::move(checked);
  TiXmlDocument doc;
  doc.Parse(text.c_str(), nullptr, TIXML_ENCODING_UTF8);
  if (doc.Error() && doc.ErrorId() != TiXmlBase::TIXML_ERROR_DOCUMENT_EMPTY) {
    // TinyXML cannot tell a truncated document from a malformed one.
    if (doc.ErrorRow() <= 0) {
      return ParseError(absl::StrCat("malformed or truncated XML: ", doc.ErrorDesc()));
    }
    return ParseError(absl::StrFormat("malformed or truncated XML at line %d, column %d: %s",
                                      doc.ErrorRow(), doc.ErrorCol(), doc.ErrorDesc()));
  }
  TiXmlElement* robot = doc.RootElement();
  if (robot == nullptr) return ParseError("no XML element in the input");
  if (robot->ValueStr() != "robot") {
    return ParseError(
        absl::StrCat("the root element is <", robot->ValueStr(), ">, expected <robot>"));
  }

  PreparedUrdf prepared;
  UrdfVisuals visuals = ReadUrdfVisuals(*robot);
  prepared.visuals = std::move(visuals.shapes);
  prepared.warnings = std::move(visuals.warnings);
  std::set<std::string> links;
  for (TiXmlElement* link : Children(robot, "link")) {
    prepared.link_order.push_back(NameOf(link));
    links.insert(NameOf(link));
    RemoveAll(link, "visual");
  }
  RemoveAll(robot, "material");
  for (TiXmlElement* joint : Children(robot, "joint")) {
    prepared.joint_order.push_back(NameOf(joint));
    CompleteLimits(joint);
  }
  if (absl::Status s = CheckTreeShape(robot); !s.ok()) return s;
  if (absl::Status s = ReadTransmissions(robot, prepared); !s.ok()) return s;
  if (AddImplicitWorld(robot, links)) {
    prepared.link_order.insert(prepared.link_order.begin(), "world");
  }

  TiXmlPrinter printer;
  doc.Accept(&printer);
  prepared.xml = printer.Str();
  return prepared;
}

}  // namespace moreau::model_internal
