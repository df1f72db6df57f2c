# Adams2019's depthwise_separable_conv schedule (s50 head-to-head) as candor schedule JSON, with variants.
import json, sys, copy
def sp(var, outer, inner, f, tail="ShiftInwards"): return {"var": var, "outer": outer, "inner": inner, "factor": f, "tail": tail}
def at(func, var, stage=0): return {"func": func, "stage": stage, "var": var}
def inline(): return {"compute": "inline", "memory": "Auto", "stages": []}
def REG(tail):
    return [sp("c", "c_o", "c_i", 32, tail), sp("c_i", "c_i_o", "c_i_i", 16, tail), sp("x", "x_o", "x_i", 2, tail), sp("y", "y_o", "y_i", 2, tail)]
def adams(par="y_o", fuse=False, dwr="ci_x_o", mem="Stack", dw_at="x_i_i_o", pr_tile=(32, 8)):
    S = {}
    for f in ["depthwise_bias_im", "depthwise_weights_im", "input_im", "pointwise_bias_im", "pointwise_weights_im"]:
        S[f] = inline()
    tx, ty = pr_tile
    S["pointwise_relu"] = {"compute": "root", "memory": "Auto", "stages": [{
        "splits": [sp("x", "x_o", "x_i", tx), sp("y", "y_o", "y_i", ty), sp("x_i", "x_i_o", "x_i_i", 16),
                   sp("x_i_i", "x_i_i_o", "x_i_i_i", 2), sp("y_i", "y_i_o", "y_i_i", 2),
                   sp("c", "c_o", "c_i", 32), sp("c_i", "c_i_o", "c_i_i", 16)],
        "order": ["c_i_i", "c_i_o", "x_i_i_i", "y_i_i", "c_o", "x_i_i_o", "y_i_o", "x_i_o", "x_o", "y_o"],
        "annotations": {"c_i_o": "unrolled", "x_i_i_i": "unrolled", "y_i_i": "unrolled", "c_i_i": "vectorized",
                        par: "parallel"}}]}
    S["pointwise"] = {"compute": at("pointwise_relu", "c_o"), "memory": mem, "stages": [
        {"splits": REG("ShiftInwards"), "order": ["c_i_i", "c_i_o", "x_i", "y_i", "c_o", "x_o", "y_o"],
         "annotations": {"c_i_o": "unrolled", "x_i": "unrolled", "y_i": "unrolled", "c_i_i": "vectorized"}},
        {"splits": [sp("ci_x", "ci_x_o", "ci_x_i", 16, "GuardWithIf")] + REG("GuardWithIf"),
         "order": ["c_i_i", "c_i_o", "x_i", "y_i", "ci_x_i", "ci_x_o", "c_o", "x_o", "y_o"],
         "annotations": {"c_i_o": "unrolled", "x_i": "unrolled", "y_i": "unrolled", "c_i_i": "vectorized"}}]}
    if dwr.startswith("pr:"):
        S["depthwise_relu"] = {"compute": at("pointwise_relu", dwr[3:]), "memory": mem, "stages": [
            {"splits": [sp("c", "c_o", "c_i", 16, "RoundUp")], "order": ["c_i", "c_o", "x", "y"],
             "annotations": {"c_i": "vectorized"}}]}
    elif dwr == "inline":
        S["depthwise_relu"] = inline()
    else:
        S["depthwise_relu"] = {"compute": at("pointwise", dwr, 1), "memory": mem, "stages": [
            {"splits": [sp("c", "c_o", "c_i", 16, "RoundUp")], "order": ["c_i", "c_o", "x", "y"],
             "annotations": {"c_i": "vectorized"}}]}
    S["depthwise"] = {"compute": at("pointwise_relu", dw_at), "memory": mem, "stages": [
        {"splits": REG("ShiftInwards"), "order": ["c_i_i", "c_i_o", "x_i", "y_i", "c_o", "x_o", "y_o"],
         "annotations": {"c_i_o": "unrolled", "x_i": "unrolled", "y_i": "unrolled", "c_i_i": "vectorized"}},
        {"splits": REG("GuardWithIf"), "order": ["c_i_i", "c_i_o", "x_i", "y_i", "k_x", "k_y", "c_o", "x_o", "y_o"],
         "annotations": {"c_i_o": "unrolled", "x_i": "unrolled", "y_i": "unrolled", "c_i_i": "vectorized"}}]}
    S["input_padded"] = {"compute": at("pointwise_relu", dw_at), "store": at("pointwise_relu", "x_i_o"), "memory": mem,
                         "stages": [{"splits": [sp("d0", "d0_o", "d0_i", 16)], "order": ["d0_i", "d0_o", "d1", "d2"],
                                     "annotations": {"d0_i": "vectorized"}}]}
    return {"funcs": S}
variants = {
  "adams_y": adams(),
  "adams_dwr_inline": adams(dwr="inline"),
  "adams_auto_mem": adams(mem="Auto"),
  "adams_tile16x16": adams(pr_tile=(16, 16)),
  "adams_par_x": adams(par="x_o"),
  "dwr_block": adams(dwr="pr:x_i_i_o"),
  "dwr_block_c": adams(dwr="pr:c_o"),
  "dwr_strip": adams(dwr="pr:y_i_o"),
  "dwr_tile": adams(dwr="pr:x_o"),
}
names = sys.argv[1].split(",") if len(sys.argv) > 1 else list(variants)
for n in names: print(json.dumps(variants[n]))
print("\n".join(names), file=sys.stderr)
