// wsync.mjs: wsync's primitives in JavaScript, on the same 32-bit words, with
// the same states and algorithms as the C++ library (docs/abi.md), so a JS
// worker and a C++ pthread can lock one Mutex, and a JS main thread can await
// a WaitGroup, a Latch or a Barrier phase that C++ threads complete.
//
// One file on purpose: a page can copy it next to its own scripts and import
// it, with no bundler and no dependencies.
//
// Shape (after parlib-simple): the memory is set up once (`X.initialize`, or
// the C++ constructor), then every agent builds its own handle:
// `new Mutex(i32, index)` or `Mutex.at(memory, ptr)`.
//
// Structure (as src/waiter.hpp in C++): every slow path is a *waiter*, an
// object with `attempt(spinner)` (finish, or name a word and a value to sleep
// on), `onTimeout()` and a `deadline`. Two drivers run the same waiters:
// `waitBlocking` on Atomics.wait (workers, Node's main thread), and
// `waitEventLoop` on Atomics.waitAsync (the `...Async` methods, for the
// browser main thread, which may not block), polling with setTimeout and
// backoff where waitAsync is missing.
//
// Wake protocol: after a wake (or any sleep that did not time out) the waiter
// attempts again before anyone looks at the deadline; only a sleep that timed
// out, and so consumed no wake, may end a wait unsuccessfully. A wait that
// times out at the moment it is notified never swallows a wake meant for
// another waiter.
//
// Memory ordering: every Atomics operation is sequentially consistent, which
// is at least as strong as each ordering the C++ side chooses (and documents)
// for the same step, so the two sides compose.

// ---------------------------------------------------------------- states --

// Mutex (the state table: include/wsync/mutex.hpp).
const UNLOCKED = 0; // free
const LOCKED = 1; // held, nobody sleeps on the word
const CONTENDED = 2; // held, sleepers possible
const HANDOFF = 4; // free for a sleeper only
const STARVING = 6; // CONTENDED | HANDOFF: a sleeper past the bound asks for the next unlock

// The other words of the primitives with more than one (docs/abi.md); the
// first, at `index`, is the one every primitive waits on.
const SEM_SLEEPERS = 1; // Semaphore: 0 the count, 1 sleepers, 2 the maximum
const SEM_MAX = 2;
const CV_WAITERS = 1; // CondVar: 0 the sequence number, 1 waiters
const BARRIER_REMAINING = 1; // Barrier: 0 the phase, 1 remaining, 2 expected
const BARRIER_EXPECTED = 2;

// WaitGroup, Latch and the Barrier's phase word: bit 31 WAITERS (sleepers
// possible), bits 30..0 the counter or the phase number.
const WAITERS = 0x80000000 | 0; // as an Int32Array element: -2147483648
const LOW_BITS = 0x7fffffff;

// Once.
const INCOMPLETE = 0; // f has not run (or threw)
const RUNNING = 1; // a caller runs f, nobody waits
const QUEUED = 2; // a caller runs f, others may sleep
const COMPLETE = 3; // f returned

const options = {
  // The most a blocking wait spins before it sleeps, in pauses (C:
  // wsync_set_spin_limit; 262144 in wasm, where a pause is as cheap as here).
  // Each agent learns its budget below it (Spinner).
  spinLimit: 262144,
  // Time the async forms spin before they await, in microseconds.
  spinMicros: 50,
  // How long a Mutex waiter sleeps before it asks the next unlock to hand it
  // the lock, in microseconds (C: wsync_set_handoff_after_us, per program).
  handoffAfterMicros: 1000,
};

/**
 * Sets run-time options: `{ spinLimit }` (the most a blocking wait spins, pauses),
 * `{ spinMicros }` (async spin budget, microseconds),
 * `{ handoffAfterMicros }` (a Mutex waiter's wait before it asks for the handoff).
 */
export function configure(next) {
  if (next === null || typeof next !== "object") {
    throw new TypeError("wsync: configure() needs an options object");
  }
  // Every option is a finite number >= 0; all are checked before any is set.
  const given = Object.keys(options).filter((name) => name in next);
  for (const name of given) {
    const v = next[name];
    if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v)) {
      throw new RangeError(`wsync: ${name} must be a finite number >= 0, got ${describe(v)}`);
    }
  }
  for (const name of given) options[name] = next[name];
  return { ...options };
}

// ------------------------------------------------------- argument checks --

function describe(value) {
  if (value === null) return "null";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object" || typeof value === "function") {
    return (value.constructor && value.constructor.name) || typeof value;
  }
  return typeof value;
}

function checkWords(i32, index, owner, count) {
  if (!(i32 instanceof Int32Array)) {
    throw new TypeError(`wsync: ${owner} needs an Int32Array, got ${describe(i32)}`);
  }
  if (typeof SharedArrayBuffer === "undefined") {
    const { missing, fix } = threadSupportProblem();
    throw new TypeError(`wsync: ${owner} needs shared memory. ${missing} ${fix}`);
  }
  if (!(i32.buffer instanceof SharedArrayBuffer)) {
    throw new TypeError(
      `wsync: ${owner} needs an Int32Array on shared memory (a SharedArrayBuffer or a shared ` +
        `WebAssembly.Memory), got one on ${describe(i32.buffer)}`,
    );
  }
  if (!Number.isInteger(index) || index < 0 || index + count > i32.length) {
    throw new RangeError(`wsync: ${owner} index ${describe(index)} is out of range 0..${i32.length - count}`);
  }
}

