// URDF texts sized to reach a loader limit (urdf_limits.h) cheaply: shared by
// the limit tests of the loader and of the service.
#ifndef MOREAU_TESTS_UNIT_MODEL_LIMIT_URDFS_H_
#define MOREAU_TESTS_UNIT_MODEL_LIMIT_URDFS_H_

#include <string>

namespace moreau::testing {

// A chain of `links` links joined by `links - 1` revolute joints; the last
// link carries `spheres` sphere collisions (its contact points).
std::string ChainUrdf(int links, int spheres = 1);

// A one-link robot whose link holds elements nested `depth` deep in all
// (<robot> and <link> included), which urdfdom ignores.
std::string NestedUrdf(int depth);

}  // namespace moreau::testing

#endif  // MOREAU_TESTS_UNIT_MODEL_LIMIT_URDFS_H_
