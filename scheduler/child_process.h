// Runs a command in a child process with a time limit and captures its standard output:
// a candidate that crashes or hangs while compiling or running costs one measurement, never
// the caller.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace candor::scheduler {

struct ChildResult {
  bool timed_out = false;
  bool crashed = false;  // killed by a signal other than our timeout
  int exit_status = -1;  // when it exited normally
  std::string output;    // its standard output
  double seconds = 0;
};

// A message as one line of a child's report: newlines would split it.
std::string one_line(std::string message);

// argv[0] is the executable's path. Standard error is passed through. The child is killed
// (timed_out) after `timeout_seconds` in all, or after `line_timeout_seconds` without
// finishing a line of output: a child that reports one result a line and hangs on one item
// then costs that item's limit, not the whole batch's. Neither limit runs while the child
// waits for the machine's timing lock: it says so with the clock lines of
// halide_bridge/timing_lock.h, which are not kept in `output`. `seconds` is wall time.
ChildResult run_child(const std::vector<std::string>& argv, double timeout_seconds,
                      double line_timeout_seconds = std::numeric_limits<double>::infinity());

// Runs `body` in a forked child under the same limits, its standard output captured; the
// child exits with body's return value (1 when it throws). For work that may crash on
// objects only this process has (a generator's pipeline). The child inherits no running
// threads: fork between jobs, not while helper threads hold locks.
ChildResult run_in_child(const std::function<int()>& body, double timeout_seconds,
                         double line_timeout_seconds = std::numeric_limits<double>::infinity());

// A child started now and collected later, so that the caller works meanwhile (the plugin
// searches while a child computes the reference outputs). Forked in the constructor, under
// run_in_child's terms; a child never waited for is killed by the destructor.
class BackgroundChild {
 public:
  explicit BackgroundChild(const std::function<int()>& body);
  ~BackgroundChild();
  BackgroundChild(const BackgroundChild&) = delete;
  BackgroundChild& operator=(const BackgroundChild&) = delete;
  // Waits for it to end, killing it after `timeout_seconds` from now. Call once.
  ChildResult wait(double timeout_seconds);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace candor::scheduler