// The buffer behind what `at()` was given: the Emscripten Module of a program
// linked with wsync (its pre-js defines Module.wsyncMemory, on every
// toolchain: Module.HEAP32 and Module.wasmMemory are only there when the
// program exports them), a WebAssembly.Memory, a SharedArrayBuffer, or a
// typed array on one.
function bufferOf(memory, owner) {
  if (typeof WebAssembly !== "undefined" && memory instanceof WebAssembly.Memory) return memory.buffer;
  if (ArrayBuffer.isView(memory)) return memory.buffer;
  if (typeof SharedArrayBuffer !== "undefined" && memory instanceof SharedArrayBuffer) return memory;
  if (memory !== null && typeof memory === "object" && "wsyncMemory" in memory) {
    const linked = memory.wsyncMemory;
    if (typeof WebAssembly !== "undefined" && linked instanceof WebAssembly.Memory) return linked.buffer;
    throw new TypeError(
      `wsync: ${owner}.at() got an Emscripten Module whose memory does not exist yet: ` +
        "wait for its runtime (the factory's promise, or Module.onRuntimeInitialized)",
    );
  }
  if (memory !== null && typeof memory === "object" && typeof memory.then === "function") {
    throw new TypeError(
      `wsync: ${owner}.at() got a Promise: await the Emscripten module factory first (Mutex.at(await factory(), ptr))`,
    );
  }
  if (looksLikeEmscriptenModule(memory)) {
    // Own data properties only: a Module built with ASSERTIONS aborts on a
    // read of a runtime symbol it did not export.
    const own = (name) => Object.getOwnPropertyDescriptor(memory, name)?.value;
    const exported = own("wasmMemory");
    if (typeof WebAssembly !== "undefined" && exported instanceof WebAssembly.Memory) return exported.buffer;
    if (ArrayBuffer.isView(own("HEAP32"))) return own("HEAP32").buffer;
    throw new TypeError(
      `wsync: ${owner}.at() got an Emscripten Module that exposes no memory: link the program with wsync ` +
        "(the CMake target wsync::wsync, pkg-config wsync, or em++ --use-port=<prefix>/share/wsync/wsync.py), " +
        "which adds Module.wsyncMemory",
    );
  }
  throw new TypeError(
    `wsync: ${owner}.at() needs an Emscripten Module linked with wsync, a WebAssembly.Memory, ` +
      `a SharedArrayBuffer or a typed array, got ${describe(memory)}`,
  );
}

// An Emscripten Module: a program's exports (`_name` functions) or its
// runtime's state.
function looksLikeEmscriptenModule(value) {
  if (value === null || typeof value !== "object") return false;
  if ("calledRun" in value || "onRuntimeInitialized" in value) return true;
  return Object.keys(value).some((key) => key.startsWith("_") && typeof value[key] === "function");
}

// The Int32Array view of a C++ object at `byteOffset` in wasm memory.
function viewAt(memory, byteOffset, owner, count) {
  const buffer = bufferOf(memory, owner);
  if (!Number.isInteger(byteOffset) || byteOffset < 0) {
    throw new RangeError(`wsync: ${owner}.at() byte offset ${describe(byteOffset)} is not a valid address`);
  }
  if (byteOffset % 4 !== 0) {
    throw new RangeError(`wsync: ${owner}.at() byte offset ${byteOffset} is not 4-byte aligned`);
  }
  if (byteOffset + 4 * count > buffer.byteLength) {
    throw new RangeError(
      `wsync: ${owner}.at() byte offset ${byteOffset} is outside the memory (${buffer.byteLength} bytes)`,
    );
  }
  return [new Int32Array(buffer), byteOffset >> 2];
}

// The deadline (performance.now() ms) of a timeout in ms: undefined means
// forever; otherwise a number >= 0 (or Infinity).
function deadlineAfter(timeoutMs) {
  if (timeoutMs === undefined) return Infinity;
  if (typeof timeoutMs !== "number" || Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(
      `wsync: timeout must be a number of milliseconds >= 0 or Infinity, got ${describe(timeoutMs)}`,
    );
  }
  return now() + timeoutMs;
}

// An integer argument in min..max (the counters are 31 bits, as in C++).
function checkCount(value, min, call, what) {
  if (!Number.isInteger(value) || value < min || value > LOW_BITS) {
    throw new RangeError(`wsync: ${call} needs an integer ${what} ${min}..${LOW_BITS}, got ${describe(value)}`);
  }
  return value;
}

function checkFunction(fn, call) {
  if (typeof fn !== "function") throw new TypeError(`wsync: ${call} needs a function, got ${describe(fn)}`);
  return fn;
}

// ---------------------------------------------------------- can it run? --

// <shared> (from here to </shared>, CMake copies this code into the wsync_pre.js
// of every Emscripten program linked with wsync: js/wsync_pre.js.in)

const ISOLATION_FIX =
  'Serve the page with the headers "Cross-Origin-Opener-Policy: same-origin" and ' +
  '"Cross-Origin-Embedder-Policy: require-corp", from https or http://localhost ' +
  "(wsync's serve.py does).";

/**
 * What keeps this agent from sharing memory with other threads, and the
 * fix: `{ missing, fix, message }`, or null when nothing does. A page shows
 * it (the demo's banner does); wsync's own errors use the same words, and
 * C++ programs linked with wsync print them too (js/wsync_pre.js.in).
 */
export function threadSupportProblem() {
  let missing;
  let fix;
  const notIsolated = globalThis.crossOriginIsolated === false;
  if (typeof SharedArrayBuffer !== "function") {
    missing = notIsolated
      ? "SharedArrayBuffer is not available: this page is not cross-origin isolated."
      : "SharedArrayBuffer is not available in this JavaScript engine.";
    fix = notIsolated ? ISOLATION_FIX : "Use a browser or Node.js with WebAssembly threads.";
  } else {
    try {
      new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
      return null;
    } catch {
      missing = "This engine cannot create shared WebAssembly memory.";
      fix = "Use a current Chrome, Edge, Firefox or Safari, or Node.js.";
    }
  }
  return { missing, fix, message: `wsync: no WebAssembly threads here. ${missing} ${fix}` };
}

const now = () => performance.now();

// Node exits when nothing but a pending Atomics.waitAsync is left, so there
// a wait holds a timer meanwhile; a page stays, and its waits skip the timer
// (one fewer thing to set up and tear down around every wake).
const needsKeepAlive =
  typeof process === "object" && process !== null && !!process.versions && typeof process.versions.node === "string";

// Sleeps while i32[index] === expected, for at most `timeoutMs` (Infinity:
// no limit), then calls onDone with Atomics.waitAsync's result: 'ok'
// (woken), 'not-equal' or 'timed-out' (which the engine's timer may report
// a hair early), always from a later job. A woken wait runs onDone as the
// engine's promise reaction itself: a main thread just woken from idle runs
// every function between the wake and the caller cold, at microseconds
// each (docs/how-it-works.md, "The browser main thread"). The wasm glue
// uses it as it is: its C++ callers loop on early timeouts themselves.
function waitThen(i32, index, expected, timeoutMs, onDone) {
  if (typeof Atomics.waitAsync !== "function") {
    return void pollAsync(i32, index, expected, now() + timeoutMs).then(onDone);
  }
  const result = Atomics.waitAsync(i32, index, expected, timeoutMs);
  if (!result.async) return void Promise.resolve(result.value).then(onDone);
  if (!needsKeepAlive) return void result.value.then(onDone);
  // Held until the wait settles (not sized to the timeout: the engine's
  // timer may fire after ours would, leaving nothing to keep Node up).
  const keepAlive = setInterval(() => {}, 2 ** 30);
  result.value.then((value) => {
    clearInterval(keepAlive);
    onDone(value);
  });
}

