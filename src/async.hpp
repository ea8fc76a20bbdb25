// The event-loop driver of waiters (wasm only): what the async C API
// (wsync/async.h) is built on. See src/waiter.hpp for waiters, and
// src/async_wasm.cpp for the driver.
#pragma once

#ifdef __EMSCRIPTEN__
#include <utility>

#include "waiter.hpp"
#include "wsync/detail/async_callback.hpp"

namespace wsync {
namespace detail {

// One asynchronous wait in progress, of any waiter type.
class AsyncWait {
 public:
  explicit AsyncWait(AsyncCallback callback) noexcept : callback(callback) {}
  AsyncWait(const AsyncWait&) = delete;
  AsyncWait& operator=(const AsyncWait&) = delete;
  virtual ~AsyncWait() = default;
  virtual Step attempt(Spinner& spin) noexcept = 0;
  virtual Step on_timeout() noexcept = 0;
  virtual Deadline deadline() const noexcept = 0;
  // Around each sleep: so that a waiter with slept() hears of it. The
  // sleep's start is the spin's reading; its end is left to the waiter to
  // read if it needs it (kNoReading), so the usual wake reads no clock.
  virtual void going_to_sleep(Spinner& spin) noexcept = 0;
  virtual void back_from_sleep(Woke how) noexcept = 0;

  const AsyncCallback callback;
};

template <class Waiter>
class AsyncWaiter final : public AsyncWait {
 public:
  AsyncWaiter(Waiter waiter, AsyncCallback callback) noexcept : AsyncWait(callback), waiter_(std::move(waiter)) {}
  Step attempt(Spinner& spin) noexcept override { return waiter_.attempt(spin); }
  Step on_timeout() noexcept override { return waiter_.on_timeout(); }
  Deadline deadline() const noexcept override { return waiter_.deadline(); }
  void going_to_sleep(Spinner& spin) noexcept override {
    if constexpr (HasSlept<Waiter>::value) slept_at_ns_ = spin.sleep_start_ns();
  }
  void back_from_sleep(Woke how) noexcept override {
    if constexpr (HasSlept<Waiter>::value) {
      if (how != Woke::kNotEqual) waiter_.slept(slept_at_ns_, kNoReading, how == Woke::kWoken);
    }
  }

 private:
  Waiter waiter_;
  int64_t slept_at_ns_ = 0;
};

// Takes ownership of `wait`; its first attempt runs from the event loop, and
// its callback runs once it finishes, never inside this call.
void start_wait_async(AsyncWait* wait) noexcept;

// The event-loop driver, as wait_blocking() (src/waiter.hpp) is the blocking
// one: runs `waiter` and calls `callback` with its result.
template <class Waiter>
void wait_async(Waiter waiter, AsyncCallback callback) noexcept {
  if (callback.function == nullptr) fatal("wsync: NULL callback");
  start_wait_async(new AsyncWaiter<Waiter>(std::move(waiter), callback));
}

}  // namespace detail
}  // namespace wsync
#endif
