// library_wsync.js: wsync's Emscripten JS library (linked by the wsync::wsync
// target with --js-library). It only sleeps and wakes; the lock and wait
// algorithms stay in C++ (src/async_wasm.cpp, src/futex_wasm.cpp).

mergeInto(LibraryManager.library, {
  // Waits while the 32-bit word at HEAP32[index] holds `expected`, for at
  // most `timeoutMs` (Infinity: no limit), without blocking this thread, then
  // calls onDone(result) from the event loop (never synchronously), result
  // as wait32's: 0 woken, 1 the word already differed, 2 timed out (no wake
  // consumed). The sleep is wsync.mjs's (Atomics.waitAsync, or a setTimeout
  // poll where the engine lacks it), which wsync_pre.js (made from
  // js/wsync_pre.js.in) carries.
  $wsyncWaitAsync: function(index, expected, timeoutMs, onDone) {
    var codes = { 'ok': 0, 'not-equal': 1, 'timed-out': 2 };
    wsyncShared.sleepAsync(HEAP32, index, expected, performance.now() + timeoutMs).then(function(result) {
      onDone(codes[result]);
    });
  },

  // The async C API's sleep: wsyncWaitAsync on the word at `addr`, then the
  // C function cb(arg, result) on the event loop. Keeps the runtime alive
  // while pending.
  wsync_js_wait_async__deps: ['$wsyncWaitAsync', '$runtimeKeepalivePush', '$runtimeKeepalivePop',
                              '$callUserCallback'],
  wsync_js_wait_async__sig: 'viidii',
  wsync_js_wait_async: function(addr, expected, timeoutMs, cb, arg) {
    runtimeKeepalivePush();
    wsyncWaitAsync(addr >> 2, expected, timeoutMs, function(result) {
      runtimeKeepalivePop();
      callUserCallback(function() {
        {{{ makeDynCall('vii', 'cb') }}}(arg, result);
      });
    });
  },

  // Whether a blocking wait on this thread may suspend with Asyncify now:
  // the program was linked with -sASYNCIFY and no suspension is in progress
  // (a callback that runs while main() is suspended must not start another).
  wsync_js_can_suspend__sig: 'i',
#if ASYNCIFY
  wsync_js_can_suspend__deps: ['$Asyncify'],
  wsync_js_can_suspend: function() {
    return Asyncify.currData === null && Asyncify.state === Asyncify.State.Normal ? 1 : 0;
  },
#else
  wsync_js_can_suspend: function() { return 0; },
#endif

  // The blocking wait of the browser main thread under Asyncify: unwinds to
  // the event loop, sleeps in wsyncWaitAsync, rewinds; returns its result
  // (0 woken, 1 not-equal, 2 timed out). The __asyncjs__ prefix puts it in every Asyncify build's
  // list of async imports.
  __asyncjs__wsync_js_suspend_wait__sig: 'iiid',
#if ASYNCIFY
  __asyncjs__wsync_js_suspend_wait__deps: ['$Asyncify', '$wsyncWaitAsync'],
  __asyncjs__wsync_js_suspend_wait: function(addr, expected, timeoutMs) {
    return Asyncify.handleSleep(function(wakeUp) {
      wsyncWaitAsync(addr >> 2, expected, timeoutMs, wakeUp);
    });
  },
#else
  __asyncjs__wsync_js_suspend_wait: function() {
    abort('wsync: __asyncjs__wsync_js_suspend_wait needs -sASYNCIFY');
  },
#endif

  // One warning line on the console (the browser main thread's misuse note).
  wsync_js_warn__sig: 'vi',
  wsync_js_warn: function(message) {
    console.warn(UTF8ToString(message));
  },
});
