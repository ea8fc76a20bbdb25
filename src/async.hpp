// The event-loop driver of waiters (wasm only): what the async C API
// (wsync/async.h) is built on. See src/waiter.hpp for waiters, and
// src/async_wasm.cpp for the driver.
#pragma once

#ifdef __EMSCRIPTEN__
#include <utility>

#include "waiter.hpp"
#include "wsync/async.h"

namespace wsync {
namespace detail {

// One asynchronous wait in progress, of any waiter type.
class AsyncWait {
 public:
  AsyncWait(wsync_async_callback callback, void* user) noexcept : callback(callback), user(user) {}
  AsyncWait(const AsyncWait&) = delete;
  AsyncWait& operator=(const AsyncWait&) = delete;
  virtual ~AsyncWait() = default;
  virtual Step attempt(Spinner& spin) noexcept = 0;
  virtual Step on_timeout() noexcept = 0;
  virtual Deadline deadline() const noexcept = 0;
  virtual void woken() noexcept = 0;

  const wsync_async_callback callback;
  void* const user;
};

template <class Waiter>
class AsyncWaiter final : public AsyncWait {
 public:
  AsyncWaiter(Waiter waiter, wsync_async_callback callback, void* user) noexcept
      : AsyncWait(callback, user), waiter_(std::move(waiter)) {}
  Step attempt(Spinner& spin) noexcept override { return waiter_.attempt(spin); }
  Step on_timeout() noexcept override { return waiter_.on_timeout(); }
  Deadline deadline() const noexcept override { return waiter_.deadline(); }
  void woken() noexcept override { note_woken(waiter_); }

 private:
  Waiter waiter_;
};

// Takes ownership of `wait`; its first attempt runs from the event loop, and
// callback(user, ok) runs once it finishes, never inside this call.
void start_async(AsyncWait* wait) noexcept;

template <class Waiter>
void start_async(Waiter waiter, wsync_async_callback callback, void* user) noexcept {
  if (callback == nullptr) fatal("wsync: NULL callback");
  start_async(new AsyncWaiter<Waiter>(std::move(waiter), callback, user));
}

}  // namespace detail
}  // namespace wsync
#endif
