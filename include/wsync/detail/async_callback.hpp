// wsync/detail/async_callback.hpp: what the C++ async members (wasm only)
// hand to their primitive's one asynchronous start, which the C API
// (wsync/async.h) calls too: a callback in the C form.
#pragma once

#ifdef __EMSCRIPTEN__
#include <limits>
#include <memory>
#include <utility>

#include "wsync/async.h"

namespace wsync {
namespace detail {

// The default timeout of the async members: none (INFINITY, without <cmath>).
inline constexpr double kNoTimeout = std::numeric_limits<double>::infinity();

// A callback as the C API takes it: called once, from the event loop.
struct AsyncCallback {
  wsync_async_callback function;
  void* user;
};

// Moves `callback`, a callable taking the bool result, to the heap, to be
// called once. The call moves it back to the stack and frees the heap copy
// first, so a callback that throws leaks nothing, and a trivially
// destructible one (a lambda capturing pointers and numbers) leaves no
// cleanup around the call: built with JavaScript-based exceptions
// (-fexceptions), a call inside a cleanup goes through an invoke_ wrapper
// in JavaScript, which cost a main-thread wake about 5 us in Chromium.
template <class Callback>
AsyncCallback async_callback(Callback callback) {
  return {[](void* user, bool ok) {
            Callback f = [user] {
              const std::unique_ptr<Callback> stored(static_cast<Callback*>(user));  // freed also if the move throws
              return std::move(*stored);
            }();
            f(ok);
          },
          new Callback(std::move(callback))};
}

}  // namespace detail
}  // namespace wsync
#endif
