#!/usr/bin/env python3
"""Would the learned model choose better among the analytic model's favourites?

    /usr/bin/python3 models/learned/rerank_eval.py WEIGHTS SAMPLES.jsonl [SAMPLES.jsonl ...]

A search exploits the errors of the model that steers it, so a model that orders measured
samples well can still steer a search badly. This asks the narrower question that matters
when the learned model only re-ranks what the analytic model found: per pipeline (held-out
random pipelines, seed % 5 == 0, and every example app), take the k samples the analytic
model predicts fastest (`predicted_s`), let the learned model pick one of them, and compare
its measured runtime with that of the analytic model's own first choice. Prints, per file
and k, the geometric mean of that ratio (below 1: re-ranking helps), how many pipelines got
more than 5% slower or faster, and the best any re-ranking of the k could do (the oracle).
The samples need today's features and terms (`candor_refeaturize`).
"""
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train  # noqa: E402  (the model's inputs and terms, as trained)


def learned_predictor(weights_path):
    w = json.load(open(weights_path))
    norm = w["normalization"]
    scale, mean, std = (torch.tensor(norm[k], dtype=torch.float64) for k in ("scale", "mean", "std"))
    layers = [(torch.tensor(l["weight"], dtype=torch.float64), torch.tensor(l["bias"], dtype=torch.float64))
              for l in w["layers"]]

    def predict(sample):
        seconds = w["pipeline_overhead_s"]
        for st in sample["stages"]:
            f, t = st["features"], st["terms"]
            x = torch.tensor([f.get(n, 0.0) for n in w["feature_inputs"]] + [t[n] for n in w["term_inputs"]],
                             dtype=torch.float64)
            h = (train.signed_log1p(x * scale) - mean) / std
            for i, (weight, bias) in enumerate(layers):
                h = weight @ h + bias
                if i + 1 < len(layers):
                    h = torch.relu(h)
            values = [(f.get(term["name"], 0.0) if term["from"] == "features" else t[term["name"]]) * term["scale"]
                      for term in w["terms"]]
            seconds += float((torch.nn.functional.softplus(h) * torch.tensor(values, dtype=torch.float64)).sum())
        return seconds

    return predict


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    predict = learned_predictor(sys.argv[1])
    for path in sys.argv[2:]:
        by_pipeline = {}
        for s in train.read_samples([path]):
            if train.usable(s) and s.get("predicted_s") and (s.get("seed") is None or train.held_out(s)):
                s["learned_s"] = predict(s)
                by_pipeline.setdefault(s["pipeline"], []).append(s)
        if not by_pipeline:
            print(f"{path}: no usable held-out samples")
            continue
        for k in (2, 3, 4, 8):
            ratios, oracle = [], []
            for samples in by_pipeline.values():
                favourites = sorted(samples, key=lambda s: s["predicted_s"])[:k]
                first = favourites[0]["runtime_ms"]
                ratios.append(min(favourites, key=lambda s: s["learned_s"])["runtime_ms"] / first)
                oracle.append(min(s["runtime_ms"] for s in favourites) / first)
            print(f"{path} k={k}: re-ranked / analytic first choice: geomean {geomean(ratios):.3f}, "
                  f"slower in {sum(r > 1.05 for r in ratios)}, faster in {sum(r < 0.95 for r in ratios)} "
                  f"of {len(ratios)} pipelines; oracle {geomean(oracle):.3f}")


if __name__ == "__main__":
    main()
