// Helpers shared by the lower bound and the analytic model: matching a ScheduleView to the
// kernel description and reading its (possibly undecided) choices.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "kernel_description.h"
#include "schedule_view.h"

namespace candor::models::halide::detail {

namespace hb = candor::halide_bridge;

inline bool allows_where(const FuncView* f, Where w) {
  // A Func the view does not mention keeps Halide's default: inlined where it can be,
  // else at the root.
  if (!f) return w == Where::Root || w == Where::Inline;
  return f->where.allows(int(w));
}

// Bool choices: 0 = NO, 1 = YES. An empty set (not described) allows both.
inline bool may(const Allowed& a, bool v) { return a.bits == 0 || a.allows(v ? 1 : 0); }

inline const StageView* stage_view(const FuncView* f, int stage) {
  if (!f) return nullptr;
  for (const StageView& s : f->stages)
    if (s.stage == stage) return &s;
  return nullptr;
}

inline const LoopView* loop_view(const StageView* s, const std::string& var) {
  if (!s) return nullptr;
  for (const LoopView& l : s->loops)
    if (l.var == var) return &l;
  return nullptr;
}

inline int64_t ceil_div(int64_t a, int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }

// Name -> FuncView of a view.
inline std::map<std::string, const FuncView*> index_view(const ScheduleView& v) {
  std::map<std::string, const FuncView*> m;
  for (const FuncView& f : v.funcs) m[f.name] = &f;
  return m;
}

// Whether a Func can still be inlined under the view (and by the kernel description).
inline bool may_inline(const hb::FuncInfo& f, const FuncView* fv) {
  return f.can_inline && allows_where(fv, Where::Inline);
}

// The element width in bits of a Halide type name ("uint16" -> 16, "bool" -> 8).
inline int type_bits(const std::string& t) {
  if (t == "bool") return 8;
  size_t i = 0;
  while (i < t.size() && !isdigit((unsigned char)t[i])) ++i;
  int b = 0;
  while (i < t.size() && isdigit((unsigned char)t[i])) b = b * 10 + (t[i++] - '0');
  if (b == 0) return 32;
  const size_t x = t.find('x');  // vector types "float32x8": lanes do not matter here
  (void)x;
  return b;
}

}  // namespace candor::models::halide::detail
