// The basic-block space instantiated on one block: the generated space plus the queries
// the models and the CLI need (which pairs are already ordered, the issue order).
#pragma once

#include <string>
#include <vector>

#include "basic_block.gen.h"

namespace candor {

class BasicBlockSpace : public spaces::basic_block::GeneratedSpace {
 public:
  // deps[i]: the instructions whose results instruction i reads (all earlier than i).
  BasicBlockSpace(std::vector<std::string> names, std::vector<int> latency,
                  std::vector<std::vector<int>> deps);

  int num_instructions() const { return instr_count(); }
  const std::vector<std::vector<int>>& deps() const { return deps_; }
  int latency(int instr) const { return static_cast<int>(latency_param(instr)); }
  const std::string& name(int instr) const { return input().instr_names[instr]; }

  // +1 when a is known to issue before b in c, -1 when after, 0 while open.
  int known_order(const Candidate& c, int a, int b) const;
  // The issue order of a complete candidate.
  std::vector<int> issue_order(const Candidate& c) const;

 private:
  std::vector<std::vector<int>> deps_;
};

}  // namespace candor
