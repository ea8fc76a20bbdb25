// The Linux backend of the wait/wake layer: futex(2).
//
// FUTEX_*_PRIVATE: wsync words live in one process, so the kernel may key the
// wait queue on the virtual address alone (cheaper than a shared futex).
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <climits>

#include "wsync/detail/futex.hpp"

namespace wsync {
namespace detail {

namespace {

long futex(const std::atomic<uint32_t>& word, int op, uint32_t value, const timespec* timeout) {
  // The kernel reads the word itself; it only needs its address.
  auto* address = const_cast<std::atomic<uint32_t>*>(&word);
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(address), op, value, timeout, nullptr, 0);
}

}  // namespace

Woke futex_wait(const std::atomic<uint32_t>& word, uint32_t expected, Deadline deadline) noexcept {
  for (;;) {
    timespec relative;
    const timespec* timeout = nullptr;
    if (!deadline.is_never()) {
      const int64_t left = deadline.remaining_ns();
      if (left == 0) return Woke::kTimedOut;
      relative.tv_sec = static_cast<time_t>(left / 1'000'000'000);
      relative.tv_nsec = static_cast<long>(left % 1'000'000'000);
      timeout = &relative;
    }
    // The kernel compares the word with `expected` and queues us atomically
    // with respect to futex_wake: a wake after our caller's check is not lost.
    if (futex(word, FUTEX_WAIT_PRIVATE, expected, timeout) == 0) return Woke::kWoken;
    if (errno == EAGAIN) return Woke::kNotEqual;
    // EINTR: it was queued; counted as a wake (the caller re-checks anyway).
    if (errno != ETIMEDOUT) return Woke::kWoken;
    // ETIMEDOUT: loop, so that kTimedOut means the deadline has passed on the
    // clock the caller measures with, never a little early.
  }
}

void futex_wake(const std::atomic<uint32_t>& word, uint32_t count) noexcept {
  // FUTEX_WAKE takes a signed int; INT_MAX is the kernel's "everyone".
  futex(word, FUTEX_WAKE_PRIVATE, count > INT_MAX ? INT_MAX : count, nullptr);
}

}  // namespace detail
}  // namespace wsync
