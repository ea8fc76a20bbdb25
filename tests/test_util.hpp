// Helpers shared by the wsync test suites.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace wsync_test {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Waits (politely) until `predicate` holds; false if it did not within
// `limit`. Used to observe that a thread really went to sleep on a word,
// never to assert on speed: the limit is a hang guard, not a target.
template <class Predicate>
bool eventually(Predicate predicate, milliseconds limit = milliseconds(20'000)) {
  const auto give_up = Clock::now() + limit;
  while (!predicate()) {
    if (Clock::now() > give_up) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// Busy work the optimizer cannot delete: `units` dependent steps.
inline uint32_t work(uint32_t units, uint32_t seed = 1) {
  volatile uint32_t x = seed;
  for (uint32_t i = 0; i < units; ++i) x = x * 1103515245u + 12345u;
  return x;
}

// A small per-thread xorshift generator for random delays.
struct Rng {
  uint32_t state;
  explicit Rng(uint32_t seed) : state(seed ? seed : 0x9e3779b9u) {}
  uint32_t next(uint32_t bound) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state % bound;
  }
};

}  // namespace wsync_test
