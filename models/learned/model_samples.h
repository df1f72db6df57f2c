// Reading the measured samples (JSON lines, one sample a line; the format is in
// docs/DESIGN.md and models/learned/README.md) and the split shared with train.py.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model.h"

namespace candor::models::learned {

struct Sample {
  std::string key;
  std::string pipeline;
  std::optional<uint64_t> seed;  // random pipelines only
  std::string source;
  // Samples of one measuring process (autotuning's side-by-side timings; "": none): their
  // runtimes share its scale, so pairs are ordered within a batch, not across batches.
  std::string batch;
  bool ok = false;
  double runtime_ms = 0;
  double predicted_s = 0;  // the analytic model's prediction at collection time
  PipelineRows rows;       // features and terms by name; a name the file lacks reads 0
};

// The dataset's default files in the source tree (data/ is not committed): random pipelines'
// samples and the example apps'.
std::string default_samples_path();
std::string default_apps_samples_path();

struct SampleFile {
  std::vector<Sample> samples;  // in file order, duplicates of a key dropped (the first kept)
  int duplicates = 0;
  bool torn_last_line = false;  // an unfinished last line (a killed writer): ignored
  std::vector<std::string> missing_features;  // schema names no sample of a file had
};

// Throws std::runtime_error naming the file and line for unreadable files and malformed
// lines (other than a torn last line).
SampleFile read_samples(const std::string& path);
// Appends `path`'s samples to `into`, skipping keys already there.
void merge_samples(SampleFile& into, const SampleFile& more);

// The split, by pipeline (never by sample): random pipelines whose seed is a multiple of 5
// are held out of training. train.py applies the same rule.
inline bool held_out(const Sample& s) { return s.seed && *s.seed % 5 == 0; }
// Usable for training or evaluation: measured, verified, with a positive runtime.
inline bool usable(const Sample& s) { return s.ok && s.runtime_ms > 0 && !s.rows.empty(); }

}  // namespace candor::models::learned
