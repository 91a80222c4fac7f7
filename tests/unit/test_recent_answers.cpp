// novem::RecentAnswers: the plugins' memo of their sampler and pipeline caches' last answers.
#include <catch2/catch.hpp>

#include "novem/recent_answers.hpp"

TEST_CASE("recent answers keep the last N misses, and clear forgets them", "[recent_answers]") {
  novem::RecentAnswers<int, char, 2> recent;
  CHECK(recent.find(1) == nullptr);
  recent.remember(1, 'a');
  REQUIRE(recent.find(1) != nullptr);
  CHECK(*recent.find(1) == 'a');
  recent.remember(2, 'b');
  // Alternating between the two finds both, whatever the order.
  for (int i = 0; i < 4; ++i) {
    REQUIRE(recent.find(1 + i % 2) != nullptr);
    CHECK(*recent.find(1 + i % 2) == "ab"[i % 2]);
  }
  // A third one pushes out the one remembered first.
  recent.remember(3, 'c');
  CHECK(recent.find(1) == nullptr);
  REQUIRE(recent.find(2) != nullptr);
  CHECK(*recent.find(2) == 'b');
  REQUIRE(recent.find(3) != nullptr);
  CHECK(*recent.find(3) == 'c');
  recent.clear();
  CHECK(recent.find(2) == nullptr);
  CHECK(recent.find(3) == nullptr);
}
