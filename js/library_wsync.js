// library_wsync.js: wsync's Emscripten JS library (linked by the wsync::wsync
// target with --js-library). It sleeps and wakes, and closes a lost-wake
// race of Emscripten's pthread runtime; the lock and wait algorithms stay
// in C++ (src/async_wasm.cpp, src/futex_wasm.cpp).

mergeInto(LibraryManager.library, {
  // Waits while the 32-bit word at HEAP32[index] holds `expected`, for at
  // most `timeoutMs` (Infinity: no limit), without blocking this thread, then
  // calls onDone(result) from the event loop (never synchronously), result
  // as wait32's: 0 woken, 1 the word already differed, 2 timed out (no wake
  // consumed; the engine's timer may fire a hair early, and the C++ callers
  // wait again then). The sleep is wsync.mjs's waitThen (Atomics.waitAsync,
  // or a setTimeout poll where the engine lacks it), which wsync_pre.js
  // (made from js/wsync_pre.js.in) carries. Nothing else runs between the
  // engine's promise and onDone: a wake runs every layer cold (js/wsync.mjs,
  // waitThen).
  //
  // While pending it holds the runtime's keepalive count where the runtime
  // could otherwise exit under it: on a pthread, which exits once its start
  // routine has returned and nothing holds it, and in a program linked with
  // -sEXIT_RUNTIME. Without that setting the main thread's runtime never
  // exits, so the count would change nothing there, and updating it cost a
  // woken main thread about 1.5 us (docs/how-it-works.md).
  $wsyncWaitAsync__deps: ['$runtimeKeepalivePush', '$runtimeKeepalivePop'],
  $wsyncWaitAsync: function(index, expected, timeoutMs, onDone) {
    var keepAlive = {{{ EXIT_RUNTIME }}} || ENVIRONMENT_IS_PTHREAD;
    if (keepAlive) runtimeKeepalivePush();
    wsyncShared.waitThen(HEAP32, index, expected, timeoutMs, function(value) {
      if (keepAlive) runtimeKeepalivePop();
      onDone(value === 'ok' ? 0 : value === 'not-equal' ? 1 : 2);
    });
  },

  // The async C API's sleep: wsyncWaitAsync on the word at `addr`, then the
  // C function cb(arg, result) on the event loop, as Emscripten calls every
  // callback of its event loop (an exit() or an exception inside is handled
  // as there).
  wsync_js_wait_async__deps: ['$wsyncSettleStaleMailboxWaiters', '$wsyncWaitAsync', '$callUserCallback'],
  wsync_js_wait_async__sig: 'viidii',
  wsync_js_wait_async: function(addr, expected, timeoutMs, cb, arg) {
    wsyncWaitAsync(addr >> 2, expected, timeoutMs, function(result) {
      callUserCallback(function() {
        {{{ makeDynCall('vii', 'cb') }}}(arg, result);
      });
    });
  },

  // Emscripten's pthread runtime (6.0.5) arms an Atomics.waitAsync on the
  // first word of every thread's struct (its mailbox's doorbell) and never
  // cancels it when the thread exits. malloc hands that memory out again,
  // and a notify(word, 1) on a futex word placed there wakes that stale
  // waiter, first in line, instead of the thread asleep on the word: a lost
  // wake, for wsync's words and everyone else's (Emscripten issue 27492;
  // docs/toolchains.md). So wsync notifies the word just before the struct
  // is freed. The stale waiter's worker has let go of that thread by then:
  // the mailbox check it wakes finds no thread, or the worker's next one.
  // The imports that wsync's blocking and async waits reach depend on it,
  // so every program that waits on a wsync word gets it.
  $wsyncSettleStaleMailboxWaiters__deps: ['$PThread'],
  $wsyncSettleStaleMailboxWaiters__postset: 'wsyncSettleStaleMailboxWaiters();',
  $wsyncSettleStaleMailboxWaiters: function() {
    var returnWorkerToPool = PThread.returnWorkerToPool;
    PThread.returnWorkerToPool = function(worker) {
      if (worker.pthread_ptr) Atomics.notify(HEAP32, worker.pthread_ptr >> 2);
      return returnWorkerToPool.apply(this, arguments);
    };
  },

  // Which suspension this program was linked with: 0 none, 1 Asyncify
  // (-sASYNCIFY), 2 JSPI (-sJSPI). See wsync_main_thread_suspension().
  wsync_js_suspension__sig: 'i',
  wsync_js_suspension__deps: ['$wsyncSettleStaleMailboxWaiters'],
  wsync_js_suspension: function() { return {{{ ASYNCIFY }}}; },

#if ASYNCIFY == 2
  // JSPI suspends only a stack that a promising export (main, -sJSPI_EXPORTS)
  // entered, with no JavaScript frame since. Anywhere else (an export called
  // from JavaScript, a function pointer that Emscripten calls back, C++
  // called from EM_JS code) a suspending import throws SuspendError through
  // the C++ frames, and the engine offers no way to ask first. So this reads
  // the call stack: the run of wasm frames that leads here must start at a
  // promising export's function. The trace names wasm frames by function
  // index ("wasm-function[219]"), and an exported function's name is its
  // index, so Emscripten's set of the exports it made promising says which.
  $wsyncJspiMaySuspend__deps: ['$Asyncify'],
  $wsyncJspiMaySuspend: function() {
    var limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Infinity;  // the run's first frame must be in it
    var frames = String(new Error().stack).split('\n');
    Error.stackTraceLimit = limit;
    var index = (frame) => /wasm-function\[(\d+)\]/.exec(frame)?.[1];
    var i = frames.findIndex(index);
    if (i < 0) return false;
    while (i + 1 < frames.length && index(frames[i + 1])) i++;
    var entry = index(frames[i]);
    for (var f of Asyncify.asyncExports ?? []) {
      if (f.name === entry) return true;
    }
    return false;
  },
#endif

  // Whether a blocking wait on this thread may suspend now. Asyncify: no
  // suspension is in progress (a callback that runs while main() is
  // suspended must not start another). JSPI: this call came through a
  // promising export with no JavaScript in between ($wsyncJspiMaySuspend).
  wsync_js_can_suspend__sig: 'i',
#if ASYNCIFY == 2
  wsync_js_can_suspend__deps: ['$wsyncJspiMaySuspend'],
  wsync_js_can_suspend: function() {
    return wsyncJspiMaySuspend() ? 1 : 0;
  },
#elif ASYNCIFY
  wsync_js_can_suspend__deps: ['$Asyncify'],
  wsync_js_can_suspend: function() {
    return Asyncify.currData === null && Asyncify.state === Asyncify.State.Normal ? 1 : 0;
  },
#else
  wsync_js_can_suspend: function() { return 0; },
#endif

  // The blocking wait of the browser main thread: sleeps in wsyncWaitAsync
  // while the stack is suspended (Asyncify unwinds and rewinds it; under
  // JSPI the import returns the promise), and returns its result (0 woken,
  // 1 not-equal, 2 timed out). __async and the __asyncjs__ prefix (3.1.6
  // knows only the prefix) make it an async import: Asyncify instruments
  // its callers, JSPI wraps it in WebAssembly.Suspending.
  __asyncjs__wsync_js_suspend_wait__sig: 'iiid',
#if ASYNCIFY == 2
  // Under JSPI the import returns its promise, which the engine awaits:
  // Asyncify.handleSleep would wrap it in an async function, one more
  // turn between the engine's wake and the caller.
  __asyncjs__wsync_js_suspend_wait__async: true,
  __asyncjs__wsync_js_suspend_wait__deps: ['$wsyncWaitAsync'],
  __asyncjs__wsync_js_suspend_wait: function(addr, expected, timeoutMs) {
    return new Promise(function(resolve) {
      wsyncWaitAsync(addr >> 2, expected, timeoutMs, resolve);
    });
  },
#elif ASYNCIFY
  __asyncjs__wsync_js_suspend_wait__async: true,
  __asyncjs__wsync_js_suspend_wait__deps: ['$Asyncify', '$wsyncWaitAsync'],
  __asyncjs__wsync_js_suspend_wait: function(addr, expected, timeoutMs) {
    return Asyncify.handleSleep(function(wakeUp) {
      wsyncWaitAsync(addr >> 2, expected, timeoutMs, wakeUp);
    });
  },
#else
  __asyncjs__wsync_js_suspend_wait: function() {
    abort('wsync: __asyncjs__wsync_js_suspend_wait needs -sASYNCIFY or -sJSPI');
  },
#endif

  // wsync's clock (Deadline::now_ns in wsync/detail/futex.hpp), in ms: this
  // thread's performance.now() on an origin every thread shares,
  // performance.timeOrigin read once as this thread's JavaScript loads. Not
  // emscripten_get_now(), which reads timeOrigin at each call, and WebKit's
  // follows the wall clock (docs/toolchains.md). The guard: an AudioWorklet's
  // scope has no performance, and this line runs wherever the program loads.
  $wsyncTimeOrigin: '=typeof performance == "object" ? performance.timeOrigin : 0',
  wsync_js_now__sig: 'd',
  wsync_js_now__deps: ['$wsyncTimeOrigin', '$wsyncSettleStaleMailboxWaiters'],
  wsync_js_now: function() {
    return performance.now() + wsyncTimeOrigin;
  },

  // One warning line on the console (the browser main thread's misuse note).
  wsync_js_warn__sig: 'vi',
  wsync_js_warn__deps: ['$wsyncSettleStaleMailboxWaiters'],
  wsync_js_warn: function(message) {
    console.warn(UTF8ToString(message));
  },
});
