// The retire queue alone: items come back once their serial has completed, in serial order and,
// within a serial, in the order pushed, whatever order they were pushed in.
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "novem/retire_queue.hpp"

namespace {

// push: item `value` held until serial `serial`. release: everything up to `serial` completed;
// `expected` is what comes back, in order. take: the oldest item if its serial is at most
// `serial`; `expected` is it (one value) or nothing.
struct Step {
  enum Kind { push, release, take } kind;
  uint64_t serial;
  std::vector<int> expected; // release, take: what comes back; push: {the item}
};

struct Case {
  const char *name;
  std::vector<Step> steps;
  size_t left; // items still held after the steps
};

const Case kCases[] = {
    {"in order: each completed serial gives back its items, the rest wait",
     {{Step::push, 1, {10}}, {Step::push, 2, {20}}, {Step::push, 3, {30}}, {Step::release, 0, {}},
      {Step::release, 2, {10, 20}}, {Step::release, 2, {}}},
     1},
    {"items of one serial come back in the order pushed",
     {{Step::push, 5, {1}}, {Step::push, 5, {2}}, {Step::push, 5, {3}}, {Step::release, 5, {1, 2, 3}}},
     0},
    {"an older serial pushed after newer ones comes back first",
     {{Step::push, 4, {40}}, {Step::push, 6, {60}}, {Step::push, 2, {20}}, {Step::push, 5, {50}},
      {Step::release, 4, {20, 40}}, {Step::release, 9, {50, 60}}},
     0},
    {"an older serial goes behind the items of its own serial already held",
     {{Step::push, 3, {1}}, {Step::push, 7, {2}}, {Step::push, 3, {3}}, {Step::release, 3, {1, 3}}},
     1},
    {"a serial completed already comes back at the next release",
     {{Step::release, 8, {}}, {Step::push, 3, {30}}, {Step::release, 8, {30}}},
     0},
    {"take gives the oldest item once its serial has completed, one at a time",
     {{Step::push, 2, {20}}, {Step::push, 1, {10}}, {Step::push, 4, {40}}, {Step::take, 0, {}},
      {Step::take, 3, {10}}, {Step::take, 3, {20}}, {Step::take, 3, {}}, {Step::take, 4, {40}}},
     0},
    {"nothing held gives nothing back", {{Step::release, ~uint64_t(0), {}}, {Step::take, ~uint64_t(0), {}}}, 0},
};

} // namespace

TEST_CASE("retire queue: items come back by serial", "[retire_queue]") {
  for (const Case &c : kCases) {
    CAPTURE(c.name);
    novem::RetireQueue<int> queue;
    for (size_t i = 0; i < c.steps.size(); ++i) {
      const Step &s = c.steps[i];
      CAPTURE(i);
      if (s.kind == Step::push) {
        queue.push(s.serial, s.expected.at(0));
      } else if (s.kind == Step::release) {
        std::vector<int> back;
        queue.release(s.serial, [&](int &item) { back.push_back(item); });
        CHECK(back == s.expected);
      } else {
        int item = -1;
        const bool took = queue.take(s.serial, item);
        CHECK(took == !s.expected.empty());
        if (took) CHECK(item == s.expected.at(0));
      }
    }
    CHECK(queue.size() == c.left);
    CHECK(queue.empty() == (c.left == 0));
  }
}

TEST_CASE("retire queue: callables are called, and may push while they are", "[retire_queue]") {
  novem::RetireQueue<std::function<void()>> queue;
  std::string calls;
  queue.push(2, [&] { calls += "b"; });
  queue.push(1, [&] {
    calls += "a";
    queue.push(1, [&] { calls += "c"; }); // completed already: called in this release, by serial
    queue.push(3, [&] { calls += "d"; }); // not yet
  });
  queue.release(2);
  CHECK(calls == "acb");
  CHECK(queue.size() == 1);
  queue.release(3);
  CHECK(calls == "acbd");
  CHECK(queue.empty());
}

TEST_CASE("retire queue: items that own memory are moved, never copied", "[retire_queue]") {
  novem::RetireQueue<std::unique_ptr<int>> queue;
  queue.push(1, std::make_unique<int>(7));
  queue.push(1, std::make_unique<int>(8));
  std::vector<int> freed;
  queue.release(1, [&](std::unique_ptr<int> &p) { freed.push_back(*p); });
  CHECK(freed == std::vector<int>{7, 8});
  queue.push(2, std::make_unique<int>(9));
  queue.clear(); // what is held is destroyed with the queue's entries
  CHECK(queue.empty());
}

TEST_CASE("retire queue: newest is the serial after which nothing is held", "[retire_queue]") {
  novem::RetireQueue<int> queue;
  CHECK(queue.newest() == 0);
  queue.push(5, 1);
  queue.push(3, 2);
  CHECK(queue.newest() == 5);
  queue.release(4, [](int) {});
  CHECK(queue.newest() == 5);
  queue.release(5, [](int) {});
  CHECK(queue.newest() == 0);
}