// Fallback where Atomics.waitAsync is missing: poll with setTimeout, backing
// off from 0 to 8 ms. It never registers as a waiter, so it can swallow no
// wake; a change it sees is reported as 'ok', a wake.
async function pollAsync(i32, index, expected, deadline) {
  for (let delay = 0; ; delay = Math.min(8, delay * 2 || 0.25)) {
    if (Atomics.load(i32, index) !== expected) return "ok";
    const remaining = deadline - now();
    if (remaining <= 0) return "timed-out";
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, remaining)));
  }
}

// </shared>

// As waitThen, until `deadline` (performance.now() ms): 'timed-out' only
// once the deadline passed (a timeout consumed no wake, so a timer that
// fired early simply waits the rest).
function sleepThen(i32, index, expected, deadline, onDone) {
  const remaining = deadline - now();
  if (remaining <= 0) return void Promise.resolve("timed-out").then(onDone);
  waitThen(i32, index, expected, remaining, (value) => {
    if (value === "timed-out") sleepThen(i32, index, expected, deadline, onDone);
    else onDone(value);
  });
}

// The same as a promise.
const sleepAsync = (i32, index, expected, deadline) =>
  new Promise((resolve) => sleepThen(i32, index, expected, deadline, resolve));

// Whether this agent may block in Atomics.wait: asked once, of the engine
// itself (it throws on the browser main thread, returns elsewhere).
let canBlockCache;
export function canBlock() {
  if (canBlockCache === undefined) {
    try {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
      canBlockCache = true;
    } catch {
      canBlockCache = false;
    }
  }
  return canBlockCache;
}

function requireBlocking(call, asyncCall) {
  if (!canBlock()) {
    throw new Error(
      `wsync: ${call} would block this thread, and the browser main thread may not block; ` +
        `use await ${asyncCall} instead`,
    );
  }
}

// ------------------------------------------------------ steps and drivers --

// What a waiter wants next: finished with a result, or to sleep while
// i32[index] === expected.
const DONE_OK = Object.freeze({ done: true, ok: true });
const DONE_FAILED = Object.freeze({ done: true, ok: false });
const done = (ok) => (ok ? DONE_OK : DONE_FAILED);
const sleepWhile = (i32, index, expected) => ({ done: false, i32, index, expected });

// A bounded, load-only spin, as src/waiter.hpp's Spinner in wasm: counted in
// pauses for blocking agents (a held lock is often released within a few
// hundred cycles, and a sleep costs a futex round trip on both sides), timed
// for the event-loop driver (the spinMicros budget, never past the wait's
// deadline). What it waits for sets its share of the budget, as there: a
// Mutex's holder (LOCK_HOLDER) 1/128, a release (RELEASE: Semaphore,
// CondVar's relock) the whole, an event (EVENT: WaitGroup, Latch, Barrier,
// Once, CondVar's notify) a quarter. Waiting for a
// lock or a release, the gap between two loads doubles up to MAX_GAP
// pauses: each load pulls the holder's cache line into the shared state,
// and its unlock must fetch it back. Waiting for an event, it loads after
// every pause.
//
// A blocking agent learns how far to spin from its recent sleeps, with
// src/waiter.hpp's rule and constants: a sleep that a wake ended within
// SHORT_SLEEP_MS doubles the next spin (up to spinLimit), a longer sleep or
// a timeout halves it (down to 1/64 of spinLimit): the limit halved as often
// as the recent sleeps asked, so a new limit applies at once. After
// LONG_SLEEPS_BEFORE_PROBE long sleeps in a row at 1/64, the next spin is
// the whole limit again, so that two agents that both sleep on every hop
// find out whether spinning would catch each other's wake.
const MAX_GAP = 16;
const LOCK_HOLDER = 0;
const RELEASE = 1;
const EVENT = 2;
const LOCK_HOLDER_DIVISOR = 128;
const EVENT_DIVISOR = 4;
const SHORT_SLEEP_MS = 0.02;
const MOST_HALVINGS = 6;
const LONG_SLEEPS_BEFORE_PROBE = 32;
let halvings = 0; // this agent's; a new agent spins the whole limit; past MOST_HALVINGS, the long sleeps there
let pauseSink = 0;
const pause = () => {
  pauseSink = (pauseSink + 1) | 0; // JS has no pause instruction: a cheap step the JIT keeps
};

const budget = () => {
  const share = Math.floor(options.spinLimit / 2 ** Math.min(halvings, MOST_HALVINGS));
  return share > 0 || options.spinLimit === 0 ? share : 1;
};

class Spinner {
  constructor(timed, limit, deadline) {
    this.timed = timed; // spin by time (the event-loop driver) or by count
    this.limit = limit; // pauses per call, when counted
    this.deadline = deadline; // a timed spin never passes it
    this.stop = undefined; // performance.now() at which a timed spin stops, once started
    this.ranOutAt = undefined; // and at which a spin last ran out, until sleepStart() took it
  }
  static counted() {
    return new Spinner(false, budget(), 0);
  }
  // The blocking driver's report of one sleep: how long it lasted (ms), and
  // whether a wake ended it.
  static learn(woken, sleptMs) {
    if (woken && sleptMs < SHORT_SLEEP_MS) halvings = Math.max(0, Math.min(halvings, MOST_HALVINGS) - 1);
    else if (++halvings === MOST_HALVINGS + LONG_SLEEPS_BEFORE_PROBE) halvings = 0;
  }
  // The event-loop driver's spin, for spinMicros. Its clock starts at the
  // first look that finds the word unchanged: a wait that a wake has
  // already ended reads none (as src/waiter.hpp's).
  static timed(deadline) {
    return new Spinner(true, 0, deadline);
  }
  timedOut() {
    const t = now();
    this.stop ??= Math.min(t + options.spinMicros / 1000, this.deadline);
    if (t < this.stop) return false;
    this.ranOutAt = t;
    return true;
  }
  // The start of the sleep that follows, for the driver: the reading taken
  // when this attempt's spin ran out, before the waiter's CAS that announces
  // a sleeper, if it did; else now (src/waiter.hpp's sleep_start_ns()).
  sleepStart() {
    const at = this.ranOutAt ?? now();
    this.ranOutAt = undefined;
    return at;
  }
  // Spins while i32[index] === busy, within the budget (its share for
  // `awaited`, rounded up); the last value seen (`busy` when it ran out).
  whileEqual(i32, index, busy, awaited) {
    const maxGap = awaited === EVENT ? 1 : MAX_GAP;
    const divisor = awaited === LOCK_HOLDER ? LOCK_HOLDER_DIVISOR : awaited === EVENT ? EVENT_DIVISOR : 1;
    const limit = Math.ceil(this.limit / divisor);
    for (let spent = 0, gap = 1; ;) {
      const s = Atomics.load(i32, index);
      if (s !== busy) return s;
      if (this.timed ? this.timedOut() : spent >= limit) {
        if (!this.timed) this.ranOutAt = now(); // a timed spin read it in timedOut()
        return s;
      }
      for (let i = 0; i < gap; ++i) pause();
      spent += gap;
      if (gap < maxGap) gap *= 2;
    }
  }
}

