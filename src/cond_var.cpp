// wsync::CondVar's sleep and notify, and the wsync_cond_* C API.
#include "wsync/cond_var.hpp"

#include "async.hpp"
#include "c_boundary.hpp"
#include "mutex_waiter.hpp"
#include "wsync/detail/access.hpp"

using wsync::detail::Access;

namespace wsync {
namespace detail {

namespace {

// Sleeps while the sequence number is still `seq`: any notify changes it.
class SeqWaiter {
 public:
  SeqWaiter(std::atomic<uint32_t>& word, uint32_t seq, Deadline deadline) noexcept
      : word_(word), seq_(seq), deadline_(deadline) {}

  Step attempt(Spinner& spin) noexcept {
    // Relaxed: the caller's lock orders the data; seq only says "look again".
    if (spin.while_equal(word_, seq_, Awaited::kEvent) != seq_) return Step::done(true);
    return Step::sleep_while(word_, seq_);
  }
  Step on_timeout() noexcept { return Step::done(word_.load(std::memory_order_relaxed) != seq_); }
  Deadline deadline() const noexcept { return deadline_; }

 private:
  std::atomic<uint32_t>& word_;
  uint32_t seq_;
  Deadline deadline_;
};

#ifdef __EMSCRIPTEN__
// The async wait: sleep on seq (until notified or the deadline), then relock
// the Mutex through its CONTENDED path, however long that takes (a
// condition variable always returns with its lock held).
class CondWaiter {
 public:
  CondWaiter(CondVar& cv, Mutex& m, uint32_t seq, Deadline deadline) noexcept
      : cv_(cv),
        seq_waiter_(Access::native_word(cv), seq, deadline),
        mutex_waiter_(Access::native_word(m), Deadline::never(), true) {}

  Step attempt(Spinner& spin) noexcept {
    if (!relocking_) {
      const Step step = seq_waiter_.attempt(spin);
      if (!step.finished) return step;
      start_relock(step.ok);
    }
    const Step step = mutex_waiter_.attempt(spin);
    return step.finished ? Step::done(notified_) : step;
  }

  Step on_timeout() noexcept {
    start_relock(seq_waiter_.on_timeout().ok);
    return Step::go_on();
  }

  Deadline deadline() const noexcept { return relocking_ ? Deadline::never() : seq_waiter_.deadline(); }

  void slept(int64_t from_ns, int64_t to_ns, bool woken) noexcept {
    if (relocking_) mutex_waiter_.slept(from_ns, to_ns, woken);
  }

 private:
  void start_relock(bool notified) noexcept {
    Access::end_wait(cv_);
    notified_ = notified;
    relocking_ = true;
  }

  CondVar& cv_;
  SeqWaiter seq_waiter_;
  MutexWaiter mutex_waiter_;
  bool relocking_ = false;
  bool notified_ = false;
};
#endif

}  // namespace
}  // namespace detail

bool CondVar::sleep(uint32_t seq, detail::Deadline deadline) noexcept {
  detail::SeqWaiter waiter(seq_, seq, deadline);
  return detail::wait_blocking(waiter);
}

void CondVar::notify_slow(uint32_t count) noexcept {
  // Relaxed: the futex compares and wakes atomically with respect to this
  // word; the data the waiter looks at is ordered by the lock.
  seq_.fetch_add(1, std::memory_order_relaxed);
  detail::futex_wake(seq_, count);
}

#ifdef __EMSCRIPTEN__
void CondVar::start_async(Mutex& m, detail::AsyncCallback callback, double timeout_ms) noexcept {
  const detail::Deadline deadline = detail::deadline_after_ms(timeout_ms);
  // Misuse is reported before the caller's mutex is touched.
  if (callback.function == nullptr) detail::fatal("wsync: NULL callback");
  // As every wait: register and unlock now, under the caller's lock.
  const uint32_t seq = begin_wait();
  m.unlock();
  detail::wait_async(detail::CondWaiter(*this, m, seq, deadline), callback);
}
#endif

}  // namespace wsync

using wsync::detail::as_cxx;
using wsync::detail::deadline_after_ms;

extern "C" {

void wsync_cond_wait(wsync_cond_t* c, wsync_mutex_t* m) {
  wsync::CondVar& cv = as_cxx(c);
  cv.wait(as_cxx(m));
}

bool wsync_cond_wait_timeout(wsync_cond_t* c, wsync_mutex_t* m, double ms) {
  wsync::CondVar& cv = as_cxx(c);
  wsync::Mutex& mutex = as_cxx(m);
  return Access::wait_until_deadline(cv, mutex, deadline_after_ms(ms)) == std::cv_status::no_timeout;
}

void wsync_cond_signal(wsync_cond_t* c) { as_cxx(c).notify_one(); }

void wsync_cond_broadcast(wsync_cond_t* c) { as_cxx(c).notify_all(); }

#ifdef __EMSCRIPTEN__
void wsync_cond_wait_async(wsync_cond_t* c, wsync_mutex_t* m, wsync_async_callback callback, void* user, double ms) {
  wsync::CondVar& cv = as_cxx(c);
  Access::start_async(cv, as_cxx(m), wsync::detail::AsyncCallback{callback, user}, ms);
}
#endif

}  // extern "C"
