// Robot description files and meshes compiled into moreau_model (generated
// at build time by cmake/embed_text.cmake from robots/ and by
// cmake/embed_bytes.cmake from models/).
#ifndef MOREAU_ENGINE_MODEL_EMBEDDED_H_
#define MOREAU_ENGINE_MODEL_EMBEDDED_H_

#include <string_view>

namespace moreau::embedded {

// robots/mini_cheetah.urdf (bullet3, zlib licence: robots/LICENSE.bullet3.txt).
std::string_view MiniCheetahUrdf();
// robots/biped.urdf (written for Moreau: a HOAP-1-like lower body, box feet).
std::string_view BipedUrdf();
// robots/ur10.urdf (example-robot-data, BSD-3-Clause:
// robots/LICENSE.example-robot-data.txt).
std::string_view Ur10Urdf();

// The ur10's collision meshes, binary STL, from
// models/ur10/meshes/ur10/collision/ (cmake/embed_bytes.cmake; same licence).
std::string_view Ur10BaseStl();
std::string_view Ur10ShoulderStl();
std::string_view Ur10UpperarmStl();
std::string_view Ur10ForearmStl();
std::string_view Ur10Wrist1Stl();
std::string_view Ur10Wrist2Stl();
std::string_view Ur10Wrist3Stl();

}  // namespace moreau::embedded

#endif  // MOREAU_ENGINE_MODEL_EMBEDDED_H_
