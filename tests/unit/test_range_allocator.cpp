// The range allocator alone: first fit, alignment, coalescing, and what is left after frees.
#include <catch2/catch.hpp>

#include <vector>

#include "novem/range_allocator.hpp"

namespace {

constexpr uint64_t kNone = novem::RangeAllocator::kNone;

// take: bytes, alignment -> the offset expected. give: the range [offset, offset + bytes) back.
struct Step {
  enum Kind { take, give } kind;
  uint64_t a, b;     // take: bytes, alignment; give: offset, bytes
  uint64_t expected; // take: the offset; give: unused
};

struct Case {
  const char *name;
  uint64_t size;
  std::vector<Step> steps;
  uint64_t used_after;
};

const Case kCases[] = {
    {"ranges are taken from the low end, one after another", 1024,
     {{Step::take, 100, 1, 0}, {Step::take, 100, 1, 100}, {Step::take, 824, 1, 200}, {Step::take, 1, 1, kNone}},
     1024},
    {"an aligned offset leaves the gap before it free for a later fit", 1024,
     {{Step::take, 10, 1, 0}, {Step::take, 100, 256, 256}, {Step::take, 200, 1, 10}, {Step::take, 46, 1, 210}},
     356},
    {"alignment need not be a power of two", 1000,
     {{Step::take, 7, 1, 0}, {Step::take, 10, 24, 24}, {Step::take, 10, 24, 48}},
     27},
    {"a request larger than every free range gets nothing, and takes nothing", 512,
     {{Step::take, 200, 1, 0}, {Step::take, 400, 1, kNone}, {Step::take, 312, 1, 200}},
     512},
    {"a freed range is reused first fit", 1024,
     {{Step::take, 100, 1, 0}, {Step::take, 100, 1, 100}, {Step::give, 0, 100, 0}, {Step::take, 50, 1, 0},
      {Step::take, 60, 1, 200}},
     210},
    {"freeing the middle range between two free ones merges all three", 300,
     {{Step::take, 100, 1, 0}, {Step::take, 100, 1, 100}, {Step::take, 100, 1, 200}, {Step::give, 0, 100, 0},
      {Step::give, 200, 100, 0}, {Step::give, 100, 100, 0}, {Step::take, 300, 1, 0}},
     300},
    {"a range freed before its neighbour merges with the one after", 300,
     {{Step::take, 100, 1, 0}, {Step::take, 100, 1, 100}, {Step::give, 100, 100, 0}, {Step::give, 0, 100, 0},
      {Step::take, 300, 1, 0}},
     300},
    {"a range freed after its neighbour merges with the one before", 300,
     {{Step::take, 100, 1, 0}, {Step::take, 100, 1, 100}, {Step::take, 100, 1, 200}, {Step::give, 0, 100, 0},
      {Step::give, 100, 100, 0}, {Step::take, 200, 1, 0}},
     300},
    {"every range given back leaves nothing used", 4096,
     {{Step::take, 1000, 256, 0}, {Step::take, 1000, 256, 1024}, {Step::give, 0, 1000, 0}, {Step::give, 1024, 1000, 0}},
     0},
    {"an empty allocator gives nothing", 0, {{Step::take, 1, 1, kNone}}, 0},
};

} // namespace

TEST_CASE("range allocator: first fit, alignment and coalescing", "[range_allocator]") {
  for (const Case &c : kCases) {
    CAPTURE(c.name);
    novem::RangeAllocator ranges(c.size);
    for (size_t i = 0; i < c.steps.size(); ++i) {
      const Step &s = c.steps[i];
      CAPTURE(i);
      if (s.kind == Step::take) CHECK(ranges.take(s.a, s.b) == s.expected);
      else ranges.give_back(s.a, s.b);
    }
    CHECK(ranges.used() == c.used_after);
  }
}
