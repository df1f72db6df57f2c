// Progress of a long job (calibration, search, autotuning, sample collection): on a terminal
// one line updated in place, elsewhere (a CI log, a pipe) plain lines, a few per minute. Each
// line says what is done, the time elapsed and the time left, estimated from the share done
// so far (a budgeted job's share is its time or node budget's).
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <string>

namespace candor::support {

// "[label] what  42%  1:05 elapsed, about 1:30 left": `fraction` in [0, 1] (negative: not
// known, no share or time left shown; no time left either in the first second, whose rate
// says little); times as m:ss, h:mm:ss past an hour.
std::string progress_text(const std::string& label, const std::string& what, double fraction, double elapsed_s);

// Seconds as m:ss or h:mm:ss.
std::string clock_text(double seconds);

class ProgressLine {
 public:
  enum class Mode {
    Automatic,  // Terminal when the stream is standard error on a terminal, else Plain
    Terminal,   // one line, rewritten in place (at most every quarter second)
    Plain,      // a line at most every `plain_interval_s` (counted from the start), and the last
    Off,
  };
  using Clock = std::chrono::steady_clock;

  ProgressLine(std::string label, std::ostream& out, Mode mode = Mode::Automatic, double plain_interval_s = 10,
               std::function<Clock::time_point()> now = Clock::now);
  ~ProgressLine();  // ends a terminal line with a newline
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Reports the job's state; shown now or dropped, as the mode's rate allows.
  void update(double fraction, const std::string& what);
  // The last state, always shown (a plain line, or the terminal line finished).
  void finish(const std::string& what);

  double elapsed_seconds() const;
  Mode mode() const { return mode_; }

 private:
  void show(const std::string& text);

  std::string label_;
  std::ostream& out_;
  Mode mode_;
  double interval_s_;
  std::function<Clock::time_point()> now_;
  Clock::time_point start_;
  Clock::time_point last_shown_;
  bool open_line_ = false;
  size_t last_width_ = 0;
};

}  // namespace candor::support
