// wsync/detail/futex.hpp: the wait/wake layer every primitive is built on.
//
// This is the only platform-specific part of wsync. The primitives above it
// are pure algorithms on 32-bit words; below it sits one backend, chosen at
// compile time:
//   - WebAssembly: memory.atomic.wait32 / memory.atomic.notify
//     (src/futex_wasm.cpp), with a non-blocking path for the browser main
//     thread, where wait32 traps;
//   - Linux: the futex(2) syscall, FUTEX_WAIT_PRIVATE / FUTEX_WAKE_PRIVATE
//     (src/futex_linux.cpp), so the same algorithms run natively, under
//     ThreadSanitizer, and against native baselines.
//
// Deadlines are absolute points on a monotonic clock (Deadline::now_ns),
// so a wait that is woken spuriously and goes back to sleep never extends
// its total timeout.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <type_traits>

#ifdef __EMSCRIPTEN__
#include <cmath>

extern "C" double wsync_js_now(void);  // js/library_wsync.js
#endif

namespace wsync {
namespace detail {

// The way into the primitives' internals, for wsync's C API and tests
// (wsync/detail/access.hpp). Each primitive names it its friend.
struct Access;

// Reports misuse and aborts: writes `message` and a newline to stderr, then
// calls abort(). Every message starts with "wsync: " and is tested verbatim.
[[noreturn]] void fatal(const char* message) noexcept;

// An absolute deadline in nanoseconds on now_ns()'s clock.
// kNever means "wait forever". Conversions saturate: a timeout too large to
// represent (past about 285 years less now_ns(): natively steady_clock
// counts from boot; in wasm the clock counts from 1970, which leaves about
// 228; or infinite) becomes kNever, a negative or
// zero one is already expired. A NaN timeout (a floating-point duration or
// time point) is misuse: "wsync: timeout is NaN", as in C.
class Deadline {
 public:
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

  static constexpr Deadline never() noexcept { return Deadline(kNever); }

  // Monotonic now, in ns. Natively steady_clock::now(). In wasm, this
  // thread's performance.now() on an origin every thread shares (the Mutex's
  // handoff gate compares readings of different threads), read with one
  // call into JavaScript (js/library_wsync.js). Not steady_clock there:
  // Emscripten's can move with the wall clock (WebKit), and reading it goes
  // through WASI, which passes the time as a BigInt (on a cold main thread,
  // just woken, that path took about 15 us). A steady_clock time point is
  // mapped onto this clock like any other clock's (at(), below).
  static int64_t now_ns() noexcept {
#ifdef __EMSCRIPTEN__
    return std::llround(wsync_js_now() * 1000 * 1000);
#else
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
#endif
  }

  // A relative timeout in milliseconds (the C API's unit).
  static Deadline after_ms(double ms) noexcept { return after_ns_double(ms * 1e6); }

  template <class Rep, class Period>
  static Deadline after(const std::chrono::duration<Rep, Period>& d) noexcept {
    return after_ns_double(std::chrono::duration<double, std::nano>(d).count());
  }

  // A time point on any clock. Natively, steady_clock's is used directly;
  // any other clock's is mapped onto this one once, through "now" on both
  // clocks (as the standard library does for condition_variable::
  // wait_until), without overflowing at the ends of its range
  // (time_point::min() and max()). wait_until_on_clock, below, then checks
  // the timeout on the caller's clock.
  template <class Clock, class Dur>
  static Deadline at(const std::chrono::time_point<Clock, Dur>& tp) noexcept {
    using DoubleNs = std::chrono::duration<double, std::nano>;
    if constexpr (std::is_same_v<Clock, std::chrono::steady_clock> && kNowIsSteadyClock) {
      const double ns = DoubleNs(tp.time_since_epoch()).count();
      if (ns != ns) fatal("wsync: timeout is NaN");
      if (!(ns < kNeverAsDouble)) return never();
      return Deadline(ns <= 0 ? 0 : static_cast<int64_t>(ns));
    } else {
      const auto now = Clock::now();
      const double ahead = DoubleNs(tp.time_since_epoch()).count() - DoubleNs(now.time_since_epoch()).count();
      if (ahead != ahead) fatal("wsync: timeout is NaN");
      if (!(ahead > 0)) return Deadline(now_ns());
      // Near (under about 11 days): the exact difference, which cannot
      // overflow there; far: the double, whose rounding cannot matter.
      if (ahead < 1e15) return after(tp - now);
      return after_ns_double(ahead);
    }
  }

