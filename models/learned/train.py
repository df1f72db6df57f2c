#!/usr/bin/python3
"""Trains candor's learned cost model (models/learned/model.h) on measured samples.

    /usr/bin/python3 models/learned/train.py --samples data/samples.jsonl --out models/learned/weights.json

Reads JSON-lines sample files (the dataset format of docs/DESIGN.md; a torn last line is
ignored; a key seen twice counts once), keeps measured, verified samples of random pipelines,
and leaves out the held-out pipelines (seed % 5 == 0, the rule `candor model eval` uses) and
every example app. Per stage, an MLP maps normalised inputs (features and the analytic model's
terms) to softplus coefficients of cost terms; a pipeline's prediction is a learned overhead
plus the sum over stages of coefficient x term. Loss: MSE of log runtime plus a pairwise
ranking term (RankNet) between schedules of the same pipeline. Fixed seed, deterministic
algorithms, one thread by default: the same command on the same files gives the same weights.
Needs Debian's python3-torch.
"""
import argparse
import datetime
import json
import math
import random
import sys

import torch

from progress import Progress

# The analytic model's StageCost terms (model.h's CANDOR_COST_TERMS): both MLP inputs and
# cost terms. Raw counts of the featurization join the cost terms, scaled to about seconds.
COST_TERMS = ["compute_s", "load_s", "store_s", "parallel_s", "allocation_s", "loop_s", "total_s"]
ANALYTIC_TERM = "total_s"  # the analytic model's stage time: coefficient 1 here, ~0 elsewhere, to start
COUNT_TERMS = [("points_computed", 1e-9), ("productions", 1e-6), ("innermost_iterations", 1e-9)]
INITIAL_OTHER_COEFFICIENT = 0.01
TERM_INPUT_SCALE = 1e9  # seconds -> nanoseconds before log1p (log1p of 1e-6 is no compression)
HELD_OUT_MODULUS = 5


def held_out(sample):
    seed = sample.get("seed")
    return seed is not None and seed % HELD_OUT_MODULUS == 0


def usable(sample):
    return bool(sample.get("ok")) and (sample.get("runtime_ms") or 0) > 0 and bool(sample.get("stages"))


def read_samples(paths):
    """Every sample of the files, each key once (the first kept)."""
    seen, samples = set(), []
    for path in paths:
        try:
            with open(path) as f:
                lines = f.read().split("\n")
        except OSError as e:
            sys.exit(f"train.py: error: {path}: {e.strerror}")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                s = json.loads(line)
            except json.JSONDecodeError:
                if number >= len(lines) - 1:  # a torn last line (a killed writer)
                    continue
                sys.exit(f"train.py: error: {path}:{number}: not JSON")
            if s["key"] in seen:
                continue
            seen.add(s["key"])
            samples.append(s)
    return samples


def tensors(samples, feature_inputs):
    """Per stage: raw inputs (features then terms) and cost-term values; per sample: log runtime
    and the analytic model's log prediction (the sum of its stages' total_s)."""
    inputs, terms, owner, y, pipeline, log_analytic = [], [], [], [], [], []
    for i, s in enumerate(samples):
        log_analytic.append(math.log(max(sum(st["terms"][ANALYTIC_TERM] for st in s["stages"]), 1e-12)))
        for st in s["stages"]:
            f, t = st["features"], st["terms"]
            inputs.append([f.get(n, 0.0) for n in feature_inputs] + [t[n] for n in COST_TERMS])
            terms.append([t[n] for n in COST_TERMS] + [f.get(n, 0.0) * scale for n, scale in COUNT_TERMS])
            owner.append(i)
        y.append(math.log(s["runtime_ms"] * 1e-3))
        # Ranking pairs stay within a pipeline, and within a measuring process for samples
        # timed side by side (autotuning's batches share one process's scale).
        pipeline.append(s["pipeline"] + ("#" + s["batch"] if s.get("batch") else ""))
    d = torch.float64
    return (torch.tensor(inputs, dtype=d), torch.tensor(terms, dtype=d), torch.tensor(owner),
            torch.tensor(y, dtype=d), pipeline, torch.tensor(log_analytic, dtype=d))


def banded(log_p, log_analytic, band):
    """The analytic band (model.h): log p held smoothly within log k of the analytic model's,
    log A + s tanh((log p - log A) / s) with s = log k; the identity without a band."""
    if not band:
        return log_p
    s = math.log(band)
    return log_analytic + s * torch.tanh((log_p - log_analytic) / s)


def signed_log1p(x):
    return torch.sign(x) * torch.log1p(torch.abs(x))


