// Fuzzes the .bb reader and, for blocks it accepts, the issue model: list scheduling, the
// makespan and the lower bound (which must hold: bound <= list schedule's makespan).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "basic_block.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace candor::models;
  const std::string text(reinterpret_cast<const char*>(data), size);
  BasicBlock block;
  try {
    block = parse_basic_block(text, "fuzz.bb");
  } catch (const ParseError&) {
    return 0;
  }
  if (block.size() > 200) return 0;  // the bound is quadratic; big blocks say nothing more
  const std::vector<int> order = list_schedule(block);
  if (!is_valid_order(block, order)) std::abort();
  const Cycles span = makespan(block, order);
  const Cycles bound = lower_bound(block, PartialOrder(block.size()));
  if (bound > span) std::abort();  // the bound is admissible
  if (parse_basic_block(to_text(block), "round-trip.bb").size() != block.size()) std::abort();
  return 0;
}