// The blocking driver: attempt, sleep, repeat; the waiter's result.
function waitBlocking(waiter) {
  const spin = Spinner.counted();
  for (;;) {
    let step = waiter.attempt(spin);
    if (step.done) return step.ok;
    const sleptAt = spin.sleepStart();
    const remaining = waiter.deadline - sleptAt;
    const result = remaining > 0 ? Atomics.wait(step.i32, step.index, step.expected, remaining) : "timed-out";
    if (result === "not-equal") continue;
    const wokeAt = remaining > 0 ? now() : sleptAt;
    if (remaining > 0) Spinner.learn(result === "ok", wokeAt - sleptAt);
    waiter.slept?.(sleptAt, wokeAt, result === "ok");
    // The engine's timer may fire a hair early: only a timeout once the
    // deadline really passed counts (it consumed no wake).
    if (result === "timed-out" && waiter.deadline - wokeAt <= 0) {
      step = waiter.onTimeout();
      if (step.done) return step.ok;
    }
  }
}

// The event-loop driver: the same, awaiting instead of blocking.
async function waitEventLoop(waiter) {
  for (;;) {
    const spin = Spinner.timed(waiter.deadline);
    let step = waiter.attempt(spin);
    if (step.done) return step.ok;
    const sleptAt = spin.sleepStart();
    const result = await sleepAsync(step.i32, step.index, step.expected, waiter.deadline);
    if (result !== "not-equal") waiter.slept?.(sleptAt, now(), result === "ok");
    if (result === "timed-out") {
      step = waiter.onTimeout();
      if (step.done) return step.ok;
    }
  }
}

// --------------------------------------------------------------- waiters --

// The handoff's rate limit (src/mutex.cpp): once a handoff is served, no
// waiter asks for another on that lock within the bound. Per agent, by the
// word's index hashed as C++ hashes its address; in this agent's clock.
const nextHandoffAt = new Float64Array(64);
const gateSlot = (index) => Math.imul(index, 0x9e3779b1) >>> 26;

// The Mutex lock loop (src/mutex_waiter.hpp; the states and their rules:
// include/wsync/mutex.hpp). `contended`: take the mutex only as CONTENDED, as
// after a sleep (CondVar's relock, so waiters woken together queue on the
// mutex instead of spinning on it).
class MutexWaiter {
  constructor(i32, index, deadline, contended = false) {
    this.i32 = i32;
    this.index = index;
    this.deadline = deadline;
    this.asContended = contended;
    this.wasWoken = false; // a sleep on the word ended in a wake
    this.firstSleepAt = -1; // performance.now() at which the first sleep began; -1 before it
    this.lastWakeAt = -1; // and at which the last one ended
  }
  // The driver's report of a sleep (src/waiter.hpp): its clock readings
  // serve the handoff bound, so that this waiter reads no clock of its own.
  slept(from, to, woken) {
    if (!this.hasSlept()) this.firstSleepAt = from;
    this.lastWakeAt = to;
    this.wasWoken ||= woken;
  }
  attempt(spin) {
    const { i32, index } = this;
    // Spin while LOCKED with no sleepers; stop at once on any other value.
    // CondVar's relock waits for the notifier's unlock: a release.
    let s = spin.whileEqual(i32, index, LOCKED, this.asContended ? RELEASE : LOCK_HOLDER);
    for (;;) {
      let next;
      switch (s) {
        case UNLOCKED: {
          // Taken as CONTENDED by a waiter that has slept: its wake may have
          // been meant for other sleepers, and only a CONTENDED word makes
          // the next unlock wake one. A wait that found the word changed
          // used up no wake: LOCKED, so the unlock wakes nobody in vain.
          const held = this.hasSlept() || this.asContended ? CONTENDED : LOCKED;
          s = Atomics.compareExchange(i32, index, UNLOCKED, held);
          if (s === UNLOCKED) return DONE_OK;
          continue;
        }
        case HANDOFF:
          // Released to the sleepers: ours once a sleep on the word ended in
          // a wake (not a sleep that found the word changed); else held.
          if (!this.wasWoken) return sleepWhile(i32, index, HANDOFF);
          if ((s = this.takeHandoff()) === HANDOFF) return DONE_OK;
          continue;
        case LOCKED:
        case CONTENDED:
          next = this.mayAsk() ? STARVING : CONTENDED;
          break;
        case STARVING:
          next = STARVING; // asked already; the handoff goes to a sleeper
          break;
        default:
          throw mutexStateError(s);
      }
      // Announce a sleeper (and maybe the request); sleep while it holds.
      if (s !== next) {
        const seen = Atomics.compareExchange(i32, index, s, next);
        if (seen !== s) {
          s = seen;
          continue;
        }
      }
      return sleepWhile(i32, index, next);
    }
  }
  // A timed-out sleep consumed no wake; but a handoff may be waiting with
  // nobody else to take it, or the request pending may be ours.
  onTimeout() {
    const { i32, index } = this;
    let s = Atomics.load(i32, index);
    for (;;) {
      if (s === HANDOFF) {
        if ((s = this.takeHandoff()) === HANDOFF) return DONE_OK;
      } else if (s === STARVING && this.wasWoken && this.pastBound()) {
        if ((s = Atomics.compareExchange(i32, index, STARVING, CONTENDED)) === STARVING) return DONE_FAILED;
      } else {
        return DONE_FAILED;
      }
    }
  }
  // As CONTENDED if past the bound, which serves the request and closes the
  // gate; else the request (someone else's) stands.
  takeHandoff() {
    const served = this.pastBound();
    const s = Atomics.compareExchange(this.i32, this.index, HANDOFF, served ? CONTENDED : STARVING);
    if (s === HANDOFF && served) {
      nextHandoffAt[gateSlot(this.index)] = this.lastWakeAt + options.handoffAfterMicros / 1000;
    }
    return s;
  }
  // From the start of the first sleep to the end of the last.
  pastBound() {
    return this.hasSlept() && (this.lastWakeAt - this.firstSleepAt) * 1000 >= options.handoffAfterMicros;
  }
  // A sleep on the word really began (the driver reported one, woken or
  // timed out), not only a wait that found the word changed.
  hasSlept() {
    return this.firstSleepAt >= 0;
  }
  // Only a waiter that can take the handoff (woken, past the bound) may ask
  // for it, and only while the lock's gate is open.
  mayAsk() {
    if (!this.wasWoken || !this.pastBound()) return false;
    // Never closed for longer than twice the bound, as in C++ (here: even
    // after the bound shrank).
    const wait = nextHandoffAt[gateSlot(this.index)] - this.lastWakeAt;
    return wait <= 0 || wait * 1000 > 2 * options.handoffAfterMicros;
  }
}

