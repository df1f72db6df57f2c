// Checks candidates in order, in forked children, until one passes: a candidate that crashes
// or hangs the check costs its own place in the list, never the caller. Used where the
// objects to check exist only in this process (the plugin verifying schedules of a
// generator's pipeline).
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace candor::scheduler {

struct ChildChecks {
  std::optional<size_t> passed;       // the first candidate that passed
  std::vector<std::string> failures;  // why each candidate before it failed, in order
  std::string unchecked;              // why nothing could be checked (prepare failed)
  bool out_of_time = false;           // the total limit stopped the checks before a verdict
};

// In a child: `prepare()` once (e.g. computing a reference), then `check(i)` for candidates
// from the first not yet tried, stopping at the first that returns "" (passed); a non-empty
// string, or an exception, is the candidate's failure. A child killed by a signal, or silent
// for `check_timeout_seconds`, fails the candidate it was checking, and a new child goes on
// with the next. All of it stops after `total_seconds`: the child then running is killed,
// and `out_of_time` is set unless a candidate passed.
ChildChecks first_passing_in_child(size_t count, const std::function<void()>& prepare,
                                   const std::function<std::string(size_t)>& check,
                                   double check_timeout_seconds,
                                   double total_seconds = std::numeric_limits<double>::infinity());

}  // namespace candor::scheduler
