#include "timing_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "error.h"

namespace candor::halide_bridge {

TimingLock::TimingLock(const std::string& path, Mode mode) {
  if (path.empty()) return;
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) throw BridgeError("cannot open the timing lock " + path + ": " + std::strerror(errno));
  const int operation = mode == Mode::Exclusive ? LOCK_EX : LOCK_SH;
  int status = flock(fd_, operation | LOCK_NB);
  if (status != 0 && (errno == EWOULDBLOCK || errno == EINTR)) {
    const bool announce = std::getenv(kClockLinesEnv) != nullptr;
    if (announce) std::cout << kClockStopLine << std::endl;
    do {
      status = flock(fd_, operation);
    } while (status != 0 && errno == EINTR);
    if (announce) std::cout << kClockStartLine << std::endl;
  }
  if (status != 0) {
    const std::string reason = std::strerror(errno);
    close(fd_);
    throw BridgeError("cannot lock the timing lock " + path + ": " + reason);
  }
}

TimingLock::~TimingLock() {
  if (fd_ >= 0) close(fd_);  // closing the only descriptor releases the lock
}

}  // namespace candor::halide_bridge
