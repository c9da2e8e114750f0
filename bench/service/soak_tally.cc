#include "bench/service/soak_tally.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace moreau::bench::soak {

void Tally::Unexpected(absl::string_view rpc, absl::string_view what, absl::string_view message) {
  ++unexpected_;
  std::fprintf(out_, "U %s %s -: %s\n", std::string(rpc).c_str(), std::string(what).c_str(),
               std::string(message).c_str());
  std::fflush(out_);
}

bool Tally::Record(absl::string_view rpc, absl::string_view what, const absl::Status& got,
                   std::initializer_list<absl::StatusCode> allowed) {
  ++counts_[{std::string(rpc), static_cast<int>(got.code())}];
  if (std::find(allowed.begin(), allowed.end(), got.code()) != allowed.end()) return true;
  ++unexpected_;
  std::string message(got.message().substr(0, 300));
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::fprintf(out_, "U %s %s %s: %s\n", std::string(rpc).c_str(), std::string(what).c_str(),
               CodeName(static_cast<int>(got.code())).c_str(), message.c_str());
  std::fflush(out_);
  return false;
}

void Tally::Flush() {
  std::string line = "T";
  for (const auto& [key, n] : counts_)
    absl::StrAppend(&line, " ", key.first, ":", key.second, "=", n);
  std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
}

bool ParseSnapshot(absl::string_view body, Counts& counts) {
  Counts parsed;
  for (absl::string_view item : absl::StrSplit(body, ' ', absl::SkipEmpty())) {
    const size_t colon = item.rfind(':');
    const size_t equals = item.rfind('=');
    int code = 0;
    long n = 0;
    if (colon == absl::string_view::npos || equals == absl::string_view::npos || equals < colon ||
        !absl::SimpleAtoi(item.substr(colon + 1, equals - colon - 1), &code) ||
        !absl::SimpleAtoi(item.substr(equals + 1), &n)) {
      return false;
    }
    parsed[{std::string(item.substr(0, colon)), code}] = n;
  }
  counts = std::move(parsed);
  return true;
}

std::string CodeName(int code) {
  // gRPC's status codes are absl::StatusCode's, 0–16.
  std::string name = absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
  return name.empty() ? absl::StrCat("CODE_", code) : name;
}

}  // namespace moreau::bench::soak
