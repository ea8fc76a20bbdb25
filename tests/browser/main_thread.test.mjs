// The browser main thread in each browser engine (harness.mjs): a wasm
// program whose main thread waits for a Mutex a pthread holds for 1 s (and
// for a WaitGroup a pthread counts down), with the async API, with Asyncify,
// with JSPI (current Emscripten, engines that have it), and with neither.
// Asserts that the page kept painting where it must (frames kept coming, no
// long task over 100 ms), that the spin fallback warns exactly once, and
// prints the frame counts and the notify-to-main-thread wake latency.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { builtDir, engine, openPage, servedBrowser, startServer, unisolatedBrowser } from "./harness.mjs";

const HOLD_MS = 1000;
const WARNING =
  "wsync: a wait blocked the browser main thread for 100 ms; use the async API " +
  "(lock_async, wait_async, ...) or link with -sASYNCIFY";

const JSPI_WARNING =
  "wsync: a wait blocked the browser main thread for 100 ms; under JSPI only calls from main() " +
  "or a -sJSPI_EXPORTS export suspend; use the async API (lock_async, wait_async, ...) elsewhere";

const ctx = servedBrowser(() => builtDir("www"));

// The -sJSPI build exists with an Emscripten that has the engines' JSPI API
// (3.1.61 and later), and runs in an engine that has JSPI (not WebKit, not
// Firefox 140); elsewhere its tests are skipped, saying which of the two.
const jspiRuns = () => engine.jspi && existsSync(path.join(builtDir("www"), "main_thread_jspi.js"));
const NO_JSPI = engine.jspi
  ? "this Emscripten predates the engines' JSPI API (3.1.61): no -sJSPI build"
  : `${engine.label} has no JSPI: a -sJSPI program cannot start there (docs/api.md)`;
// The builds whose blocking calls suspend.
const suspendingBuilds = () => ["asyncify", ...(jspiRuns() ? ["jspi"] : [])];

async function load(build, { withoutWaitAsync = false } = {}) {
  const opened = await openPage(ctx.browser, `${ctx.server.url}main_thread.html?build=${build}`, {
    initScript: withoutWaitAsync ? () => delete Atomics.waitAsync : undefined,
  });
  await opened.page.evaluate(() => window.ready);
  // A program that links Emscripten 6's own waitAsync functions (these pages
  // do, for the benchmarks' emscripten_atomic_wait_suspending) gets its
  // setTimeout polyfill of Atomics.waitAsync; these tests are about wsync's.
  if (withoutWaitAsync) await opened.page.evaluate(() => delete Atomics.waitAsync);
  return opened;
}

const scenario = (page, name, options) => page.evaluate(([n, o]) => window.scenario(n, o), [name, options]);

// The page stayed responsive through a wait of about HOLD_MS.
function assertResponsive(r, idle, what) {
  console.log(
    `${what}: ${r.frames} frames in ${r.elapsedMs.toFixed(0)} ms (idle: ${idle.frames}), ` +
      `longest frame gap ${r.maxFrameGapMs.toFixed(1)} ms, wake latency ${r.latencyMs.toFixed(2)} ms`,
  );
  assert.equal(r.ok, true, `${what}: the wait succeeded`);
  assert.ok(r.elapsedMs >= HOLD_MS - 50, `${what}: really waited (${r.elapsedMs} ms)`);
  assert.ok(r.frames >= idle.frames * 0.5, `${what}: frames kept coming (${r.frames} vs ${idle.frames} idle)`);
  // Both views of "no main-thread task over 100 ms": the browser's long-task
  // entries, and the gaps between the frames it painted.
  assert.deepEqual(
    r.longTasks.filter((d) => d > 100),
    [],
    `${what}: no long task over 100 ms`,
  );
  assert.ok(r.maxFrameGapMs < 100, `${what}: longest frame gap ${r.maxFrameGapMs} ms`);
}

