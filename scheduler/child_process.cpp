#include "child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <stdexcept>

#include "halide_bridge/timing_lock.h"

extern char** environ;

namespace candor::scheduler {

std::string one_line(std::string message) {
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';
  return message;
}

namespace {

// A forked child whose standard output is on a pipe.
struct Forked {
  pid_t pid = -1;
  int fd = -1;
  std::chrono::steady_clock::time_point start;
};

// Forks a child that runs `in_child` with its standard output on a pipe (if in_child
// returns, as an exec that failed does, the child exits with 127).
Forked fork_child(const std::function<void()>& in_child) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("cannot create a pipe for a child process");
  Forked forked;
  forked.start = std::chrono::steady_clock::now();
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
    in_child();
    _exit(127);
  }
  close(pipe_fds[1]);
  forked.pid = pid;
  forked.fd = pipe_fds[0];
  return forked;
}

// Reads a forked child's pipe under the limits of run_child (counted from its fork) until it
// ends or is killed, and reaps it.
ChildResult collect(const Forked& forked, double timeout_seconds, double line_timeout_seconds) {
  const pid_t pid = forked.pid;
  const int fd = forked.fd;
  const auto start = forked.start;
  ChildResult result;
  char buffer[4096];
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // The limits count the child's own time: not the stretches between a clock-stop line and
  // the next clock-start line (waits for the timing lock).
  bool paused = false;
  double paused_at = 0, paused_total = 0;
  auto charged = [&] { return (paused ? paused_at : elapsed()) - paused_total; };
  std::string pending;    // the line being received
  double last_line = 0;   // charged time when the last complete line arrived
  for (;;) {
    const double now = charged();
    const double left = paused ? std::numeric_limits<double>::infinity()
                               : std::min(timeout_seconds - now, line_timeout_seconds - (now - last_line));
    if (left <= 0) {
      result.timed_out = true;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      break;
    }
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min(left, 0.2) * 1000) + 1);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n <= 0) break;
    pending.append(buffer, static_cast<size_t>(n));
    for (size_t end; (end = pending.find('\n')) != std::string::npos; pending.erase(0, end + 1)) {
      const std::string line = pending.substr(0, end);
      if (line == halide_bridge::kClockStopLine) {
        if (!paused) paused_at = elapsed();
        paused = true;
      } else if (line == halide_bridge::kClockStartLine) {
        if (paused) paused_total += elapsed() - paused_at;
        paused = false;
      } else {
        result.output += line + "\n";
      }
      last_line = charged();
    }
  }
  result.output += pending;  // a line cut short by the end or the kill
  close(fd);
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

ChildResult run_forked(const std::function<void()>& in_child, double timeout_seconds, double line_timeout_seconds) {
  return collect(fork_child(in_child), timeout_seconds, line_timeout_seconds);
}

// The body of a child made by run_in_child or BackgroundChild.
void run_body(const std::function<int()>& body) {
  int status = 1;
  try {
    status = body();
  } catch (const std::exception& e) {
    std::cerr << "child process: " << e.what() << "\n";
  }
  std::cout.flush();
  std::fflush(stdout);
  _exit(status);
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv, double timeout_seconds, double line_timeout_seconds) {
  // The child's environment, built before fork (the child may only exec): ours, plus the
  // variable that asks a measuring child to announce waits for the timing lock.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  env_strings.push_back(std::string(halide_bridge::kClockLinesEnv) + "=1");
  std::vector<char*> envp;
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return run_forked([&] { execve(args[0], args.data(), envp.data()); }, timeout_seconds, line_timeout_seconds);
}

ChildResult run_in_child(const std::function<int()>& body, double timeout_seconds, double line_timeout_seconds) {
  return run_forked([&] { run_body(body); }, timeout_seconds, line_timeout_seconds);
}

struct BackgroundChild::State {
  Forked forked;
  bool collected = false;
};

BackgroundChild::BackgroundChild(const std::function<int()>& body) : state_(std::make_unique<State>()) {
  state_->forked = fork_child([&] { run_body(body); });
}

BackgroundChild::~BackgroundChild() {
  if (state_->collected) return;
  kill(-state_->forked.pid, SIGKILL);
  kill(state_->forked.pid, SIGKILL);
  collect(state_->forked, 0, std::numeric_limits<double>::infinity());
}

ChildResult BackgroundChild::wait(double timeout_seconds) {
  if (state_->collected) throw std::logic_error("BackgroundChild::wait called twice");
  state_->collected = true;
  const double since_fork =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - state_->forked.start).count();
  return collect(state_->forked, since_fork + timeout_seconds, std::numeric_limits<double>::infinity());
}

}  // namespace candor::scheduler