// Words whose bit 31 means "sleepers possible" (WaitGroup, Latch, Barrier):
// waits until `released(low 31 bits)` (src/waiter.hpp: WaitersBitWaiter).
class WaitersBitWaiter {
  constructor(i32, index, released, deadline) {
    this.i32 = i32;
    this.index = index;
    this.released = released;
    this.deadline = deadline;
  }
  attempt(spin) {
    const { i32, index } = this;
    let s = Atomics.load(i32, index);
    for (;;) {
      if (this.released(s & LOW_BITS)) return DONE_OK;
      // Spin before announcing a sleeper, as the C++ waiter does: a release
      // that comes within the spin then finds WAITERS clear and costs its
      // releaser no wake.
      const seen = spin.whileEqual(i32, index, s, EVENT);
      if (seen !== s) {
        s = seen;
        continue;
      }
      if ((s & WAITERS) === 0) {
        // Announce a sleeper, so that the change that releases us wakes us.
        const old = Atomics.compareExchange(i32, index, s, s | WAITERS);
        if (old !== s) {
          s = old;
          continue;
        }
        s |= WAITERS;
      }
      // Every change of the low bits changes the word: sleep only while it
      // holds what we saw, so a change after our CAS is not missed.
      return sleepWhile(i32, index, s);
    }
  }
  onTimeout() {
    return done(this.released(Atomics.load(this.i32, this.index) & LOW_BITS));
  }
}

const isZero = (count) => count === 0;

// Takes a Semaphore permit, sleeping while there is none (src/semaphore.cpp).
class SemaphoreWaiter {
  constructor(sem, deadline) {
    this.sem = sem;
    this.deadline = deadline;
    this.registered = false;
  }
  attempt(spin) {
    const { i32, index } = this.sem;
    for (;;) {
      if (this.sem.tryAcquire()) return this.finish(true);
      if (!this.registered) {
        // Spin first: a permit that arrives soon then costs its releaser no wake.
        if (spin.whileEqual(i32, index, 0, RELEASE) !== 0) continue;
        // Register, then re-check (both seq_cst): either we see the permit
        // or its releaser sees us in `sleepers` (docs/abi.md).
        Atomics.add(i32, index + SEM_SLEEPERS, 1);
        this.registered = true;
        continue;
      }
      if (Atomics.load(i32, index) !== 0) continue;
      return sleepWhile(i32, index, 0);
    }
  }
  // One last try: a permit released as we timed out is still ours to take.
  onTimeout() {
    return this.finish(this.sem.tryAcquire());
  }
  finish(ok) {
    if (this.registered) Atomics.sub(this.sem.i32, this.sem.index + SEM_SLEEPERS, 1);
    this.registered = false;
    return done(ok);
  }
}

// Sleeps while a CondVar's sequence number is still `seq`.
class SeqWaiter {
  constructor(i32, index, seq, deadline) {
    this.i32 = i32;
    this.index = index;
    this.seq = seq;
    this.deadline = deadline;
  }
  attempt(spin) {
    if (spin.whileEqual(this.i32, this.index, this.seq, EVENT) !== this.seq) return DONE_OK;
    return sleepWhile(this.i32, this.index, this.seq);
  }
  onTimeout() {
    return done(Atomics.load(this.i32, this.index) !== this.seq);
  }
}

// Waits while another caller runs a Once's function. Finishes true when this
// caller must run it (it moved the word to RUNNING), false once it completed.
class OnceWaiter {
  constructor(i32, index) {
    this.i32 = i32;
    this.index = index;
    this.deadline = Infinity;
  }
  attempt(spin) {
    const { i32, index } = this;
    let s = Atomics.load(i32, index);
    for (;;) {
      switch (s) {
        case COMPLETE:
          return DONE_FAILED;
        case INCOMPLETE:
          s = Atomics.compareExchange(i32, index, INCOMPLETE, RUNNING);
          if (s === INCOMPLETE) return DONE_OK;
          continue;
        case RUNNING:
          // f may be quick: look a little before announcing a sleeper.
          if ((s = spin.whileEqual(i32, index, RUNNING, EVENT)) !== RUNNING) continue;
          s = Atomics.compareExchange(i32, index, RUNNING, QUEUED);
          if (s !== RUNNING) continue;
          return sleepWhile(i32, index, QUEUED);
        case QUEUED:
          return sleepWhile(i32, index, QUEUED);
        default:
          throw new Error(`wsync: corrupted Once word (${s})`);
      }
    }
  }
  onTimeout() {
    return DONE_FAILED; // never: no deadline
  }
}

// --------------------------------------------------------------- classes --

// What every primitive shares: NUMINTS Int32Array elements from `index`,
// checked once.
class Words {
  static NUMINTS = 1;

  /** Stores the initial state (all zero here); call once, before any agent uses the words. */
  static initialize(i32, index) {
    checkWords(i32, index, this.name, this.NUMINTS);
    for (let i = 0; i < this.NUMINTS; ++i) Atomics.store(i32, index + i, 0);
    return index;
  }

  /** The object of a C++ wsync type (or its C struct) at `byteOffset` in wasm memory. */
  static at(memory, byteOffset, ...rest) {
    const [i32, index] = viewAt(memory, byteOffset, this.name, this.NUMINTS);
    return new this(i32, index, ...rest);
  }

