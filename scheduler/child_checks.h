// Checks candidates in order, in forked children, until one passes: a candidate that crashes
// or hangs the check costs its own place in the list, never the caller. Used where the
// objects to check exist only in this process (the plugin verifying schedules of a
// generator's pipeline).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace candor::scheduler {

struct ChildChecks {
  std::optional<size_t> passed;       // the first candidate that passed
  std::vector<std::string> failures;  // why each candidate before it failed, in order
  std::string unchecked;              // why nothing could be checked (prepare failed)
};

// In a child: `prepare()` once (e.g. computing a reference), then `check(i)` for candidates
// from the first not yet tried, stopping at the first that returns "" (passed); a non-empty
// string, or an exception, is the candidate's failure. A child killed by a signal, or silent
// for `check_timeout_seconds`, fails the candidate it was checking, and a new child goes on
// with the next.
ChildChecks first_passing_in_child(size_t count, const std::function<void()>& prepare,
                                   const std::function<std::string(size_t)>& check,
                                   double check_timeout_seconds);

}  // namespace candor::scheduler
