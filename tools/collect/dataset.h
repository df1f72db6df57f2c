// The sample dataset (docs/dataset.md): JSON lines, one measured sample a line, keyed by
// "<pipeline>/<hash of the schedule JSON>". Each collecting rank appends to its own shard
// (one write of a whole line, then fsync); a kill can leave only a torn last line, which
// readers ignore and the shard's owner cuts off before appending again. The merged file
// holds every key once.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "halide_bridge/schedule.h"

namespace candor::collect {

// "<pipeline>/<16 hex digits>": a 64-bit FNV-1a hash of the schedule's compact JSON, stable
// across processes, builds and machines.
std::string sample_key(const std::string& pipeline, const halide_bridge::Schedule& schedule);
// 16 hex digits: the 64-bit FNV-1a hash of `text` (the digest sample_key uses).
std::string digest(const std::string& text);

// The shard rank `rank` appends to, and the merged dataset, in `dir`.
std::string shard_path(const std::string& dir, int rank);
std::string merged_path(const std::string& dir);
// Every shard in `dir` (any rank count), sorted by rank.
std::vector<std::string> shard_paths(const std::string& dir);

// The complete records of a JSON-lines file, in order; a line that is not a JSON object
// with a string "key" (a torn last line) is skipped. A missing file has none.
std::vector<nlohmann::json> read_records(const std::string& path);
// Their keys.
std::set<std::string> read_keys(const std::string& path);

// Cuts a torn last line (bytes after the last newline) off `path`, so that the next append
// starts on a line of its own. Returns the number of bytes removed.
size_t drop_torn_tail(const std::string& path);

// Appends `record` as one line with one write, then fsyncs. Throws std::runtime_error when
// the file cannot be written.
void append_record(const std::string& path, const nlohmann::json& record);

// Writes every distinct key of `inputs` (files in order, first occurrence wins) to
// `output`, atomically (a temporary file renamed into place). Returns the number of records
// written.
size_t merge_records(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace candor::collect