  constructor(i32, index) {
    checkWords(i32, index, new.target.name, new.target.NUMINTS);
    this.i32 = i32;
    this.index = index;
  }
}

function mutexStateError(state) {
  return new Error(`wsync: corrupted Mutex word (${state})`);
}

/** A futex mutex on one Int32Array element, with a handoff to a waiter past the bound (include/wsync/mutex.hpp). */
export class Mutex extends Words {
  /** Takes the mutex if it is free; never waits. */
  tryLock() {
    return Atomics.compareExchange(this.i32, this.index, UNLOCKED, LOCKED) === UNLOCKED;
  }

  /** Blocks until locked (true) or until `timeoutMs` passes (false). Not on the browser main thread. */
  lock(timeoutMs) {
    const deadline = deadlineAfter(timeoutMs);
    requireBlocking("Mutex.lock()", "mutex.lockAsync()");
    if (this.tryLock()) return true;
    return waitBlocking(new MutexWaiter(this.i32, this.index, deadline));
  }

  /** Resolves true once locked, false after `timeoutMs`. Never blocks the thread. */
  async lockAsync(timeoutMs) {
    const deadline = deadlineAfter(timeoutMs);
    if (this.tryLock()) return true;
    return waitEventLoop(new MutexWaiter(this.i32, this.index, deadline));
  }

  /** Releases the mutex; throws if it was not locked (and then changes nothing). */
  unlock() {
    const { i32, index } = this;
    // The C++ unlock's AND with HANDOFF: LOCKED is freed; CONTENDED is freed
    // and one sleeper woken; STARVING is handed to a sleeper. As a CAS, so
    // that a word in no state is left as found. A sleeper may turn
    // CONTENDED into STARVING meanwhile: retry with what the CAS found.
    let s = LOCKED;
    for (;;) {
      if (s === LOCKED || s === CONTENDED || s === STARVING) {
        const seen = Atomics.compareExchange(i32, index, s, s & HANDOFF);
        if (seen === s) {
          if (s !== LOCKED) Atomics.notify(i32, index, 1);
          return;
        }
        s = seen;
      } else if (s === UNLOCKED || s === HANDOFF) {
        throw new Error("wsync: unlock of unlocked Mutex");
      } else {
        throw mutexStateError(s);
      }
    }
  }
}

// The counter of WaitGroup and Latch: add `delta`; refused before anything is
// stored if the result leaves 0..2^31-1. Reaching zero clears WAITERS in the
// same CAS and wakes everyone (src/counter.cpp).
function counterAdd(i32, index, delta, belowZero, overflow) {
  let s = Atomics.load(i32, index);
  for (;;) {
    const count = (s & LOW_BITS) + delta;
    if (count < 0) throw new RangeError(belowZero);
    if (count > LOW_BITS) throw new RangeError(overflow);
    const next = count === 0 ? 0 : (s & WAITERS) | count;
    const seen = Atomics.compareExchange(i32, index, s, next);
    if (seen === s) {
      if (count === 0 && (s & WAITERS) !== 0) Atomics.notify(i32, index); // wake all
      return;
    }
    s = seen;
  }
}

// What WaitGroup and Latch share: the counter word and its wait (src/counter.cpp).
class CounterWords extends Words {
  /** The counter (a snapshot). */
  get count() {
    return Atomics.load(this.i32, this.index) & LOW_BITS;
  }

  /** Blocks until the counter is zero (true) or `timeoutMs` passes (false). Not on the browser main thread. */
  wait(timeoutMs) {
    const deadline = deadlineAfter(timeoutMs);
    const handle = this instanceof WaitGroup ? "wg" : "latch";
    requireBlocking(`${this.constructor.name}.wait()`, `${handle}.waitAsync()`);
    return waitBlocking(new WaitersBitWaiter(this.i32, this.index, isZero, deadline));
  }

  /** Resolves true once the counter is zero, false after `timeoutMs`. Never blocks the thread. */
  async waitAsync(timeoutMs) {
    const deadline = deadlineAfter(timeoutMs);
    return waitEventLoop(new WaitersBitWaiter(this.i32, this.index, isZero, deadline));
  }
}

/** A Go-style WaitGroup on one Int32Array element (docs/abi.md). */
export class WaitGroup extends CounterWords {
  /** Adds `delta` (an integer, may be negative) to the counter. */
  add(delta = 1) {
    if (!Number.isInteger(delta) || delta < -LOW_BITS || delta > LOW_BITS) {
      throw new RangeError(`wsync: WaitGroup.add() needs an integer delta, got ${describe(delta)}`);
    }
    counterAdd(this.i32, this.index, delta, "wsync: negative WaitGroup counter", "wsync: WaitGroup counter overflow");
  }

  done() {
    this.add(-1);
  }
}

/** A single-use countdown, like std::latch, on one Int32Array element (docs/abi.md). */
export class Latch extends CounterWords {
  /** Stores the initial count at i32[index]; returns index. */
  static initialize(i32, index, count) {
    checkWords(i32, index, "Latch", 1);
    checkCount(count, 0, "Latch.initialize()", "count");
    Atomics.store(i32, index, count);
    return index;
  }

  /** Counts down by `n`; below zero throws "wsync: Latch counted down below zero" and stores nothing. */
  countDown(n = 1) {
    checkCount(n, 0, "Latch.countDown()", "n");
    const below = "wsync: Latch counted down below zero";
    counterAdd(this.i32, this.index, -n, below, below);
  }

  /** Whether the count reached zero; never waits. */
  tryWait() {
    return this.count === 0;
  }

  /** countDown(n), then wait(). Not on the browser main thread (checked before counting down). */
  arriveAndWait(n = 1) {
    requireBlocking("Latch.arriveAndWait()", "latch.arriveAndWaitAsync()");
    this.countDown(n);
    return this.wait();
  }

  /** countDown(n), then waitAsync(). */
  async arriveAndWaitAsync(n = 1) {
    this.countDown(n);
    return this.waitAsync();
  }
}

function semaphoreStateError(count, max) {
  return new Error(`wsync: corrupted Semaphore words (count ${count}, max ${max})`);
}

/** A counting semaphore with a maximum, on three Int32Array elements (docs/abi.md). */
export class Semaphore extends Words {
  static NUMINTS = 3;
  /** The largest maximum: counts are 31 bits. */
  static MAX = LOW_BITS;

