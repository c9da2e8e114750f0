// Status propagation macros. Abseil 20220623 has no ABSL_RETURN_IF_ERROR, so
// Moreau defines its own, once, here.
#ifndef MOREAU_ENGINE_UTIL_STATUS_MACROS_H_
#define MOREAU_ENGINE_UTIL_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns from the enclosing function when `expr` (an absl::Status) is not OK.
#define MOREAU_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::absl::Status moreau_status_ = (expr);          \
    if (!moreau_status_.ok()) return moreau_status_; \
  } while (false)

#define MOREAU_STATUS_CONCAT_INNER_(a, b) a##b
#define MOREAU_STATUS_CONCAT_(a, b) MOREAU_STATUS_CONCAT_INNER_(a, b)

// `lhs = *expr` when `expr` (an absl::StatusOr<T>) is OK, else returns its status.
#define MOREAU_ASSIGN_OR_RETURN(lhs, expr) \
  MOREAU_ASSIGN_OR_RETURN_IMPL_(MOREAU_STATUS_CONCAT_(moreau_statusor_, __LINE__), lhs, expr)
#define MOREAU_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                  \
  if (!statusor.ok()) return statusor.status();            \
  lhs = std::move(*statusor)

#endif  // MOREAU_ENGINE_UTIL_STATUS_MACROS_H_
