// wsync::Mutex slow paths (the lock loop is src/mutex_waiter.hpp), misuse,
// and the wsync_mutex_* C API.
#include "wsync/mutex.hpp"

#include <cstdint>

#include "async.hpp"
#include "c_boundary.hpp"
#include "mutex_waiter.hpp"
#include "wsync/detail/access.hpp"

using wsync::detail::Access;

namespace wsync {

namespace detail {
namespace {
// When each lock may next ask for a handoff, in steady-clock ns, hashed by
// the word's address as WebKit's ParkingLot keeps its fair-unlock time per
// bucket. Locks that share a slot share a gate: that only spaces their
// handoffs out, it never holds a request back longer than twice the bound
// (handoff_gate_open). Release and acquire make a gate the reader sees
// at least the closer's; beyond that it is a heuristic: a lost or stale value
// lets a handoff more or less through.
constexpr int kGateBits = 6;
std::atomic<int64_t> g_next_handoff_ns[1 << kGateBits];

std::atomic<int64_t>& gate_of(const std::atomic<uint32_t>& word) noexcept {
  const auto address = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(&word) >> 2);
  return g_next_handoff_ns[(address * 0x9E3779B1u) >> (32 - kGateBits)];  // Fibonacci hashing
}
}  // namespace

int64_t handoff_gate(const std::atomic<uint32_t>& word) noexcept {
  return gate_of(word).load(std::memory_order_acquire);
}

void close_handoff_gate(const std::atomic<uint32_t>& word, int64_t now_ns) noexcept {
  gate_of(word).store(now_ns + handoff_after_ns(), std::memory_order_release);
}
}  // namespace detail

bool Mutex::lock_contended(detail::Deadline deadline, bool as_contended) noexcept {
  detail::MutexWaiter waiter(state_, deadline, as_contended);
  return detail::wait_blocking(waiter);
}

void Mutex::unlock_slow(uint32_t previous) noexcept {
  if (previous == kContended || previous == kStarving) {
    // Freed, or handed off: either way a sleeper must look. The handoff
    // reaches one that has slept, since only such a waiter takes HANDOFF.
    detail::futex_wake_one(state_);
  } else if (previous == kUnlocked || previous == kHandoff) {
    detail::fatal("wsync: unlock of unlocked Mutex");  // the AND changed nothing
  } else {
    detail::fatal("wsync: corrupted Mutex word");
  }
}

#ifdef __EMSCRIPTEN__
void Mutex::start_async(detail::AsyncCallback callback, double timeout_ms) noexcept {
  detail::wait_async(detail::MutexWaiter(state_, detail::deadline_after_ms(timeout_ms)), callback);
}
#endif

}  // namespace wsync

using wsync::detail::as_cxx;
using wsync::detail::deadline_after_ms;

extern "C" {

void wsync_mutex_lock(wsync_mutex_t* m) { as_cxx(m).lock(); }

bool wsync_mutex_trylock(wsync_mutex_t* m) { return as_cxx(m).try_lock(); }

bool wsync_mutex_lock_timeout(wsync_mutex_t* m, double ms) {
  wsync::Mutex& mutex = as_cxx(m);
  return Access::try_lock_until_deadline(mutex, deadline_after_ms(ms));
}

void wsync_mutex_unlock(wsync_mutex_t* m) { as_cxx(m).unlock(); }

#ifdef __EMSCRIPTEN__
void wsync_mutex_lock_async(wsync_mutex_t* m, wsync_async_callback callback, void* user, double ms) {
  Access::start_async(as_cxx(m), wsync::detail::AsyncCallback{callback, user}, ms);
}
#endif

}  // extern "C"
