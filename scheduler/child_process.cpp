#include "child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <stdexcept>

namespace candor::scheduler {

ChildResult run_child(const std::vector<std::string>& argv, double timeout_seconds, double line_timeout_seconds) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("cannot create a pipe for a child process");
  const auto start = std::chrono::steady_clock::now();
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot fork a child process");
  if (pid == 0) {
    // Dies with its parent: an orphan would run on with no time limit (and a collection's
    // child holding the timing lock would stall the collection that resumes).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent died before the line above
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    setpgid(0, 0);  // its own group, so a timeout kills its helpers too
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  ChildResult result;
  char buffer[4096];
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  bool open = true;
  double last_line = 0;  // when the last complete line arrived
  while (open) {
    const double now = elapsed();
    const double left = std::min(timeout_seconds - now, line_timeout_seconds - (now - last_line));
    if (left <= 0) {
      result.timed_out = true;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      break;
    }
    pollfd p{pipe_fds[0], POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min(left, 0.2) * 1000) + 1);
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0) {
      ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
      if (n > 0) {
        result.output.append(buffer, static_cast<size_t>(n));
        if (std::find(buffer, buffer + n, '\n') != buffer + n) last_line = elapsed();
      } else {
        open = false;
      }
    }
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.seconds = elapsed();
  if (!result.timed_out) {
    if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
    else result.crashed = true;
  }
  return result;
}

}  // namespace candor::scheduler