  /** Stores `initial` permits and the maximum at i32[index..index+2]; returns index. */
  static initialize(i32, index, initial = 0, max = LOW_BITS) {
    checkWords(i32, index, "Semaphore", 3);
    checkCount(max, 0, "Semaphore.initialize()", "max");
    checkCount(initial, 0, "Semaphore.initialize()", "initial count");
    if (initial > max) {
      throw new RangeError(`wsync: Semaphore.initialize() initial count ${initial} exceeds the maximum ${max}`);
    }
    Atomics.store(i32, index + SEM_SLEEPERS, 0);
    Atomics.store(i32, index + SEM_MAX, max);
    Atomics.store(i32, index, initial);
    return index;
  }

  /** Permits available (a snapshot). */
  get count() {
    return Atomics.load(this.i32, this.index);
  }

  /** The maximum, fixed at initialization. */
  get max() {
    return Atomics.load(this.i32, this.index + SEM_MAX);
  }

  /** Takes a permit if one is available; never waits. */
  tryAcquire() {
    const { i32, index } = this;
    let s = Atomics.load(i32, index);
    while (s > 0) {
      const seen = Atomics.compareExchange(i32, index, s, s - 1);
      if (seen === s) return true;
      s = seen;
    }
    // A negative count (2^31 or more in C++) is no state; a waiter would
    // never see 0 and never sleep, so it is reported instead.
    if (s < 0) throw semaphoreStateError(s, Atomics.load(i32, index + SEM_MAX));
    return false;
  }

  /** Blocks until a permit is taken (true) or `timeoutMs` passes (false). Not on the browser main thread. */
  acquire(timeoutMs) {
    const deadline = deadlineAfter(timeoutMs);
    requireBlocking("Semaphore.acquire()", "sem.acquireAsync()");
    return this.tryAcquire() || waitBlocking(new SemaphoreWaiter(this, deadline));
  }

  /** Resolves true once a permit is taken, false after `timeoutMs`. Never blocks the thread. */
  async acquireAsync(timeoutMs) {
    const deadline = deadlineAfter(timeoutMs);
    return this.tryAcquire() || waitEventLoop(new SemaphoreWaiter(this, deadline));
  }

  /** Adds `n` permits; past the maximum throws "wsync: Semaphore released past its maximum", storing nothing. */
  release(n = 1) {
    checkCount(n, 0, "Semaphore.release()", "n");
    if (n === 0) return;
    const { i32, index } = this;
    const max = Atomics.load(i32, index + SEM_MAX);
    let s = Atomics.load(i32, index);
    for (;;) {
      if (s < 0 || s > max || max < 0) throw semaphoreStateError(s, max);
      if (n > max - s) throw new RangeError("wsync: Semaphore released past its maximum");
      const seen = Atomics.compareExchange(i32, index, s, s + n);
      if (seen === s) break;
      s = seen;
    }
    // Notify only when someone may sleep; wake as many as there are permits.
    if (Atomics.load(i32, index + SEM_SLEEPERS) !== 0) Atomics.notify(i32, index, n);
  }
}

/** A condition variable on two Int32Array elements: a sequence number and a waiter count (docs/abi.md). */
export class CondVar extends Words {
  static NUMINTS = 2;

  /** Wakes one waiter, if any. Call with the mutex held (or after changing the predicate under it). */
  notifyOne() {
    if (Atomics.load(this.i32, this.index + CV_WAITERS) !== 0) this.#bump(1);
  }

  /** Wakes every waiter; they then queue on the mutex one by one. */
  notifyAll() {
    if (Atomics.load(this.i32, this.index + CV_WAITERS) !== 0) this.#bump(undefined);
  }

  #bump(count) {
    Atomics.add(this.i32, this.index, 1);
    Atomics.notify(this.i32, this.index, count);
  }

  // Registers a waiter and unlocks `mutex` (held by the caller); the
  // sequence number to sleep on. A mutex that was not locked is reported
  // and the registration undone: misuse changes nothing.
  #begin(mutex, call) {
    if (!(mutex instanceof Mutex)) throw new TypeError(`wsync: ${call} needs a wsync Mutex, got ${describe(mutex)}`);
    Atomics.add(this.i32, this.index + CV_WAITERS, 1);
    const seq = Atomics.load(this.i32, this.index);
    try {
      mutex.unlock();
    } catch (error) {
      Atomics.sub(this.i32, this.index + CV_WAITERS, 1);
      throw error;
    }
    return seq;
  }

  /**
   * Unlocks `mutex`, sleeps until notified (true) or `timeoutMs` passes
   * (false), relocks `mutex`. Spurious wakeups are possible: loop on a
   * predicate. Not on the browser main thread.
   */
  wait(mutex, timeoutMs) {
    const deadline = deadlineAfter(timeoutMs);
    requireBlocking("CondVar.wait()", "cv.waitAsync()");
    const seq = this.#begin(mutex, "CondVar.wait()");
    let notified;
    try {
      notified = waitBlocking(new SeqWaiter(this.i32, this.index, seq, deadline));
    } finally {
      Atomics.sub(this.i32, this.index + CV_WAITERS, 1);
      waitBlocking(new MutexWaiter(mutex.i32, mutex.index, Infinity, true));
    }
    return notified;
  }

  /** As wait(), awaiting instead of blocking; resolves with the mutex held again. */
  async waitAsync(mutex, timeoutMs) {
    const deadline = deadlineAfter(timeoutMs);
    const seq = this.#begin(mutex, "CondVar.waitAsync()");
    let notified;
    try {
      notified = await waitEventLoop(new SeqWaiter(this.i32, this.index, seq, deadline));
    } finally {
      Atomics.sub(this.i32, this.index + CV_WAITERS, 1);
      await waitEventLoop(new MutexWaiter(mutex.i32, mutex.index, Infinity, true));
    }
    return notified;
  }
}

function barrierStateError(word, value) {
  return new Error(`wsync: corrupted Barrier words (${word} ${value})`);
}

/**
 * A reusable phase barrier, like std::barrier, on three Int32Array elements
 * (docs/abi.md). `completion`, if given, runs on the agent whose arrival
 * completes a phase, before anyone is released; each handle carries its own
 * (a C++ Barrier<F> completed by a JS arrival runs the JS handle's).
 */
export class Barrier extends Words {
  static NUMINTS = 3;

