#include "dataset.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace candor::collect {
namespace fs = std::filesystem;

namespace {

constexpr const char* kShardPrefix = "shard-";
constexpr const char* kShardSuffix = ".jsonl";

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

void write_all(int fd, const std::string& text, const std::string& path) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    done += static_cast<size_t>(n);
  }
}

}  // namespace

std::string digest(const std::string& text) { return fmt::format("{:016x}", fnv1a(text)); }

std::string sample_key(const std::string& pipeline, const halide_bridge::Schedule& schedule) {
  nlohmann::json j = schedule;
  return pipeline + "/" + digest(j.dump());
}

std::string shard_path(const std::string& dir, int rank) {
  return (fs::path(dir) / fmt::format("{}{}{}", kShardPrefix, rank, kShardSuffix)).string();
}

std::string merged_path(const std::string& dir) { return (fs::path(dir) / "samples.jsonl").string(); }

std::vector<std::string> shard_paths(const std::string& dir) {
  std::map<long, std::string> by_rank;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    const std::string prefix = kShardPrefix, suffix = kShardSuffix;
    if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string rank = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (rank.size() > 9 || rank.find_first_not_of("0123456789") != std::string::npos) continue;
    by_rank[std::stol(rank)] = e.path().string();
  }
  std::vector<std::string> paths;
  for (const auto& [rank, path] : by_rank) paths.push_back(path);
  return paths;
}

std::vector<nlohmann::json> read_records(const std::string& path) {
  std::vector<nlohmann::json> records;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    if (record.is_discarded() || !record.is_object() || !record.contains("key") || !record["key"].is_string())
      continue;
    records.push_back(std::move(record));
  }
  return records;
}

std::set<std::string> read_keys(const std::string& path) {
  std::set<std::string> keys;
  for (const nlohmann::json& r : read_records(path)) keys.insert(r["key"].get<std::string>());
  return keys;
}

size_t drop_torn_tail(const std::string& path) {
  std::error_code ec;
  const uintmax_t size = fs::file_size(path, ec);
  if (ec || size == 0) return 0;
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t last_newline = text.rfind('\n');
  const size_t keep = last_newline == std::string::npos ? 0 : last_newline + 1;
  if (keep == text.size()) return 0;
  fs::resize_file(path, keep, ec);
  if (ec) throw std::runtime_error("cannot cut the torn last line off " + path + ": " + ec.message());
  return text.size() - keep;
}

void append_record(const std::string& path, const nlohmann::json& record) {
  const std::string line = record.dump() + "\n";
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  try {
    write_all(fd, line, path);  // one write: a kill leaves the whole line or a torn tail
  } catch (...) {
    close(fd);
    throw;
  }
  fsync(fd);
  close(fd);
}

size_t merge_records(const std::vector<std::string>& inputs, const std::string& output) {
  std::set<std::string> seen;
  std::string text;
  size_t written = 0;
  for (const std::string& path : inputs) {
    for (const nlohmann::json& r : read_records(path)) {
      if (!seen.insert(r["key"].get<std::string>()).second) continue;
      text += r.dump() + "\n";
      ++written;
    }
  }
  const std::string temporary = output + ".tmp." + std::to_string(getpid());
  int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + temporary + ": " + std::strerror(errno));
  try {
    write_all(fd, text, temporary);
  } catch (...) {
    close(fd);
    std::remove(temporary.c_str());
    throw;
  }
  fsync(fd);
  close(fd);
  if (std::rename(temporary.c_str(), output.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot rename " + temporary + " to " + output + ": " + std::strerror(errno));
  }
  return written;
}

}  // namespace candor::collect
