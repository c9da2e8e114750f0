// Robot description files compiled into moreau_model (generated at build time
// by cmake/embed_text.cmake from robots/).
#ifndef MOREAU_ENGINE_MODEL_EMBEDDED_H_
#define MOREAU_ENGINE_MODEL_EMBEDDED_H_

#include <string_view>

namespace moreau::embedded {

// robots/mini_cheetah.urdf (bullet3, zlib licence: robots/LICENSE.bullet3.txt).
std::string_view MiniCheetahUrdf();
// robots/biped.urdf (written for Moreau: a HOAP-1-like lower body, box feet).
std::string_view BipedUrdf();

}  // namespace moreau::embedded

#endif  // MOREAU_ENGINE_MODEL_EMBEDDED_H_
