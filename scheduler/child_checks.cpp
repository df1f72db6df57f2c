#include "child_checks.h"

#include <chrono>
#include <iostream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "child_process.h"

namespace candor::scheduler {

std::optional<size_t> ChildChecks::passed() const {
  for (size_t i = 0; i < verdicts.size(); ++i)
    if (verdicts[i].empty()) return i;
  return std::nullopt;
}

ChildChecks first_passing_in_child(size_t count, const std::function<void()>& prepare,
                                   const std::function<std::string(size_t)>& check,
                                   double check_timeout_seconds, double total_seconds, size_t check_all) {
  ChildChecks result;
  const auto start = std::chrono::steady_clock::now();
  auto seconds_left = [&] {
    return total_seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  size_t next = 0;
  while (next < count) {
    if (seconds_left() <= 0) {
      result.out_of_time = true;
      return result;
    }
    const size_t first = next;
    const ChildResult child = run_in_child(
        [&] {
          try {
            prepare();
          } catch (const std::exception& e) {
            std::cout << "unchecked " << one_line(e.what()) << std::endl;
            return 0;
          }
          std::cout << "prepared" << std::endl;
          for (size_t i = first; i < count; ++i) {
            std::string failure;
            try {
              failure = check(i);
            } catch (const std::exception& e) {
              failure = e.what();
              if (failure.empty()) failure = "an exception without a message";
            }
            if (failure.empty()) {
              std::cout << "pass" << std::endl;
              if (i >= check_all) return 0;
              continue;
            }
            std::cout << "fail " << one_line(failure) << std::endl;
          }
          return 0;
        },
        seconds_left(), check_timeout_seconds);
    bool prepared = false;
    std::istringstream lines(child.output);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("unchecked ", 0) == 0) {
        result.unchecked = line.substr(10);
        return result;
      }
      if (line == "prepared") prepared = true;
      if (line == "pass") {
        result.verdicts.emplace_back();
        if (next++ >= check_all) return result;
      }
      if (line.rfind("fail ", 0) == 0) {
        result.verdicts.push_back(line.substr(5));
        ++next;
      }
    }
    if (child.timed_out && seconds_left() <= 0) {
      result.out_of_time = true;
      return result;
    }
    const bool died = child.timed_out || child.crashed || child.exit_status != 0;
    const std::string how = child.timed_out ? fmt::format("hung: no result within {:.0f} s", check_timeout_seconds)
                            : child.crashed ? std::string("crashed (killed by a signal)")
                                            : fmt::format("exited with status {}", child.exit_status);
    if (!prepared) {
      result.unchecked = "preparing the checks " + how;
      return result;
    }
    if (!died) break;  // it reported every candidate it was given
    if (next < count) {
      result.verdicts.push_back(how);
      ++next;
    }
  }
  return result;
}

}  // namespace candor::scheduler
