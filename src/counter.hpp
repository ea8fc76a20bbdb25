// The counter algorithm of WaitGroup and Latch (word layout:
// wsync/detail/counter_word.hpp): change the counter, and wait for zero.
#pragma once

#include "waiters_bit.hpp"
#include "wsync/detail/counter_word.hpp"

namespace wsync {
namespace detail {

static_assert(kCounterWaiters == kWaitersBit, "the counter's WAITERS is the shared bit 31");

// Adds `delta` to the counter. A result below zero aborts with `below_zero`,
// above 2^31 - 1 with `overflow`, before anything is stored. Reaching zero
// clears WAITERS in the same CAS and wakes every sleeper.
void counter_add(std::atomic<uint32_t>& word, int64_t delta, const char* below_zero,
                 const char* overflow) noexcept;

struct CounterIsZero {
  bool operator()(uint32_t count) const noexcept { return count == 0; }
};

// Waits for the counter to reach zero.
using CounterWaiter = WaitersBitWaiter<CounterIsZero>;

inline CounterWaiter counter_waiter(std::atomic<uint32_t>& word, Deadline deadline) noexcept {
  return CounterWaiter(word, CounterIsZero{}, deadline);
}

// Blocks until the counter is zero; false if the deadline passed first.
bool counter_wait(std::atomic<uint32_t>& word, Deadline deadline) noexcept;

}  // namespace detail
}  // namespace wsync
