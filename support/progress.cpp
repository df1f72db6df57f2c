#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace candor::support {

std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  if (s >= 3600) std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

std::string progress_text(const std::string& label, const std::string& what, double fraction, double elapsed_s) {
  std::string text = "[" + label + "] " + what;
  if (fraction < 0) return text + "  " + clock_text(elapsed_s) + " elapsed";
  fraction = std::min(1.0, fraction);
  char share[16];
  std::snprintf(share, sizeof share, "%.0f%%", std::floor(fraction * 100));
  text += std::string("  ") + share + "  " + clock_text(elapsed_s) + " elapsed";
  // The rate of the first second says little of the rest.
  if (fraction > 0 && fraction < 1 && elapsed_s >= 1) text += ", about " + clock_text(elapsed_s * (1 - fraction) / fraction) + " left";
  return text;
}

ProgressLine::ProgressLine(std::string label, std::ostream& out, Mode mode, double plain_interval_s,
                           std::function<Clock::time_point()> now)
    : label_(std::move(label)), out_(out), mode_(mode), interval_s_(plain_interval_s), now_(std::move(now)),
      start_(now_()), last_shown_(start_) {
  if (mode_ == Mode::Automatic) mode_ = &out_ == &std::cerr && isatty(STDERR_FILENO) ? Mode::Terminal : Mode::Plain;
}

ProgressLine::~ProgressLine() {
  if (open_line_) out_ << "\n" << std::flush;
}

double ProgressLine::elapsed_seconds() const { return std::chrono::duration<double>(now_() - start_).count(); }

void ProgressLine::update(double fraction, const std::string& what) {
  if (mode_ == Mode::Off) return;
  const Clock::time_point t = now_();
  const double since = std::chrono::duration<double>(t - last_shown_).count();
  if (since < (mode_ == Mode::Terminal ? 0.25 : interval_s_)) return;
  last_shown_ = t;
  show(progress_text(label_, what, fraction, elapsed_seconds()));
}

void ProgressLine::finish(const std::string& what) {
  if (mode_ == Mode::Off) return;
  show(progress_text(label_, what, -1, elapsed_seconds()));
  if (open_line_) out_ << "\n" << std::flush;
  open_line_ = false;
}

void ProgressLine::show(const std::string& text) {
  if (mode_ == Mode::Terminal) {
    // Spaces cover what is left of a longer line before it.
    out_ << "\r" << text << std::string(last_width_ > text.size() ? last_width_ - text.size() : 0, ' ') << std::flush;
    last_width_ = text.size();
    open_line_ = true;
  } else {
    out_ << text << std::endl;
  }
}

}  // namespace candor::support
