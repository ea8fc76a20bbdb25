// wsync/detail/counter_word.hpp: the word layout WaitGroup and Latch share.
//
//   | bit 31  | bits 30..0                  |
//   |---------|-----------------------------|
//   | WAITERS | counter (0 .. 2^31 - 1)     |
//
// WAITERS means "an agent may be asleep on this word". Waiters set it before
// they sleep; the change that brings the counter to zero clears it in the
// same atomic step and then wakes everyone, so nobody is notified while
// nobody waits. The algorithm is in src/counter.hpp.
#pragma once

#include <cstdint>

namespace wsync {
namespace detail {

inline constexpr uint32_t kCounterWaiters = 0x8000'0000u;  // bit 31: sleepers possible
inline constexpr uint32_t kCounterMask = 0x7fff'ffffu;     // bits 30..0: the counter

}  // namespace detail
}  // namespace wsync