class Model(torch.nn.Module):
    def __init__(self, n_in, hidden, n_terms):
        super().__init__()
        layers, width = [], n_in
        for h in hidden:
            layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
            width = h
        layers.append(torch.nn.Linear(width, n_terms))
        self.net = torch.nn.Sequential(*layers).double()
        # Start at the analytic model: coefficient 1 on its stage time (softplus(b) == 1), the
        # other terms nearly off; the prior pulls the coefficients back towards these.
        torch.nn.init.zeros_(self.net[-1].weight)
        start = torch.full((n_terms,), INITIAL_OTHER_COEFFICIENT, dtype=torch.float64)
        start[COST_TERMS.index(ANALYTIC_TERM)] = 1.0
        with torch.no_grad():
            self.net[-1].bias.copy_(torch.log(torch.expm1(start)))
        self.start = start
        self.overhead = torch.nn.Parameter(torch.tensor(-5.0, dtype=torch.float64))  # x 1e-5 s

    def overhead_s(self):
        return torch.nn.functional.softplus(self.overhead) * 1e-5

    def coefficients(self, x):
        return torch.nn.functional.softplus(self.net(x))

    def forward(self, x, terms, owner, n):
        per_stage = (self.coefficients(x) * terms).sum(1)
        return torch.zeros(n, dtype=x.dtype).index_add(0, owner, per_stage) + self.overhead_s()


def pairs_of(y, pipeline, tolerance):
    """(faster, slower) index pairs within each pipeline, measured apart by > tolerance."""
    by = {}
    for i, p in enumerate(pipeline):
        by.setdefault(p, []).append(i)
    lo, hi, tie = [], [], math.log1p(tolerance)
    for idx in by.values():
        for a in idx:
            for b in idx:
                if y[b] - y[a] > tie:
                    lo.append(a)
                    hi.append(b)
    return torch.tensor(lo, dtype=torch.long), torch.tensor(hi, dtype=torch.long)


