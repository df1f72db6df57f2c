// A machine-wide lock that keeps timed runs apart from other heavy work on the same cores.
// Timing holds it exclusively; compiling (and anything else that keeps a core busy) holds it
// shared. Processes that name the same file, such as the ranks of one sample collection on
// one machine, then compile side by side but never time while another compiles or times.
// Outside work can join in: `flock -s /tmp/candor_timing.lock make` holds timings back until
// the build is done. The kernel drops the lock when its holder dies, so a killed measuring
// child never leaves it held.
#pragma once

#include <string>

namespace candor::halide_bridge {

class TimingLock {
 public:
  enum class Mode { Shared, Exclusive };
  // Blocks until the lock is held (announcing a wait that blocks, see kClockLinesEnv). An
  // empty path is no lock. Throws BridgeError when the file cannot be opened or locked.
  TimingLock(const std::string& path, Mode mode);
  ~TimingLock();
  TimingLock(const TimingLock&) = delete;
  TimingLock& operator=(const TimingLock&) = delete;

 private:
  int fd_ = -1;
};

// Time spent waiting for the lock is the other work's, not the waiter's. A measuring process
// whose parent limits its time (scheduler::run_child sets kClockLinesEnv in the child's
// environment) prints kClockStopLine on its standard output before it blocks on the lock and
// kClockStartLine once it holds it, and the parent stops its clocks in between: a build
// holding the lock shared for minutes (`flock -s`) used to time out every measurement that
// waited to time.
inline constexpr const char* kClockLinesEnv = "CANDOR_CLOCK_LINES";
inline constexpr const char* kClockStopLine = "#candor-clock stop";
inline constexpr const char* kClockStartLine = "#candor-clock start";

// Where sample collection keeps its lock by default: one file per machine.
inline const char* default_timing_lock_path() { return "/tmp/candor_timing.lock"; }

// A --timing-lock argument as a lock path: "none" (no lock) is the empty path.
inline std::string timing_lock_path(const std::string& option) { return option == "none" ? "" : option; }

}  // namespace candor::halide_bridge
