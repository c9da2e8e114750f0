// The shapes a viewer draws a URDF robot with: every <link>'s <visual>
// elements and the <material> colours they use, read from the document
// before PrepareUrdf strips them (urdfdom refuses some real-world visuals).
// A malformed visual never fails a load: it is skipped, or keeps its shape
// without a colour, with a warning naming the link, the visual and the
// problem.
//
//   <visual name="…">                          (name optional)
//     <origin xyz="x y z" rpy="r p y"/>        optional, in the link frame
//     <geometry>                               its first element:
//       <box size="x y z"/>                    full sides, each ≥ 0
//       <sphere radius="r"/>                   r ≥ 0
//       <cylinder radius="r" length="l"/>      along the shape's z, ≥ 0
//       <mesh filename="…" scale="sx sy sz"/>  scale optional, 1 1 1
//     </geometry>
//     <material name="…">                      optional
//       <color rgba="r g b a"/>                optional, each in [0, 1]
//     </material>
//   </visual>
//
// A visual's colour is its own material's <color>; else the colour of the
// material its name names: a <material> child of <robot> first, else the
// first visual's material of that name that has a <color> (xacro output
// gives a colour once and names it after). A name defined nowhere is a
// warning naming it; a material without colour (a texture) has none.
#ifndef MOREAU_ENGINE_MODEL_URDF_VISUALS_H_
#define MOREAU_ENGINE_MODEL_URDF_VISUALS_H_

#include <string>
#include <vector>

#include "engine/model/model.h"

class TiXmlElement;

namespace moreau::model_internal {

struct UrdfVisuals {
  // Document order; `link` names the link, the pose is in the link frame
  // (BuildModel moves it into the body frame) and `body` is unset (0).
  std::vector<VisualShape> shapes;
  std::vector<std::string> warnings;
};

// Reads the visuals of the <link> children of `robot` (the document's root).
UrdfVisuals ReadUrdfVisuals(const TiXmlElement& robot);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_URDF_VISUALS_H_
