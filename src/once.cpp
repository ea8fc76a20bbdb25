// wsync::Once's slow path and the wsync_once_* C API.
#include "wsync/once.hpp"

#include "async.hpp"
#include "c_boundary.hpp"
#include "waiter.hpp"
#include "wsync/detail/access.hpp"

using wsync::detail::Access;

namespace wsync {
namespace detail {

namespace {

// Waits while another caller runs f. Finishes true when the caller must run
// f (it moved the word to RUNNING), false when f has completed.
class OnceWaiter {
 public:
  explicit OnceWaiter(std::atomic<uint32_t>& state) noexcept : state_(state) {}

  Step attempt(Spinner& spin) noexcept {
    // Acquire: pairs with the release that stored COMPLETE (or INCOMPLETE).
    uint32_t s = state_.load(std::memory_order_acquire);
    for (;;) {
      switch (s) {
        case Once::kComplete:
          return Step::done(false);
        case Once::kIncomplete:
          if (state_.compare_exchange_weak(s, Once::kRunning, std::memory_order_acquire, std::memory_order_acquire)) {
            return Step::done(true);
          }
          continue;
        case Once::kRunning:
          // f may be quick: look a little before announcing a sleeper (a
          // change the spin returns was read with acquire: a COMPLETE makes
          // f's writes visible).
          if ((s = spin.while_equal(state_, Once::kRunning, Awaited::kEvent)) != Once::kRunning) continue;
          if (!state_.compare_exchange_weak(s, Once::kQueued, std::memory_order_acquire, std::memory_order_acquire)) {
            continue;
          }
          return Step::sleep_while(state_, Once::kQueued);
        case Once::kQueued:
          return Step::sleep_while(state_, Once::kQueued);
        default:
          fatal("wsync: corrupted Once word");
      }
    }
  }

  Step on_timeout() noexcept { return Step::go_on(); }  // never: no deadline
  Deadline deadline() const noexcept { return Deadline::never(); }

 private:
  std::atomic<uint32_t>& state_;
};

#ifdef __EMSCRIPTEN__
// The async call: wait as OnceWaiter does; if it is ours to run, run fn right
// there (on the event loop) and finish. `completed` (null from C, which has
// no exceptions) then says whether fn ran f to the end: C++'s fn catches
// what f throws, as a throw may not pass through this driver, which is
// built without exception support (call_once_async in wsync/once.hpp).
class OnceCaller {
 public:
  OnceCaller(Once& once, void (*fn)(void*), bool (*completed)(void*), void* arg) noexcept
      : once_(once), waiter_(Access::native_word(once)), fn_(fn), completed_(completed), arg_(arg) {}

  // Finishes true, unless f was ours to run and threw.
  Step attempt(Spinner& spin) noexcept {
    const Step step = waiter_.attempt(spin);
    if (!step.finished) return step;
    if (!step.ok) return Step::done(true);  // f completed elsewhere
    fn_(arg_);
    const bool completed = completed_ == nullptr || completed_(arg_);
    Access::finish(once_, completed);  // if f threw: INCOMPLETE, and another caller runs it
    return Step::done(completed);
  }
  Step on_timeout() noexcept { return Step::go_on(); }
  Deadline deadline() const noexcept { return Deadline::never(); }

 private:
  Once& once_;
  OnceWaiter waiter_;
  void (*fn_)(void*);
  bool (*completed_)(void*);
  void* arg_;
};
#endif

}  // namespace
}  // namespace detail

bool Once::begin() noexcept {
  detail::OnceWaiter waiter(state_);
  return detail::wait_blocking(waiter);
}

void Once::finish(bool completed) noexcept {
  // Release: f's effects happen-before every acquire load that sees COMPLETE.
  const uint32_t previous = state_.exchange(completed ? kComplete : kIncomplete, std::memory_order_release);
  if (previous == kQueued) {
    // Everyone: on COMPLETE they all return; on INCOMPLETE one of them wins
    // the CAS and runs f, the others queue again.
    detail::futex_wake_all(state_);
  } else if (previous != kRunning) {
    detail::fatal("wsync: corrupted Once word");
  }
}

#ifdef __EMSCRIPTEN__
void Once::start_async(void (*fn)(void*), bool (*completed)(void*), void* arg,
                       detail::AsyncCallback callback) noexcept {
  if (fn == nullptr) detail::fatal("wsync: NULL function");
  detail::wait_async(detail::OnceCaller(*this, fn, completed, arg), callback);
}
#endif

}  // namespace wsync

using wsync::detail::as_cxx;

extern "C" {

void wsync_call_once(wsync_once_t* once, void (*fn)(void*), void* arg) {
  wsync::Once& o = as_cxx(once);
  if (fn == nullptr) wsync::detail::fatal("wsync: NULL function");
  wsync::call_once(o, fn, arg);
}

bool wsync_once_is_complete(wsync_once_t* once) { return as_cxx(once).is_complete(); }

#ifdef __EMSCRIPTEN__
void wsync_call_once_async(wsync_once_t* once, void (*fn)(void*), void* arg, wsync_async_callback callback,
                           void* user) {
  Access::start_async(as_cxx(once), fn, nullptr, arg, wsync::detail::AsyncCallback{callback, user});
}
#endif

}  // extern "C"
