// Command lines for absl flags, which are spelled with underscores: lets a
// binary accept --metrics-port as well as --metrics_port.
#ifndef MOREAU_ENGINE_UTIL_DASHED_ARGS_H_
#define MOREAU_ENGINE_UTIL_DASHED_ARGS_H_

#include <algorithm>
#include <string>
#include <vector>

namespace moreau {

// argv with every dash in a "--name" (up to any '=') made an underscore. The
// returned pointers point into `storage`, which must outlive them.
inline std::vector<char*> DashesToUnderscores(int argc, char** argv,
                                              std::vector<std::string>& storage) {
  storage.assign(argv, argv + argc);
  for (std::string& arg : storage) {
    if (arg.rfind("--", 0) != 0) continue;
    const size_t end = std::min(arg.find('='), arg.size());
    std::replace(arg.begin() + 2, arg.begin() + static_cast<std::ptrdiff_t>(end), '-', '_');
  }
  std::vector<char*> out;
  for (std::string& arg : storage) out.push_back(arg.data());
  return out;
}

}  // namespace moreau

#endif  // MOREAU_ENGINE_UTIL_DASHED_ARGS_H_
