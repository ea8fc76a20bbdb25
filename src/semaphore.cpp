// wsync::Semaphore slow paths and the wsync_sem_* C API.
#include "wsync/semaphore.hpp"

#include <new>

#include "async.hpp"
#include "c_boundary.hpp"
#include "waiter.hpp"
#include "wsync/detail/access.hpp"

using wsync::detail::Access;

namespace wsync {
namespace detail {

namespace {

// Takes a permit, sleeping while there is none.
class SemaphoreWaiter {
 public:
  SemaphoreWaiter(Semaphore& semaphore, Deadline deadline) noexcept : sem_(semaphore), deadline_(deadline) {}

  Step attempt(Spinner& spin) noexcept {
    std::atomic<uint32_t>& count = Access::native_word(sem_);
    for (;;) {
      if (sem_.try_acquire()) return finish(true);
      if (!registered_) {
        // Spin first: a permit that arrives soon then costs its releaser no
        // wake (sleepers is still zero for us).
        if (spin.while_equal(count, 0, Awaited::kRelease) != 0) continue;
        // seq_cst, and the seq_cst re-check below: see the header.
        Access::sleepers_word(sem_).fetch_add(1, std::memory_order_seq_cst);
        registered_ = true;
        continue;
      }
      if (count.load(std::memory_order_seq_cst) != 0) continue;
      return Step::sleep_while(count, 0);
    }
  }

  // One last try: a permit released as we timed out is still ours to take.
  Step on_timeout() noexcept { return finish(sem_.try_acquire()); }
  Deadline deadline() const noexcept { return deadline_; }

 private:
  Step finish(bool ok) noexcept {
    // Relaxed: a releaser that still counts us wakes one agent too many.
    if (registered_) Access::sleepers_word(sem_).fetch_sub(1, std::memory_order_relaxed);
    registered_ = false;
    return Step::done(ok);
  }

  Semaphore& sem_;
  Deadline deadline_;
  bool registered_ = false;
};

}  // namespace
}  // namespace detail

bool Semaphore::acquire_until_deadline(detail::Deadline deadline) noexcept {
  detail::SemaphoreWaiter waiter(*this, deadline);
  return detail::wait_blocking(waiter);
}

void Semaphore::release(ptrdiff_t update) noexcept {
  if (update < 0) detail::fatal("wsync: Semaphore release() of a negative amount");
  if (update == 0) return;
  const uint32_t max = max_.load(std::memory_order_relaxed);
  uint32_t s = count_.load(std::memory_order_relaxed);
  do {
    // A count above the maximum (or a maximum past kMax) is no state: the
    // words were overwritten. Reported, never "repaired".
    if (s > max || max > static_cast<uint32_t>(kMax)) detail::fatal("wsync: corrupted Semaphore words");
    // Checked before anything is stored: misuse never changes the count.
    if (update > static_cast<ptrdiff_t>(max - s)) detail::fatal("wsync: Semaphore released past its maximum");
    // seq_cst: the permit is visible before we read `sleepers` (header), and
    // it includes the release that the acquirer's acquire pairs with.
  } while (!count_.compare_exchange_weak(s, s + static_cast<uint32_t>(update), std::memory_order_seq_cst,
                                         std::memory_order_relaxed));
  // Notify only when someone may sleep; wake as many as there are permits.
  if (sleepers_.load(std::memory_order_seq_cst) != 0) detail::futex_wake(count_, static_cast<uint32_t>(update));
}

#ifdef __EMSCRIPTEN__
void Semaphore::start_async(detail::AsyncCallback callback, double timeout_ms) noexcept {
  detail::wait_async(detail::SemaphoreWaiter(*this, detail::deadline_after_ms(timeout_ms)), callback);
}
#endif

}  // namespace wsync

using wsync::detail::as_cxx;
using wsync::detail::deadline_after_ms;

extern "C" {

void wsync_sem_init(wsync_sem_t* sem, ptrdiff_t initial, ptrdiff_t max) {
  wsync::Semaphore& s = as_cxx(sem);
  new (&s) wsync::Semaphore(initial, max);
}

void wsync_sem_acquire(wsync_sem_t* sem) { as_cxx(sem).acquire(); }

bool wsync_sem_tryacquire(wsync_sem_t* sem) { return as_cxx(sem).try_acquire(); }

bool wsync_sem_acquire_timeout(wsync_sem_t* sem, double ms) {
  wsync::Semaphore& s = as_cxx(sem);
  const wsync::detail::Deadline deadline = deadline_after_ms(ms);
  return s.try_acquire() || Access::acquire_until_deadline(s, deadline);
}

void wsync_sem_release(wsync_sem_t* sem, ptrdiff_t n) { as_cxx(sem).release(n); }

#ifdef __EMSCRIPTEN__
void wsync_sem_acquire_async(wsync_sem_t* sem, wsync_async_callback callback, void* user, double ms) {
  Access::start_async(as_cxx(sem), wsync::detail::AsyncCallback{callback, user}, ms);
}
#endif

}  // extern "C"