  constexpr bool is_never() const noexcept { return ns_ == kNever; }
  constexpr int64_t ns() const noexcept { return ns_; }

  // Nanoseconds left, 0 once expired, kNever for never.
  int64_t remaining_ns() const noexcept {
    if (is_never()) return kNever;
    const int64_t left = ns_ - now_ns();
    return left > 0 ? left : 0;
  }

 private:
  // Whether now_ns() reads steady_clock itself, so that a steady_clock
  // time point needs no mapping: natively only.
#ifdef __EMSCRIPTEN__
  static constexpr bool kNowIsSteadyClock = false;
#else
  static constexpr bool kNowIsSteadyClock = true;
#endif
  static constexpr double kNeverAsDouble = 9.0e18;  // below INT64_MAX, far past any uptime

  constexpr explicit Deadline(int64_t ns) noexcept : ns_(ns) {}

  static Deadline after_ns_double(double ns) noexcept {
    if (ns != ns) fatal("wsync: timeout is NaN");
    if (!(ns > 0)) return Deadline(now_ns());  // zero or negative: expired now
    const int64_t now = now_ns();
    if (!(ns < kNeverAsDouble - static_cast<double>(now))) return never();
    return Deadline(now + static_cast<int64_t>(ns));
  }

  int64_t ns_;
};

// A wait until `t` on the caller's own clock. `wait(Deadline)` returns true
// when done, false on timeout. The deadline is mapped onto wsync's
// monotonic clock, which can expire while Clock::now() is still short of
// `t` (a clock that runs slow, moves in coarse steps, or is set back); the
// standard reports a timeout only once Clock::now() >= t
// ([thread.req.timing]), so each timeout is checked on Clock, and the wait
// goes on for what that clock says is left.
template <class Clock, class Dur, class Wait>
bool wait_until_on_clock(const std::chrono::time_point<Clock, Dur>& t, Wait&& wait) {
  for (;;) {
    if (wait(Deadline::at(t))) return true;
    if (!(Clock::now() < t)) return false;
  }
}

// The wait/wake contract (the same three functions on every backend):

// How a futex_wait ended. Callers loop and re-check their word whatever the
// answer (a wake may be spurious); only the Mutex's handoff (src/
// mutex_waiter.hpp) tells a real sleep from a wait that never slept.
enum class Woke : uint8_t {
  kWoken,     // slept and was woken (or spuriously); or a wait that polls
              // instead of sleeping saw the word change (it never queues)
  kNotEqual,  // returned at once: the word did not hold `expected`
  kTimedOut,  // the deadline passed (on the caller's steady clock)
};

// Blocks while `word` holds `expected`, until woken or until `deadline`.
// kTimedOut only once the deadline has passed, never a little early.
Woke futex_wait(const std::atomic<uint32_t>& word, uint32_t expected, Deadline deadline) noexcept;

// Wakes at most `count` agents blocked in futex_wait on `word`.
void futex_wake(const std::atomic<uint32_t>& word, uint32_t count) noexcept;

inline void futex_wake_one(const std::atomic<uint32_t>& word) noexcept { futex_wake(word, 1); }
inline void futex_wake_all(const std::atomic<uint32_t>& word) noexcept { futex_wake(word, UINT32_MAX); }

// The WAITERS bit, bit 31 of the words of WaitGroup, Latch and Barrier's
// phase: "an agent may be asleep on this word". A waiter sets it before it
// sleeps, and the change that releases waiters clears it in the same atomic
// step and then wakes all, so nobody is notified while nobody waits. The
// other 31 bits are the counter or the phase (src/waiter.hpp: WaitersBitWaiter).
inline constexpr uint32_t kWaitersBit = 0x8000'0000u;
inline constexpr uint32_t kCountMask = 0x7fff'ffffu;  // bits 30..0

// A CPU hint inside spin loops: lets the sibling hyper-thread run and saves
// power on x86. WebAssembly has no such instruction; there a read of a local
// stands in for one, so that a spin's backoff (src/waiter.hpp) spaces its
// loads of the shared word without touching that word's cache line.
inline void spin_pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  volatile int local = 0;
  (void)local;
#endif
}

}  // namespace detail
}  // namespace wsync
