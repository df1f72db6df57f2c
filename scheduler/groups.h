// Large pipelines scheduled group by group: a network of hundreds of Funcs does not fit a
// budget searched whole (each evaluation prices every stage, and there are decisions for
// every stage), so its Funcs are cut into consecutive groups of the topological order, each
// group searched on its own as a pipeline whose inputs are the Funcs it reads from earlier
// groups, and the groups' schedules joined. A Func that a later group reads is an output of
// its group (computed at the root); within a group everything the space allows is open.
#pragma once

#include <string>
#include <vector>

#include "halide_bridge/kernel_description.h"
#include "halide_bridge/schedule.h"
#include "models/halide/machine.h"
#include "scheduler.h"
#include "search.h"

namespace candor::scheduler {

// The Funcs of `kd` (by position) in consecutive groups of at most `max_funcs` Funcs that
// are not input aliases; each input alias (FuncInfo::is_input_alias) joins every group that
// reads it, so that it stays inline everywhere.
std::vector<std::vector<int>> func_groups(const halide_bridge::KernelDescription& kd, int max_funcs);

// The pipeline made of one group: the Funcs of `group` (positions in kd), Funcs outside it
// that they read become inputs (their regions as estimates), and a member that a Func
// outside the group reads (or an output of kd) is an output.
halide_bridge::KernelDescription group_kernel(const halide_bridge::KernelDescription& kd,
                                              const std::vector<int>& group);

struct GroupedOutcome {
  // Joined schedules, best first: the k-th joins each group's k-th best (its last where it
  // has fewer), at most Budget::keep_top; their prediction and bound are the sums of the
  // groups'.
  std::vector<PricedSchedule> schedules;
  int groups = 0;
  int groups_at_reference = 0;  // groups whose search found nothing in time: reference_schedule
  SearchStats stats;            // summed over the groups
};

// Searches each group with `engine` for an equal share of `budget` (time and nodes), the
// completing greedy dive of each stopping at its share of `hard_seconds`; a group whose
// search finds nothing gets the reference schedule. Throws std::invalid_argument for a bad
// engine spec.
GroupedOutcome schedule_in_groups(const halide_bridge::KernelDescription& kd,
                                  const models::halide::MachineDescription& machine, const std::string& engine,
                                  const Budget& budget, double hard_seconds, int max_funcs);

}  // namespace candor::scheduler
