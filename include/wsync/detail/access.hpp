// wsync/detail/access.hpp: the way into the primitives' raw words and
// protocol steps, for wsync's C API (src/) and its tests. Not for
// applications: nothing here keeps a primitive's invariants, and a word
// changed through it can break every agent on it.
//
// Each primitive names this struct its friend. The members are templates, so
// this header needs none of the primitives' headers.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

#include "wsync/detail/futex.hpp"

namespace wsync {
namespace detail {

struct Access {
  // The word JavaScript addresses (ptr >> 2): the state of Mutex, WaitGroup,
  // Latch and Once, the count of Semaphore, CondVar's sequence, Barrier's
  // phase.
  template <class Primitive>
  static std::atomic<uint32_t>& native_word(Primitive& p) noexcept {
    return p.native_word();
  }
  template <class Sem>
  static std::atomic<uint32_t>& sleepers_word(Sem& s) noexcept {
    return s.sleepers_word();
  }
  template <class Cv>
  static std::atomic<uint32_t>& waiters_word(Cv& cv) noexcept {
    return cv.waiters_word();
  }

  // The bodies of the timed waits, on a Deadline (the C API's *_timeout).
  template <class M>
  static bool try_lock_until_deadline(M& m, Deadline deadline) noexcept {
    return m.try_lock_until_deadline(deadline);
  }
  template <class Primitive, class... Args>
  static auto wait_until_deadline(Primitive& p, Args&&... args) {
    return p.wait_until_deadline(std::forward<Args>(args)...);
  }
  template <class Sem>
  static bool acquire_until_deadline(Sem& s, Deadline deadline) noexcept {
    return s.acquire_until_deadline(deadline);
  }

  // The one asynchronous start of each primitive (wasm), under the C++
  // async members and the C API's *_async functions.
  template <class Primitive, class... Args>
  static void start_async(Primitive& p, Args&&... args) noexcept {
    p.start_async(std::forward<Args>(args)...);
  }

  // CondVar's registration around a wait the caller drives itself.
  template <class Cv>
  static uint32_t begin_wait(Cv& cv) noexcept {
    return cv.begin_wait();
  }
  template <class Cv>
  static void end_wait(Cv& cv) noexcept {
    cv.end_wait();
  }

  // Once's slow path in two halves, around a call the caller makes.
  template <class O>
  static bool begin(O& once) noexcept {
    return once.begin();
  }
  template <class O>
  static void finish(O& once, bool completed) noexcept {
    once.finish(completed);
  }
};

}  // namespace detail
}  // namespace wsync