test(`the engine is what the harness says: ${engine.label}, JSPI ${engine.jspi}, Atomics.waitAsync ${engine.waitAsync}`, async () => {
  // A page with no program on it: Emscripten 6 polyfills Atomics.waitAsync.
  const { page } = await openPage(ctx.browser, `${ctx.server.url}blank.html`);
  const facts = await page.evaluate(() => ({
    jspi: typeof WebAssembly.Suspending === "function",
    waitAsync: typeof Atomics.waitAsync === "function",
    isolated: crossOriginIsolated,
    userAgent: navigator.userAgent,
  }));
  console.log(`${engine.label}: ${facts.userAgent}`);
  assert.deepEqual(facts, {
    jspi: engine.jspi,
    waitAsync: engine.waitAsync,
    isolated: true,
    userAgent: facts.userAgent,
  });
  await page.close();
});

test("the page is cross-origin isolated and the main thread knows it may not block", async () => {
  const { page, pageErrors } = await load("plain");
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.equal(await page.evaluate(() => Module._mt_can_block()), 0);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

// In `build`, each of `waits` ([scenario, what]) of about HOLD_MS keeps the
// page painting, and nothing warns or throws.
async function assertWaitsKeepPainting(build, waits) {
  const { page, consoleMessages, pageErrors } = await load(build);
  const idle = await page.evaluate(() => window.idleFrames(1000));
  for (const [name, what] of waits) assertResponsive(await scenario(page, name, { holdMs: HOLD_MS }), idle, what);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(
    consoleMessages.filter((m) => m.type === "warning" || m.type === "error"),
    [],
  );
  await page.close();
}

test("async API: lock_async and wait_async keep the page painting", () =>
  assertWaitsKeepPainting("plain", [
    ["lock_async", "Mutex::lock_async"],
    ["wait_async", "WaitGroup::wait_async"],
  ]));

// Programs may link Emscripten's Wasm Workers beside pthreads (for
// emscripten_lock_async_acquire and the like, which the benchmarks compare
// with lock_async): wsync's async API works there the same, next to it.
test("linked with Wasm Workers too: lock_async, wait_async and emscripten_lock_async_acquire keep the page painting", (t) => {
  if (!existsSync(path.join(builtDir("www"), "main_thread_wasm_workers.js"))) {
    return t.skip("this Emscripten has no emscripten_lock_async_acquire for pthreads (5.0.3): no Wasm Workers build");
  }
  return assertWaitsKeepPainting("wasm_workers", [
    ["lock_async", "Wasm Workers build Mutex::lock_async"],
    ["wait_async", "Wasm Workers build WaitGroup::wait_async"],
    ["em_lock_async", "emscripten_lock_async_acquire"],
  ]);
});

test("Asyncify: blocking lock() and wait() suspend and keep the page painting", () =>
  assertWaitsKeepPainting("asyncify", [
    ["lock_suspend", "Asyncify Mutex::lock"],
    ["wait_suspend", "Asyncify WaitGroup::wait"],
  ]));

test("JSPI: blocking lock() and wait() suspend and keep the page painting", (t) => {
  if (!jspiRuns()) return t.skip(NO_JSPI);
  return assertWaitsKeepPainting("jspi", [
    ["lock_suspend", "JSPI Mutex::lock"],
    ["wait_suspend", "JSPI WaitGroup::wait"],
    // The async API works in a JSPI program as in any other.
    ["lock_async", "JSPI build Mutex::lock_async"],
  ]);
});

test("what suspension the program has: none, Asyncify or JSPI, found at run time", async () => {
  const expected = { plain: 0, asyncify: 1, ...(jspiRuns() ? { jspi: 2 } : {}) };
  for (const [build, suspension] of Object.entries(expected)) {
    const { page, pageErrors } = await load(build);
    assert.equal(await page.evaluate(() => Module._mt_suspension()), suspension, build);
    assert.equal(await page.evaluate(() => Module._mt_can_block()), 0, `${build}: the main thread may not block`);
    assert.deepEqual(pageErrors, []);
    await page.close();
  }
});

// Every primitive's blocking form (Mutex, CondVar, Semaphore, Latch, Barrier,
// WaitGroup, call_once, and the same in C), each released by a pthread after
// 100 ms: 14 waits in one call, all but the first after a resume.
for (const build of ["asyncify", "jspi"]) {
  test(`every primitive's blocking form, C++ and C, suspends and keeps the page painting (${build})`, async (t) => {
    if (!suspendingBuilds().includes(build)) return t.skip(NO_JSPI);
    const { page, consoleMessages, pageErrors } = await load(build);
    const idle = await page.evaluate(() => window.idleFrames(1000));
    const cases = await page.evaluate(() => Module._mt_family_size());
    const r = await scenario(page, "family_suspend", { holdMs: 100 });
    console.log(
      `${build}: ${cases} blocking waits of 100 ms in ${r.elapsedMs.toFixed(0)} ms, ${r.frames} frames ` +
        `(idle: ${idle.frames} a second), longest frame gap ${r.maxFrameGapMs.toFixed(1)} ms`,
    );
    assert.equal(r.ok, true, `${build}: every wait returned what it should (see the page's log)`);
    assert.ok(r.elapsedMs >= cases * 100 * 0.9, `${build}: they waited (${r.elapsedMs} ms)`);
    assert.ok(
      r.frames >= ((idle.frames * r.elapsedMs) / 1000) * 0.5,
      `${build}: frames kept coming (${r.frames} in ${r.elapsedMs} ms)`,
    );
    assert.deepEqual(
      r.longTasks.filter((d) => d > 100),
      [],
      `${build}: no long task over 100 ms`,
    );
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(
      consoleMessages.filter((m) => m.type === "warning" || m.type === "error"),
      [],
    );
    await page.close();
  });
}

// Thread churn: 100 short-lived pthreads, each releasing a fresh semaphore
// that the main thread's blocking wait sleeps on, in memory that earlier
// threads' exits gave back. Emscripten 6.0.5's runtime lost such wakes to a
// leftover waiter of an exited thread, which wsync's JS library now settles
// (js/library_wsync.js).
for (const build of ["asyncify", "jspi"]) {
  test(`a blocking wait is woken by short-lived pthreads, round after round (${build})`, async (t) => {
    if (!suspendingBuilds().includes(build)) return t.skip(NO_JSPI);
    const { page, pageErrors } = await load(build);
    const r = await scenario(page, "churn_suspend", { rounds: 100 });
    console.log(`${build}: 100 rounds in ${r.elapsedMs.toFixed(0)} ms`);
    assert.equal(r.ok, true, `${build}: every wait ended in its wake (see the page's log)`);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
}

// A suspended wait must keep running the calls pthreads proxy to the main
// thread: each printf of a pthread is one, and the pthread waits for it.
test("a pthread's printf while the main thread's blocking wait is suspended", async () => {
  for (const build of suspendingBuilds()) {
    const { page, consoleMessages, pageErrors } = await load(build);
    const r = await scenario(page, "wait_printing", { lines: 200 });
    const printed = consoleMessages.filter((m) => m.text.startsWith("wsync test: pthread line "));
    assert.equal(r.ok, true, build);
    assert.equal(printed.length, 200, `${build}: every line arrived`);
    assert.equal(printed.at(-1).text, "wsync test: pthread line 199");
    assert.deepEqual(pageErrors, []);
    await page.close();
  }
});

// Under JSPI only a stack that a -sJSPI_EXPORTS export (or main) entered,
// with no JavaScript frame since, may suspend; an export outside the list, a
// callback Emscripten calls from the event loop, or C++ that EM_JS code
// calls back inside a listed export would throw SuspendError if wsync tried.
// They poll.
test("JSPI: a wait from an unlisted export, a callback, or C++ called from JS polls, and warns once", async (t) => {
  if (!jspiRuns()) return t.skip(NO_JSPI);
  const { page, consoleMessages, pageErrors } = await load("jspi");
  const unlisted = await scenario(page, "wait_unlisted", { holdMs: 300 });
  const callback = await scenario(page, "wait_in_callback", { holdMs: 300 });
  const throughJs = await scenario(page, "wait_through_js", { holdMs: 300 });
  for (const [what, r] of [
    ["unlisted export", unlisted],
    ["callback", callback],
    ["C++ called from EM_JS inside a listed export", throughJs],
  ]) {
    assert.equal(r.ok, true, what);
    assert.ok(r.maxFrameGapMs >= 250, `${what}: it polled (a frame gap of ${r.maxFrameGapMs} ms)`);
  }
  await page.evaluate(() => window.sleep(50));
  assert.deepEqual(
    consoleMessages.filter((m) => m.type === "warning").map((m) => m.text),
    [JSPI_WARNING],
  );
  assert.deepEqual(pageErrors, []);
  await page.close();
});

// While main()'s (an export's) blocking wait is suspended, a callback that
// makes a blocking wait cannot suspend too (Asyncify has one suspension at a
// time; under JSPI a callback cannot suspend at all): it polls until the
// pthread's done(), then the suspended wait resumes. Nothing throws.
test("a callback that waits while an export's blocking wait is suspended polls, then both return", async () => {
  for (const build of suspendingBuilds()) {
    const { page, pageErrors } = await load(build);
    await page.evaluate(() => Module._mt_set_warn_ms(Infinity));
    const r = await page.evaluate(() => window.callbackWhileSuspended(400));
    assert.equal(r.resultsWhileSuspended, 0, `${build}: the first wait was still suspended`);
    assert.deepEqual(r.results, [true, true], `${build}: both waits returned true`);
    assert.deepEqual(pageErrors, []);
    await page.close();
  }
});

// Go's fairness scenario with the browser main thread as the waiter: without
// the handoff it lost to the pthread's relock for seconds. Asserted with a
// margin for a loaded machine (a relock takes about 100 us; the handoff comes
// after about 1 ms, then a waitAsync wake of the main thread).
test("the main thread gets the Mutex within the handoff bound from a pthread that relocks at once", async (t) => {
  for (const [build, how] of [["plain", "lock_async"], ...suspendingBuilds().map((b) => [b, "lock_suspend"])]) {
    const { page, pageErrors } = await load(build);
    const round = await page.evaluate((h) => window.relockingHolderRounds(h), how);
    t.diagnostic(
      `${build} ${how}: 10 acquisitions in ${round.total.toFixed(1)} ms, longest ${round.longest.toFixed(2)} ms, ` +
        `at most ${round.mostRelocks} relocks during one wait`,
    );
    assert.equal(round.allOk, true);
    assert.ok(round.mostRelocks <= 2000, `${how}: the pthread relocked ${round.mostRelocks} times during one wait`);
    assert.ok(round.total < 2000, `${how}: 10 acquisitions took ${round.total} ms`);
    assert.deepEqual(pageErrors, []);
    await page.close();
  }
});

test("without Asyncify a blocking wait spins, and warns exactly once", async () => {
  const { page, consoleMessages, pageErrors } = await load("plain");
  const lock = await scenario(page, "lock_spin", { holdMs: HOLD_MS });
  const wait = await scenario(page, "wait_spin", { holdMs: 300 });
  console.log(
    `spinning Mutex::lock: ${lock.frames} frames in ${lock.elapsedMs.toFixed(0)} ms, long tasks ${lock.longTasks}`,
  );
  assert.equal(lock.ok, true);
  assert.equal(wait.ok, true);
  assert.ok(lock.elapsedMs >= HOLD_MS - 50, "it waited for the holder");
  // The control for the responsiveness checks: both detectors see this
  // freeze (the long-task one where the engine has it: Chromium).
  assert.ok(lock.maxFrameGapMs >= HOLD_MS * 0.9, `a frame gap of ${lock.maxFrameGapMs} ms`);
  assert.equal(await page.evaluate(() => window.seesLongTasks), engine.name === "chromium");
  if (engine.name === "chromium") {
    assert.ok(
      lock.longTasks.some((d) => d >= HOLD_MS * 0.9),
      `a long task was seen: ${lock.longTasks}`,
    );
  }
  await page.evaluate(() => window.sleep(50));
  const warnings = consoleMessages.filter((m) => m.type === "warning");
  assert.deepEqual(
    warnings.map((m) => m.text),
    [WARNING],
  );
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("the abort option turns the warning into an abort with the same message", async () => {
  const { page, consoleMessages } = await load("plain");
  assert.equal(await page.evaluate(() => Module._mt_set_abort(1)), 0, "abort is off by default");
  const outcome = await page.evaluate(async () => {
    Module._mt_hold_mutex(400);
    while (!Module._mt_hold_started()) await window.sleep(1);
    try {
      Module._mt_lock_sync(Infinity);
      return "returned";
    } catch (e) {
      return `threw ${e}`;
    }
  });
  assert.match(outcome, /^threw .*abort/i);
  assert.ok(
    consoleMessages.some((m) => m.text === WARNING && m.type === "error"),
    "the line went to stderr",
  );
  assert.ok(!consoleMessages.some((m) => m.type === "warning"), "no warning: it aborted instead");
  await page.close();
});

// Each wait's timeout is measured on the page's performance.now(); 50 ms
// into the wait, performance.timeOrigin steps 100 ms ahead, as a step of the
// wall clock moves WebKit's: the wait still lasts its whole timeout.
test("timeouts on the main thread: async, Asyncify, JSPI and spinning waits give up, never early", async () => {
  for (const [build, names] of [
    ["plain", ["lock_async", "wait_async", "lock_spin", "wait_spin"]],
    ...suspendingBuilds().map((b) => [b, ["lock_suspend", "wait_suspend"]]),
  ]) {
    const { page, pageErrors } = await load(build);
    await page.evaluate(() => Module._mt_set_warn_ms(Infinity));
    for (const name of names) {
      const timeOriginStep = { afterMs: 50, byMs: 100 };
      const r = await scenario(page, name, { holdMs: 600, timeoutMs: 150, timeOriginStep });
      assert.equal(r.ok, false, `${build} ${name} timed out`);
      assert.ok(r.elapsedMs >= 150, `${build} ${name} gave up after ${r.elapsedMs} ms`);
      assert.ok(r.elapsedMs < 600, `${build} ${name} did not wait for the holder`);
      await page.evaluate(() => window.sleep(600)); // the holder finishes
    }
    assert.deepEqual(pageErrors, []);
    await page.close();
  }
});

// Firefox 140 has no Atomics.waitAsync of its own; elsewhere the harness
// deletes it before the page's scripts run.
test("without Atomics.waitAsync the async API, Asyncify and JSPI fall back to polling", async (t) => {
  if (engine.name === "webkit") {
    return t.skip("WebDriver classic runs no script before the page's own; Firefox 140 tests this for real");
  }
  for (const [build, name] of [
    ["plain", "lock_async"],
    ["plain", "wait_async"],
    ...suspendingBuilds().map((b) => [b, "lock_suspend"]),
  ]) {
    const { page, pageErrors } = await load(build, { withoutWaitAsync: true });
    assert.equal(await page.evaluate(() => typeof Atomics.waitAsync), "undefined");
    const idle = await page.evaluate(() => window.idleFrames(500));
    const r = await scenario(page, name, { holdMs: 500 });
    assert.equal(r.ok, true, `${build} ${name}`);
    assert.ok(r.frames >= idle.frames * 0.5, `${build} ${name}: frames kept coming while polling`);
    assert.deepEqual(pageErrors, []);
    await page.close();
  }
});

test("JS on the page: wsync.mjs refuses to block the main thread and awaits a C++ WaitGroup", async () => {
  const { page, pageErrors } = await load("plain");
  const outcome = await page.evaluate(async () => {
    const { Mutex, WaitGroup, canBlock } = await import("./wsync.mjs");
    const m = Mutex.at(Module, Module._mt_mutex());
    let lockError;
    try {
      m.lock();
    } catch (e) {
      lockError = e.message;
    }
    const wg = WaitGroup.at(Module, Module._mt_wait_group());
    Module._mt_owe_done(200);
    const start = performance.now();
    const zero = await wg.waitAsync();
    return { canBlock: canBlock(), lockError, zero, waited: performance.now() - start, count: wg.count };
  });
  assert.equal(outcome.canBlock, false);
  assert.equal(
    outcome.lockError,
    "wsync: Mutex.lock() would block this thread, and the browser main thread may not block; " +
      "use await mutex.lockAsync() instead",
  );
  assert.equal(outcome.zero, true);
  assert.ok(outcome.waited >= 150, `waited ${outcome.waited} ms for the pthread`);
  assert.equal(outcome.count, 0);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("browser Web Workers, C++ pthreads and the main thread keep one count under one C++ Mutex", async () => {
  const { page, pageErrors } = await load("plain");
  const outcome = await page.evaluate(async () => {
    const { Mutex, WaitGroup } = await import("./wsync.mjs");
    const iterations = 5000;
    const memory = Module.wsyncMemory; // the module's shared WebAssembly.Memory
    const [mutexPtr, counterPtr, wgPtr] = [Module._mt_mutex(), Module._mt_counter(), Module._mt_wait_group()];
    const wg = WaitGroup.at(memory, wgPtr);
    wg.add(2); // two JS workers
    Module._mt_increments(2, iterations); // two C++ pthreads (adds its own 2)
    const workers = [0, 1].map(() => {
      const w = new Worker("./js_worker.mjs", { type: "module" });
      const replied = new Promise((resolve) => (w.onmessage = (e) => resolve(e.data)));
      w.postMessage({ memory, mutexPtr, counterPtr, wgPtr, iterations });
      return replied;
    });
    const m = Mutex.at(memory, mutexPtr);
    const heap = new Int32Array(memory.buffer);
    for (let i = 0; i < iterations; ++i) {
      await m.lockAsync(); // the main thread takes part without blocking
      heap[counterPtr >> 2] += 1;
      m.unlock();
    }
    const zero = await wg.waitAsync(30_000);
    const replies = await Promise.all(workers);
    return { zero, total: heap[counterPtr >> 2], expected: 5 * iterations, mutex: heap[mutexPtr >> 2], replies };
  });
  assert.equal(outcome.zero, true);
  assert.equal(outcome.total, outcome.expected);
  assert.equal(outcome.mutex, 0, "the Mutex is back to UNLOCKED");
  assert.deepEqual(outcome.replies, [{ canBlock: true }, { canBlock: true }], "a Web Worker may block");
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("wake latency from a pthread's notify to the main thread resuming", async () => {
  const rounds = 40;
  const figures = {};
  for (const [build, name] of [
    ["plain", "lock_async"],
    ["plain", "wait_async"],
    ...suspendingBuilds().flatMap((b) => [
      [b, "lock_suspend"],
      [b, "wait_suspend"],
    ]),
  ]) {
    const { page } = await load(build);
    const latencies = [];
    for (let i = 0; i < rounds; ++i) {
      const r = await page.evaluate((n) => window.wakeLatency(n, 10), name);
      assert.equal(r.ok, true);
      latencies.push(r.latencyMs);
    }
    latencies.sort((a, b) => a - b);
    figures[`${build} ${name}`] = {
      median: latencies[rounds >> 1],
      p95: latencies[Math.floor(rounds * 0.95)],
    };
    await page.close();
  }
  for (const [what, { median, p95 }] of Object.entries(figures)) {
    console.log(`wake latency ${what}: median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (${rounds} rounds)`);
  }
});

test("served without the isolation headers, a wsync program says what is missing and how to fix it", async () => {
  const plain = await startServer(builtDir("www"), ["--no-isolation"]);
  const unisolated = await unisolatedBrowser(ctx);
  const { page, consoleMessages, pageErrors } = await openPage(
    unisolated.browser,
    `${plain.url}main_thread.html?build=plain`,
  );
  try {
    const message =
      "wsync: no WebAssembly threads here. SharedArrayBuffer is not available: this page is not " +
      'cross-origin isolated. Serve the page with the headers "Cross-Origin-Opener-Policy: same-origin" ' +
      'and "Cross-Origin-Embedder-Policy: require-corp", from https or http://localhost ' +
      "(wsync's serve.py does).";
    assert.equal(await page.evaluate(() => crossOriginIsolated), false);
    const started = await page.evaluate(() =>
      Promise.race([window.ready.then(() => true), new Promise((r) => setTimeout(() => r(false), 500))]),
    );
    assert.equal(started, false, "the program did not start");
    // What the page said while it loaded (not seen over WebKit's WebDriver
    // classic: harness.mjs): wsync_pre.js (js/wsync_pre.js.in) runs before
    // Emscripten's runtime would fail with "SharedArrayBuffer is not defined".
    if (!engine.consoleFromLoad) return;
    assert.deepEqual(pageErrors, [message]);
    assert.deepEqual(
      consoleMessages.filter((m) => m.type === "error").map((m) => m.text),
      [message],
    );
  } finally {
    await page.close();
    await unisolated.close();
    await plain.close();
  }
});

test("a Web Worker terminated while it holds a C++ Mutex: timed waiters on every side recover with false", async () => {
  const { page, pageErrors } = await load("plain");
  const outcome = await page.evaluate(async () => {
    const { Mutex } = await import("./wsync.mjs");
    const memory = Module.wsyncMemory;
    const mutexPtr = Module._mt_mutex();
    const start = (job, extra = {}) => {
      const w = new Worker("./js_worker.mjs", { type: "module" });
      const reply = new Promise((resolve) => (w.onmessage = (e) => resolve(e.data)));
      w.postMessage({ job, memory, mutexPtr, ...extra });
      return { w, reply };
    };
    const holder = start("lockAndHang");
    const said = await holder.reply;
    holder.w.terminate();
    const m = Mutex.at(memory, mutexPtr);
    const t0 = performance.now();
    const mainLocked = await m.lockAsync(100); // the page's main thread
    const mainWaited = performance.now() - t0;
    const other = await start("lockFor", { ms: 100 }).reply; // another Web Worker, blocking
    const word = new Int32Array(memory.buffer)[mutexPtr >> 2];
    // Once nobody uses it any more: initialize it again (docs/api.md).
    Mutex.initialize(new Int32Array(memory.buffer), mutexPtr >> 2);
    const again = await m.lockAsync(100);
    m.unlock();
    return { said, mainLocked, mainWaited, other, word, again };
  });
  assert.equal(outcome.said, "locked");
  assert.equal(outcome.mainLocked, false);
  assert.ok(outcome.mainWaited >= 100, `the main thread waited its 100 ms (${outcome.mainWaited})`);
  assert.equal(outcome.other.locked, false);
  assert.ok(outcome.other.waited >= 100, `the worker waited its 100 ms (${outcome.other.waited})`);
  assert.equal(outcome.word, 2, "still held (CONTENDED): nobody can know its owner is gone");
  assert.equal(outcome.again, true, "initialized again, it works");
  assert.deepEqual(pageErrors, []);
  await page.close();
});
