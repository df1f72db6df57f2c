# conv_relu_2d_tiles.jsonl: s32's tuned conv_relu pick (first line) and the same with conv's
# update in two-loop register tiles (vectors of channels x pixels x rows, all unrolled inside
# the RDom loops), conv computed per output tile of those rows:
# (2 vectors, 4, 2), (1, 4, 2), (1, 4, 4), (2, 4, 4), (1, 8, 2), (1, 4, 3).
# Timed side by side: build/bin/candor measure conv_relu --schedules FILE --interleave --min-seconds 3
import json, copy, os
here = os.path.dirname(os.path.abspath(__file__))
base = json.load(open(os.path.join(here, '../2026-11-27_s32/schedules/conv_relu.candor_tuned.json')))
def sp(var, f, inner, outer, tail="GuardWithIf"):
    return {"factor": f, "inner": inner, "outer": outer, "tail": tail, "var": var}
def variant(cvec, xu, yu, relu_y=2):
    d = copy.deepcopy(base)
    relu = d['funcs']['relu']['stages'][0]
    for s in relu['splits']:
        if s['var'] == 'y': s['factor'] = relu_y
    relu['order'] = ["c_i_i", "c_i_o", "x_i", "y_i", "x_o", "n_i", "c_o", "y_o", "n_o"]
    conv = d['funcs']['conv']['stages']
    conv[0]['splits'].append(sp('y', relu_y, 'y_i', 'y_o'))
    conv[0]['order'] = ["c_i", "x_i", "y_i", "c_o", "x_o", "y_o", "n"]
    up = conv[1]
    splits = []
    ann = {}
    if cvec == 2:
        splits += [sp('c', 32, 'c_i', 'c_o'), sp('c_i', 16, 'c_i_i', 'c_i_o')]
        inner = ["c_i_i", "c_i_o"]; ann.update({"c_i_i": "vectorized", "c_i_o": "unrolled"}); outer = ["c_o"]
    else:
        splits += [sp('c', 16, 'c_i', 'c_o')]
        inner = ["c_i"]; ann["c_i"] = "vectorized"; outer = ["c_o"]
    splits += [sp('x', xu, 'x_i', 'x_o'), sp('y', yu, 'y_i', 'y_o')]
    ann.update({"x_i": "unrolled", "y_i": "unrolled"})
    up['splits'] = splits
    up['annotations'] = ann
    up['order'] = inner + ["x_i", "y_i", "r_x", "r_y", "r_z"] + outer + ["x_o", "y_o", "n"]
    return d
lines = [base, variant(2, 4, 2), variant(1, 4, 2), variant(1, 4, 4, relu_y=4), variant(2, 4, 4, relu_y=4), variant(1, 8, 2), variant(1,4,3,relu_y=3)]
with open(os.path.join(here, 'conv_relu_2d_tiles.jsonl'), 'w') as f:
    for l in lines: f.write(json.dumps(l) + '\n')