  /** Stores a barrier of `count` participants at i32[index..index+2]; returns index. */
  static initialize(i32, index, count) {
    checkWords(i32, index, "Barrier", 3);
    checkCount(count, 0, "Barrier.initialize()", "count");
    Atomics.store(i32, index + BARRIER_REMAINING, count);
    Atomics.store(i32, index + BARRIER_EXPECTED, count);
    Atomics.store(i32, index, 0);
    return index;
  }

  constructor(i32, index, completion) {
    super(i32, index);
    if (completion !== undefined) checkFunction(completion, "Barrier completion");
    this.completion = completion;
  }

  /** The current phase number (a snapshot; wraps at 2^31). */
  get phase() {
    return Atomics.load(this.i32, this.index) & LOW_BITS;
  }

  /**
   * Arrives `n` times (default 1) and returns the phase arrived in: the
   * token for wait(). More arrivals than the phase still needs throw
   * "wsync: Barrier over-arrival" and store nothing.
   */
  arrive(n = 1) {
    checkCount(n, 1, "Barrier.arrive()", "n");
    const { phase, last } = this.#countDown(n);
    if (last) this.#complete(phase);
    return phase;
  }

  // Counts `n` arrivals (src/barrier.cpp: BarrierWords::count_down): the
  // phase arrived in, and whether this arrival completed it. Refused before
  // anything is stored, with the error thrown.
  #countDown(n) {
    const { i32, index } = this;
    // The phase cannot move on before this arrival: it is one it waits for.
    const phase = Atomics.load(i32, index) & LOW_BITS;
    let r = Atomics.load(i32, index + BARRIER_REMAINING);
    for (;;) {
      if (r < 0) throw barrierStateError("remaining", r);
      if (n > r) throw new RangeError("wsync: Barrier over-arrival");
      const seen = Atomics.compareExchange(i32, index + BARRIER_REMAINING, r, r - n);
      if (seen === r) return { phase, last: n === r };
      r = seen;
    }
  }

  // The last arrival: run the completion, reset the count, start the next
  // phase (clearing WAITERS), wake everyone if anyone may sleep. A throwing
  // completion still completes the phase (nobody is left waiting), then throws.
  #complete(phase) {
    const { i32, index } = this;
    try {
      if (this.completion !== undefined) this.completion();
    } finally {
      Atomics.store(i32, index + BARRIER_REMAINING, Atomics.load(i32, index + BARRIER_EXPECTED));
      const old = Atomics.exchange(i32, index, (phase + 1) & LOW_BITS);
      if ((old & WAITERS) !== 0) Atomics.notify(i32, index);
    }
  }

  #waiter(token, timeoutMs, call) {
    if (!Number.isInteger(token) || token < 0 || token > LOW_BITS) {
      throw new RangeError(`wsync: ${call} needs a token from arrive(), got ${describe(token)}`);
    }
    const deadline = deadlineAfter(timeoutMs);
    return new WaitersBitWaiter(this.i32, this.index, (phase) => phase !== token, deadline);
  }

  /** Blocks until the token's phase completed (true) or `timeoutMs` passes (false). Not on the browser main thread. */
  wait(token, timeoutMs) {
    const waiter = this.#waiter(token, timeoutMs, "Barrier.wait()");
    requireBlocking("Barrier.wait()", "barrier.waitAsync()");
    return waitBlocking(waiter);
  }

  /** Resolves true once the token's phase completed, false after `timeoutMs`. Never blocks the thread. */
  async waitAsync(token, timeoutMs) {
    return waitEventLoop(this.#waiter(token, timeoutMs, "Barrier.waitAsync()"));
  }

  /** arrive(), then wait() for that phase. Not on the browser main thread (checked before arriving). */
  arriveAndWait() {
    requireBlocking("Barrier.arriveAndWait()", "barrier.arriveAndWaitAsync()");
    this.wait(this.arrive());
  }

  /** arrive(), then waitAsync() for that phase. */
  async arriveAndWaitAsync() {
    await this.waitAsync(this.arrive());
  }

  /** Arrives once and leaves: one participant fewer from the next phase on. */
  arriveAndDrop() {
    const { i32, index } = this;
    // First: if this arrival completes the phase, the reset must see it.
    let e = Atomics.load(i32, index + BARRIER_EXPECTED);
    for (;;) {
      if (e < 0) throw barrierStateError("expected", e);
      if (e === 0) throw new RangeError("wsync: Barrier over-arrival");
      const seen = Atomics.compareExchange(i32, index + BARRIER_EXPECTED, e, e - 1);
      if (seen === e) break;
      e = seen;
    }
    let arrival;
    try {
      arrival = this.#countDown(1);
    } catch (error) {
      Atomics.add(i32, index + BARRIER_EXPECTED, 1); // refused: undo the drop
      throw error;
    }
    if (arrival.last) this.#complete(arrival.phase);
  }
}

/** Runs a function exactly once across every agent, like std::call_once, on one Int32Array element (docs/abi.md). */
export class Once extends Words {
  /** Whether a call has completed. */
  get isComplete() {
    return Atomics.load(this.i32, this.index) === COMPLETE;
  }

  /**
   * Runs `fn` if no call has completed yet; otherwise waits until the call
   * in progress (in any agent) returns. True if this call ran `fn`. If `fn`
   * throws, the Once is left incomplete and another caller may run it. Not
   * on the browser main thread.
   */
  callOnce(fn) {
    checkFunction(fn, "Once.callOnce()");
    requireBlocking("Once.callOnce()", "once.callOnceAsync()");
    if (this.isComplete || !waitBlocking(new OnceWaiter(this.i32, this.index))) return false;
    let completed = false;
    try {
      fn();
      completed = true;
    } finally {
      this.#finish(completed);
    }
    return true;
  }

  /** As callOnce(), awaiting instead of blocking; `fn` may be async (awaited while the Once is running). */
  async callOnceAsync(fn) {
    checkFunction(fn, "Once.callOnceAsync()");
    if (this.isComplete || !(await waitEventLoop(new OnceWaiter(this.i32, this.index)))) return false;
    let completed = false;
    try {
      await fn();
      completed = true;
    } finally {
      this.#finish(completed);
    }
    return true;
  }

  // After fn: COMPLETE (or INCOMPLETE if it threw); wake everyone only if
  // someone queued (on INCOMPLETE one of them wins and runs fn).
  #finish(completed) {
    const previous = Atomics.exchange(this.i32, this.index, completed ? COMPLETE : INCOMPLETE);
    if (previous === QUEUED) Atomics.notify(this.i32, this.index);
    else if (previous !== RUNNING) throw new Error(`wsync: corrupted Once word (${previous})`);
  }
}
