// library_wsync.js: wsync's Emscripten JS library (linked by the wsync::wsync
// target with --js-library). One primitive: wait on a word without blocking
// the thread, then call back into C from the event loop. The lock and wait
// algorithms stay in C++ (src/async_wasm.cpp); this only sleeps and wakes.

mergeInto(LibraryManager.library, {
  // Waits while the 32-bit word at `addr` holds `expected`, for at most
  // `timeoutMs` (Infinity: no limit), without blocking this thread. Then calls
  // the C function `cb(arg, timedOut)` on the event loop: timedOut is 1 only
  // when no wake was consumed (the caller may simply wait again), 0 when woken
  // or when the word already differed. Uses Atomics.waitAsync; polls with
  // setTimeout and backoff where it is missing. Keeps the runtime (and Node)
  // alive while pending.
  wsync_js_wait_async__deps: ['$runtimeKeepalivePush', '$runtimeKeepalivePop', '$callUserCallback'],
  wsync_js_wait_async__sig: 'viidii',
  wsync_js_wait_async: function(addr, expected, timeoutMs, cb, arg) {
    var index = addr >> 2;
    runtimeKeepalivePush();
    // A ref'd timer: in Node a pending waitAsync alone does not keep the process up.
    var keepAlive = setInterval(function() {}, 1 << 30);
    function finish(timedOut) {
      clearInterval(keepAlive);
      runtimeKeepalivePop();
      callUserCallback(function() {
        {{{ makeDynCall('vii', 'cb') }}}(arg, timedOut);
      });
    }
    if (typeof Atomics.waitAsync === 'function') {
      var result = Atomics.waitAsync(HEAP32, index, expected, timeoutMs);
      if (!result.async) {
        // Settled at once ('not-equal' or 'timed-out'): still call back later,
        // never from inside the caller's stack.
        Promise.resolve().then(function() { finish(result.value === 'timed-out' ? 1 : 0); });
      } else {
        result.value.then(function(value) { finish(value === 'timed-out' ? 1 : 0); });
      }
      return;
    }
    // Fallback: poll the word, backing off from 0 to 8 ms. A poller is never
    // registered as a waiter, so it cannot swallow a wake meant for another.
    var deadline = performance.now() + timeoutMs;
    var delay = 0;
    (function poll() {
      if (Atomics.load(HEAP32, index) !== expected) return finish(0);
      var left = deadline - performance.now();
      if (left <= 0) return finish(1);
      setTimeout(poll, Math.min(delay, left));
      delay = Math.min(8, delay ? delay * 2 : 0.25);
    })();
  },
});
