// The handle table alone: what insert, get, find and take answer, and the one line each
// violation writes (novem/handle_table.hpp).
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "log_file.hpp"
#include "novem/handle_table.hpp"

namespace {

using novem::test::LogFile;

// vacant: whether a CREATE_BUFFER may use `handle` (expected 1 or 0); insert: `value` under
// `handle` (CREATE_BUFFER); get: the object for UPDATE_BUFFER; find: the quiet lookup; take: the
// slot out (DESTROY_BUFFER). expected: the value found or taken, or -1 for none (insert: -1 when
// refused). line: what the log says after the step ("" nothing).
struct Step {
  enum Kind { vacant, insert, get, find, take } kind;
  uint32_t handle;
  int value;
  int expected;
  const char *line;
};

struct Case {
  const char *name;
  std::vector<Step> steps;
  size_t left;
};

const Case kCases[] = {
    {"an object is found under its handle until it is taken",
     {{Step::insert, 7, 70, 70, ""}, {Step::get, 7, 0, 70, ""}, {Step::find, 7, 0, 70, ""}, {Step::take, 7, 0, 70, ""},
      {Step::find, 7, 0, -1, ""}},
     0},
    {"a handle taken may be made again",
     {{Step::insert, 3, 30, 30, ""}, {Step::take, 3, 0, 30, ""}, {Step::insert, 3, 31, 31, ""},
      {Step::get, 3, 0, 31, ""}},
     1},
    {"find is quiet about handles naming nothing, and about 0",
     {{Step::find, 9, 0, -1, ""}, {Step::find, 0, 0, -1, ""}},
     0},
    {"get of a handle naming nothing is a violation",
     {{Step::get, 9, 0, -1, "novem-test: UPDATE_BUFFER: buffer 9 does not exist; the command is skipped\n"}},
     0},
    {"a CREATE of a handle naming an object is refused, and the object stays",
     {{Step::insert, 4, 40, 40, ""},
      {Step::insert, 4, 41, -1, "novem-test: CREATE_BUFFER: buffer 4 already exists; the command is skipped\n"},
      {Step::get, 4, 0, 40, ""}},
     1},
    {"a CREATE of handle 0 is refused",
     {{Step::insert, 0, 1, -1, "novem-test: CREATE_BUFFER: buffer 0 is no handle; the command is skipped\n"},
      {Step::find, 0, 0, -1, ""}},
     0},
    {"a DESTROY of a handle naming nothing is a violation; of 0, nothing",
     {{Step::take, 0, 0, -1, ""},
      {Step::take, 5, 0, -1, "novem-test: DESTROY_BUFFER: buffer 5 does not exist; the command is skipped\n"}},
     0},
    {"vacant answers whether a CREATE may use the handle, with the line insert would write",
     {{Step::vacant, 8, 0, 1, ""}, {Step::insert, 8, 80, 80, ""},
      {Step::vacant, 8, 0, 0, "novem-test: CREATE_BUFFER: buffer 8 already exists; the command is skipped\n"},
      {Step::vacant, 0, 0, 0, "novem-test: CREATE_BUFFER: buffer 0 is no handle; the command is skipped\n"}},
     1},
    {"handles far apart are held apart",
     {{Step::insert, 1, 1, 1, ""}, {Step::insert, 0xFFFFFFFF, 2, 2, ""}, {Step::insert, 1u << 20, 3, 3, ""},
      {Step::get, 1, 0, 1, ""}, {Step::get, 0xFFFFFFFF, 0, 2, ""}, {Step::get, 1u << 20, 0, 3, ""}},
     3},
};

} // namespace

TEST_CASE("handle table: objects under handles, and one line per violation", "[handle_table]") {
  for (const Case &c : kCases) {
    CAPTURE(c.name);
    LogFile file;
    novem::Logger logger(nullptr, file.path.c_str());
    novem::ContractViolations violations("novem-test", logger);
    novem::HandleTable<int> table("buffer", violations);
    std::string expected_log;
    for (size_t i = 0; i < c.steps.size(); ++i) {
      const Step &s = c.steps[i];
      CAPTURE(i);
      int answer = -1;
      switch (s.kind) {
      case Step::vacant:
        answer = table.vacant(s.handle, NV_OP_CREATE_BUFFER) ? 1 : 0;
        break;
      case Step::insert:
        if (const int *p = table.insert(s.handle, s.value, NV_OP_CREATE_BUFFER)) answer = *p;
        break;
      case Step::get:
        if (const int *p = table.get(s.handle, NV_OP_UPDATE_BUFFER)) answer = *p;
        break;
      case Step::find:
        if (const int *p = table.find(s.handle)) answer = *p;
        break;
      case Step::take:
        if (std::optional<int> slot = table.take(s.handle, NV_OP_DESTROY_BUFFER)) answer = *slot;
        break;
      }
      CHECK(answer == s.expected);
      expected_log += s.line;
      CHECK(file.text() == expected_log);
    }
    CHECK(table.size() == c.left);
  }
}

TEST_CASE("handle table: owned objects keep their address, and leave with take", "[handle_table]") {
  LogFile file;
  novem::Logger logger(nullptr, file.path.c_str());
  novem::ContractViolations violations("novem-test", logger);
  novem::HandleTable<std::unique_ptr<std::string>> table("image", violations);
  std::string *red = table.insert(1, std::make_unique<std::string>("red"), NV_OP_CREATE_IMAGE);
  REQUIRE(red);
  for (uint32_t h = 2; h < 1000; ++h) table.insert(h, std::make_unique<std::string>("other"), NV_OP_CREATE_IMAGE);
  CHECK(table.find(1) == red); // the table grew around it
  std::optional<std::unique_ptr<std::string>> taken = table.take(1, NV_OP_DESTROY_IMAGE);
  REQUIRE(taken);
  CHECK(taken->get() == red);
  CHECK(table.find(1) == nullptr);
  CHECK(file.text().empty());
}

TEST_CASE("handle table: violations past the budget are one more line, then silence", "[handle_table]") {
  LogFile file;
  novem::Logger logger(nullptr, file.path.c_str());
  novem::ContractViolations violations("novem-test", logger);
  novem::HandleTable<int> images("image", violations);
  novem::HandleTable<int> shaders("shader", violations);
  for (int i = 0; i < novem::ContractViolations::kReported; ++i) images.get(100, NV_OP_READ_IMAGE);
  shaders.take(5, NV_OP_DESTROY_SHADER); // one budget for every table of a device
  shaders.take(6, NV_OP_DESTROY_SHADER);
  std::string expected;
  for (int i = 0; i < novem::ContractViolations::kReported; ++i)
    expected += "novem-test: READ_IMAGE: image 100 does not exist; the command is skipped\n";
  expected += "novem-test: further messages suppressed\n";
  CHECK(file.text() == expected);
}
