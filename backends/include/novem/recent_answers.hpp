// The last answers of a cache lookup, shared by the plugins' sampler and pipeline
// caches. A state change per draw mostly alternates between a few values (two textures with one
// sampler state, two shader pairs), and comparing a key with a few recent ones costs less than
// hashing it: the cache asks here first and tells here what it answered.
#pragma once

#include <array>
#include <cstddef>

namespace novem {

template <class Key, class Value, size_t N = 1> class RecentAnswers {
public:
  // The answer remembered for key; nullptr when it is not among them. A hit writes nothing: the
  // hot path of a lookup that alternates stays a compare or two.
  const Value *find(const Key &key) const {
    for (size_t i = 0; i < count_; ++i)
      if (keys_[i] == key) return &values_[i];
    return nullptr;
  }

  // Remembers (key, value), the answer to a key find() did not have; the one remembered first
  // goes when all N are taken.
  void remember(const Key &key, const Value &value) {
    if (count_ < N) ++count_;
    for (size_t i = count_ - 1; i > 0; --i) keys_[i] = keys_[i - 1], values_[i] = values_[i - 1];
    keys_[0] = key;
    values_[0] = value;
  }

  // Forgets every answer (the cache dropped entries they may name).
  void clear() { count_ = 0; }

private:
  std::array<Key, N> keys_{};
  std::array<Value, N> values_{};
  size_t count_ = 0;
};

} // namespace novem
