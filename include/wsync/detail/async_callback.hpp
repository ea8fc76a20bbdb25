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
// called once and then freed.
template <class Callback>
AsyncCallback async_callback(Callback callback) {
  return {[](void* user, bool ok) {
            const std::unique_ptr<Callback> f(static_cast<Callback*>(user));  // freed also if it throws
            (*f)(ok);
          },
          new Callback(std::move(callback))};
}

}  // namespace detail
}  // namespace wsync
#endif
