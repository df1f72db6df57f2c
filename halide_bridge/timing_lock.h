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
  // Blocks until the lock is held. An empty path is no lock. Throws BridgeError when the
  // file cannot be opened or locked.
  TimingLock(const std::string& path, Mode mode);
  ~TimingLock();
  TimingLock(const TimingLock&) = delete;
  TimingLock& operator=(const TimingLock&) = delete;

 private:
  int fd_ = -1;
};

// Where sample collection keeps its lock by default: one file per machine.
inline const char* default_timing_lock_path() { return "/tmp/candor_timing.lock"; }

}  // namespace candor::halide_bridge
