// A minimal streaming JSON writer for the --json report (no dependency
// beyond the standard library). Numbers are written with 10 significant
// digits; non-finite numbers as null.
#ifndef MOREAU_BENCH_VS_MUJOCO_JSON_WRITER_H_
#define MOREAU_BENCH_VS_MUJOCO_JSON_WRITER_H_

#include <ostream>
#include <string_view>
#include <vector>

namespace moreau::vs_mujoco {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Number(double value);
  JsonWriter& Int(long long value);
  JsonWriter& Bool(bool value);
  JsonWriter& Numbers(const std::vector<double>& values);

 private:
  void Separate();  // a comma before the second and later members
  void Newline();
  void WriteString(std::string_view value);  // quoted and escaped

  std::ostream& out_;
  std::vector<bool> has_member_;  // per open container
  bool after_key_ = false;
};

}  // namespace moreau::vs_mujoco

#endif  // MOREAU_BENCH_VS_MUJOCO_JSON_WRITER_H_
