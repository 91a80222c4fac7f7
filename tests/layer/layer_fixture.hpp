// What the queue diagnostics layer's tests share: a tiny JSON reader for its outputs, running the
// workload (or any program) with the layer enabled through the environment only, temporary folders.
#pragma once

#include <catch2/catch.hpp>

#include "run_child.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace qd_test {

namespace fs = std::filesystem;

// ---- a tiny JSON reader: enough for the report (objects, arrays, strings, numbers, literals) ----
struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<Json> items;
  std::map<std::string, Json> fields;

  bool has(const std::string &k) const { return kind == Object && fields.count(k) != 0; }
  const Json &operator[](const std::string &k) const {
    static const Json none;
    auto it = fields.find(k);
    return it == fields.end() ? none : it->second;
  }
  const Json &operator[](std::size_t i) const { return items.at(i); }
};

class JsonReader {
public:
  explicit JsonReader(const std::string &s) : s_(s) {}
  bool parse(Json &out, std::string &error) {
    if (!value(out) || (skip(), pos_ != s_.size())) {
      error = "JSON error at offset " + std::to_string(pos_);
      return false;
    }
    return true;
  }

private:
  const std::string &s_;
  std::size_t pos_ = 0;

  void skip() {
    while (pos_ < s_.size() && std::strchr(" \t\r\n", s_[pos_]))
      ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c)
      return ++pos_, true;
    return false;
  }
  bool literal(const char *word) {
    const std::size_t n = std::strlen(word);
    if (s_.compare(pos_, n, word) != 0)
      return false;
    pos_ += n;
    return true;
  }
  bool string(std::string &out) {
    if (!eat('"'))
      return false;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c == '\\') {
        if (pos_ >= s_.size())
          return false;
        char e = s_[pos_++];
        if (e == 'u') {
          if (pos_ + 4 > s_.size())
            return false;
          out += static_cast<char>(std::stoi(s_.substr(pos_, 4), nullptr, 16) & 0x7f); // enough here
          pos_ += 4;
        } else {
          out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
        }
      } else {
        out += c;
      }
    }
    return eat('"');
  }
  bool value(Json &v) {
    skip();
    if (pos_ >= s_.size())
      return false;
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind = Json::Object;
      if (eat('}'))
        return true;
      do {
        std::string k;
        if (!string(k) || !eat(':') || !value(v.fields[k]))
          return false;
      } while (eat(','));
      return eat('}');
    }
    if (c == '[') {
      ++pos_;
      v.kind = Json::Array;
      if (eat(']'))
        return true;
      do {
        v.items.emplace_back();
        if (!value(v.items.back()))
          return false;
      } while (eat(','));
      return eat(']');
    }
    if (c == '"')
      return v.kind = Json::String, string(v.text);
    if (literal("true"))
      return v.kind = Json::Bool, v.boolean = true, true;
    if (literal("false"))
      return v.kind = Json::Bool, true;
    if (literal("null"))
      return v.kind = Json::Null, true;
    char *end = nullptr;
    v.number = std::strtod(s_.c_str() + pos_, &end);
    if (end == s_.c_str() + pos_)
      return false;
    pos_ = static_cast<std::size_t>(end - s_.c_str());
    v.kind = Json::Number;
    return true;
  }
};

inline Json read_json(const fs::path &path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  Json j;
  std::string error;
  INFO(text);
  REQUIRE(JsonReader(text).parse(j, error));
  return j;
}

// The trace file (layer/src/trace.cpp): Chrome's JSON Array Format, closed (whole JSON) once the
// program has ended; each device's process_name metadata carries the schema.
inline Json read_trace(const fs::path &path) {
  const Json t = read_json(path);
  REQUIRE(t.kind == Json::Array);
  for (const Json &e : t.items)
    if (e["ph"].text == "M" && e["name"].text == "process_name")
      CHECK(e["args"]["schema"].text == "novem-queue-trace/2");
  return t;
}

// ---- running a program with a changed environment ----

using Run = novem::test::ChildRun;

// Runs argv with the environment changed for the child only; what it printed is also kept in
// `log` for whoever investigates a failure.
inline Run run(const std::vector<std::string> &argv, const std::map<std::string, std::string> &set,
        const std::vector<std::string> &unset, const fs::path &log) {
  Run r = novem::test::run_child(argv, set, unset);
  std::ofstream(log) << r.output;
  return r;
}

// XDG_DATA_DIRS with the build's share directory prepended (never replaced: the drivers'
// manifests are found through the same variable).
inline std::string xdg_data_dirs() {
  const char *old = std::getenv("XDG_DATA_DIRS");
  return std::string(NOVEM_QD_DATA_DIR) + ":" + (old && *old ? old : "/usr/local/share:/usr/share");
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "novem-qd-test-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()));
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Every submission timed (TIMESTAMP_EVERY=1): the tests count GPU times exactly. The per-device
// default (one in 64 on a CPU device such as lavapipe) has its own test (test_layer_switches.cpp).
inline std::map<std::string, std::string> enabled_env(const fs::path &report) {
  return {{"XDG_DATA_DIRS", xdg_data_dirs()},
          {"NOVEM_QUEUE_DIAGNOSTICS", "1"},
          {"NOVEM_QUEUE_DIAGNOSTICS_REPORT", report.string()},
          {"NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY", "1"}};
}

inline std::uint64_t num(const Json &j) {
  REQUIRE(j.kind == Json::Number);
  REQUIRE(j.number >= 0);
  return static_cast<std::uint64_t>(j.number);
}

// The report's queue family.index of a device.
inline const Json &find_queue(const Json &dev, std::uint64_t family, std::uint64_t index) {
  for (const Json &q : dev["queues"].items)
    if (num(q["family"]) == family && num(q["index"]) == index)
      return q;
  FAIL("queue " << family << "." << index << " not in the report");
  static const Json none;
  return none;
}

// The strings of a JSON array.
inline std::vector<std::string> texts(const Json &array) {
  std::vector<std::string> out;
  for (const Json &j : array.items)
    out.push_back(j.text);
  return out;
}

// The n-th dump the layer wrote for the dump setting `path` (dump.json -> dump-1.json, ...).
inline fs::path numbered_dump(const fs::path &path, int n) {
  return path.parent_path() / (path.stem().string() + "-" + std::to_string(n) + path.extension().string());
}

#ifdef NOVEM_QD_TEST_ICD_JSON
// The environment of a program on the test ICD (tests/icd) with the layer on. The test ICD is not a
// conformant driver: validation is never stacked on it (VK_INSTANCE_LAYERS is in kIcdUnset).
inline std::map<std::string, std::string> icd_env(const fs::path &report, const fs::path &dump) {
  auto env = enabled_env(report);
  env["VK_DRIVER_FILES"] = NOVEM_QD_TEST_ICD_JSON;
  env["VK_ICD_FILENAMES"] = NOVEM_QD_TEST_ICD_JSON;
  env["NOVEM_TEST_ICD_HANGCHECK_MS"] = "1000"; // an unbounded wait on a hung device ends in 1 s
  env["NOVEM_QUEUE_DIAGNOSTICS_DUMP"] = dump.string();
  return env;
}
inline const std::vector<std::string> kIcdUnset = {"VK_INSTANCE_LAYERS", "NOVEM_TEST_ICD_HANG", "NOVEM_TEST_ICD_LOSE_DEVICE",
                                            "NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS", "NOVEM_QUEUE_DIAGNOSTICS_INTERVAL_MS"};

inline bool has_line(const std::string &output, const std::string &line) {
  return ("\n" + output).find("\n" + line + "\n") != std::string::npos;
}

#endif

} // namespace qd_test
