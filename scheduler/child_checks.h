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
  // Each candidate checked, in order: "" where it passed, else why it failed.
  std::vector<std::string> verdicts;
  std::string unchecked;     // why nothing could be checked (prepare failed)
  bool out_of_time = false;  // the total limit stopped the checks before a verdict
  // The first candidate that passed.
  std::optional<size_t> passed() const;
};

// In a child: `prepare()` once (e.g. computing a reference), then `check(i)` for candidates
// from the first not yet tried, stopping at the first that returns "" (passed) past the first
// `check_all` (those are all checked); a non-empty string, or an exception, is the
// candidate's failure. A child killed by a signal, or silent
// for `check_timeout_seconds`, fails the candidate it was checking, and a new child goes on
// with the next. All of it stops after `total_seconds`: the child then running is killed,
// and `out_of_time` is set unless a candidate passed.
ChildChecks first_passing_in_child(size_t count, const std::function<void()>& prepare,
                                   const std::function<std::string(size_t)>& check,
                                   double check_timeout_seconds,
                                   double total_seconds = std::numeric_limits<double>::infinity(),
                                   size_t check_all = 0);

}  // namespace candor::scheduler