def r2(y, p):
    return float(1 - ((y - p) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def pairwise(y, p, pipeline, tolerance):
    lo, hi = pairs_of(y.tolist(), pipeline, tolerance)
    if len(lo) == 0:
        return float("nan")
    d = p[hi] - p[lo]
    return float(((d > 0).double() + 0.5 * (d == 0).double()).mean())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", action="append", required=True, help="a JSONL sample file (repeatable)")
    ap.add_argument("--out", required=True, help="the weights JSON to write")
    ap.add_argument("--hidden", default="48,48", help="hidden layer widths")
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--batches", type=int, default=8, help="mini-batches (groups of pipelines) per epoch")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--rank-weight", type=float, default=1.0, help="weight of the pairwise ranking loss")
    ap.add_argument("--rank-sharpness", type=float, default=4.0, help="RankNet scale on log-runtime gaps")
    ap.add_argument("--prior-weight", type=float, default=0.1,
                    help="weight of the squared coefficient changes from the analytic start (shrinks "
                         "towards the analytic model where data is thin)")
    ap.add_argument("--tie-tolerance", type=float, default=0.05,
                    help="pairs measured closer than this ratio are ties (not ranked)")
    ap.add_argument("--no-term-inputs", action="store_true",
                    help="the MLP reads the features only, not the analytic terms (ablation)")
    ap.add_argument("--analytic-band", type=float, default=0,
                    help="hold each prediction smoothly within this factor of the analytic model's "
                         "(> 1; 0: none), as the C++ model does; trained without it, the metrics "
                         "printed are with it")
    ap.add_argument("--validation-remainder", type=int, default=None, metavar="R",
                    help="leave the training pipelines whose seed %% 5 == R (1-4) out of training and "
                         "report the metrics on them (validation_*), for choosing settings without "
                         "looking at the held-out pipelines")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if args.analytic_band and args.analytic_band <= 1:
        ap.error("--analytic-band must be above 1")
    if args.validation_remainder is not None and not 0 < args.validation_remainder < HELD_OUT_MODULUS:
        ap.error(f"--validation-remainder must be 1-{HELD_OUT_MODULUS - 1}")

    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)

    samples = read_samples(args.samples)
    random_ok = [s for s in samples if usable(s) and s.get("seed") is not None]
    train = [s for s in random_ok if not held_out(s)]
    test = [s for s in random_ok if held_out(s)]
    validation = []
    if args.validation_remainder is not None:
        validation = [s for s in train if s["seed"] % HELD_OUT_MODULUS == args.validation_remainder]
        train = [s for s in train if s["seed"] % HELD_OUT_MODULUS != args.validation_remainder]
    if len(train) < 2:
        sys.exit(f"train.py: error: {len(train)} usable training samples in {', '.join(args.samples)}")

    names = sorted({n for s in train for st in s["stages"] for n in st["features"]})
    x, terms, owner, y, pipes, log_a = tensors(train, names)
    # Normalisation: scale, signed log1p, standardise; inputs constant on the training set go.
    scale = torch.tensor([1.0] * len(names) + [TERM_INPUT_SCALE] * len(COST_TERMS), dtype=torch.float64)
    z = signed_log1p(x * scale)
    mean, std = z.mean(0), z.std(0)
    keep = [i for i in (std > 1e-9).nonzero().flatten().tolist() if i < len(names) or not args.no_term_inputs]
    feature_inputs = [names[i] for i in keep if i < len(names)]
    term_inputs = [COST_TERMS[i - len(names)] for i in keep if i >= len(names)]
    scale, mean, std = scale[keep], mean[keep], std[keep]

    def prepare(xs):
        return (signed_log1p(xs[:, keep] * scale) - mean) / std

    xn = prepare(x)
    hidden = [int(h) for h in args.hidden.split(",") if h]
    model = Model(len(keep), hidden, terms.shape[1])
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    steps = args.epochs * args.batches
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)

    # Mini-batches are groups of whole pipelines, so ranking pairs stay inside a batch.
    by_pipeline = {}
    for i, p in enumerate(pipes):
        by_pipeline.setdefault(p, []).append(i)
    pipeline_names = sorted(by_pipeline)
    rows_of = [[] for _ in train]
    for r, i in enumerate(owner.tolist()):
        rows_of[i].append(r)

    def batch(sample_ids):
        ids = torch.tensor(sample_ids)
        rows = torch.tensor([r for i in sample_ids for r in rows_of[i]])
        remap = torch.empty(len(train), dtype=torch.long)
        remap[ids] = torch.arange(len(sample_ids))
        lo, hi = pairs_of(y[ids].tolist(), [pipes[i] for i in sample_ids], args.tie_tolerance)
        return xn[rows], terms[rows], remap[owner[rows]], y[ids], lo, hi

    def predict_log(model, xs, ts, os, la):
        return banded(torch.log(model(xs, ts, os, len(la))), la, args.analytic_band)

    progress = Progress("train")
    fit = ""
    for epoch in range(args.epochs):
        order = pipeline_names[:]
        random.shuffle(order)
        for b in range(args.batches):
            group = order[b::args.batches]
            if not group:
                continue
            bx, bt, bo, by, lo, hi = batch([i for p in group for i in by_pipeline[p]])
            # The loss sees the free prediction: a ranking loss on the banded one ordered fewer
            # held-out and near-optimal app pairs (models/learned/README.md).
            logp = torch.log(model(bx, bt, bo, len(by)))
            loss = ((logp - by) ** 2).mean()
            if args.prior_weight > 0:
                loss = loss + args.prior_weight * ((model.coefficients(bx) - model.start) ** 2).sum(1).mean()
            if len(lo) and args.rank_weight > 0:
                gap = (logp[hi] - logp[lo]) * args.rank_sharpness
                loss = loss + args.rank_weight * torch.nn.functional.softplus(-gap).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
        if not args.quiet:
            if epoch % 50 == 0 or epoch == args.epochs - 1:
                with torch.no_grad():
                    p = predict_log(model, xn, terms, owner, log_a)
                fit = f", train R2(log) {r2(y, p):.4f}, pairwise {pairwise(y, p, pipes, args.tie_tolerance):.4f}"
            progress.update((epoch + 1) / args.epochs, f"epoch {epoch + 1}/{args.epochs}: loss {float(loss):.4f}{fit}")
    if not args.quiet:
        progress.finish(f"{args.epochs} epochs")

    with torch.no_grad():
        p_train = predict_log(model, xn, terms, owner, log_a)
        report = {"train_r2_log": r2(y, p_train),
                  "train_pairwise": pairwise(y, p_train, pipes, args.tie_tolerance)}
        for name, part in (("validation", validation), ("heldout", test)):
            if part:
                tx, tt, to, ty, tp, ta = tensors(part, names)
                p_part = predict_log(model, prepare(tx), tt, to, ta)
                report[name + "_r2_log"] = r2(ty, p_part)
                report[name + "_pairwise"] = pairwise(ty, p_part, tp, args.tie_tolerance)
    print(json.dumps(report))

    layers = [m for m in model.net if isinstance(m, torch.nn.Linear)]
    weights = {
        "format": "candor-learned-model-1",
        "feature_inputs": feature_inputs,
        "term_inputs": term_inputs,
        "normalization": {"scale": scale.tolist(), "mean": mean.tolist(), "std": std.tolist()},
        "layers": [{"weight": l.weight.tolist(), "bias": l.bias.tolist()} for l in layers],
        "terms": [{"name": n, "from": "terms", "scale": 1.0} for n in COST_TERMS] +
                 [{"name": n, "from": "features", "scale": s} for n, s in COUNT_TERMS],
        "pipeline_overhead_s": float(model.overhead_s()),
        "provenance": {
            "command": "/usr/bin/python3 models/learned/train.py " + " ".join(sys.argv[1:]),
            "date": datetime.date.today().isoformat(),
            "dataset_files": args.samples,
            "samples_read": len(samples),
            "training_samples": len(train),
            "training_pipelines": len({s["pipeline"] for s in train}),
            "heldout_samples": len(test),
            "validation_samples": len(validation),
            "heldout_rule": f"seed % {HELD_OUT_MODULUS} == 0; example apps never trained on",
            "torch": torch.__version__,
            **report,
        },
    }
    if args.analytic_band:
        weights["analytic_band"] = args.analytic_band
    with open(args.out, "w") as f:
        json.dump(weights, f)
        f.write("\n")


if __name__ == "__main__":
    main()
