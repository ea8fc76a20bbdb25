// wsync.mjs: wsync's primitives in JavaScript, on the same 32-bit words, with
// the same states and algorithms as the C++ library (docs/abi.md), so a JS
// worker and a C++ pthread can lock one Mutex, and a JS main thread can await
// a WaitGroup that C++ threads count down.
//
// Shape (after parlib-simple): the memory is set up once, then every agent
// builds its own handle: `new Mutex(i32, index)` or `Mutex.at(memory, ptr)`.
//
// Blocking calls (`lock`, `wait`) use Atomics.wait and work in workers and on
// Node's main thread. The browser main thread may not block: there use the
// `...Async` forms, which spin briefly, then await Atomics.waitAsync (or poll
// with setTimeout and backoff where waitAsync is missing).
//
// Wake protocol: a waiter that was woken ('ok') always retries its word once
// before it honours its deadline, so an async wait that times out at the
// moment it is notified never swallows a wake meant for another waiter.

// Mutex states (docs/abi.md).
const UNLOCKED = 0; // free
const LOCKED = 1; // held, nobody sleeps on the word
const CONTENDED = 2; // held, sleepers possible

// WaitGroup word: bit 31 WAITERS (sleepers possible), bits 30..0 the counter.
const WAITERS = 0x80000000 | 0; // as an Int32Array element: -2147483648
const COUNTER_MASK = 0x7fffffff;

const SPIN_LIMIT = 100; // load-only spins before sleeping, as in C++

const options = {
  // Time the async forms spin before they await, in microseconds.
  spinMicros: 50,
};

/** Sets run-time options: `{ spinMicros }` (async spin budget, microseconds). */
export function configure(next) {
  if (next === null || typeof next !== "object") {
    throw new TypeError("wsync: configure() needs an options object");
  }
  if ("spinMicros" in next) {
    const v = next.spinMicros;
    if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v)) {
      throw new RangeError(`wsync: spinMicros must be a finite number >= 0, got ${describe(v)}`);
    }
    options.spinMicros = v;
  }
  return { ...options };
}

function describe(value) {
  if (value === null) return "null";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object" || typeof value === "function") {
    return (value.constructor && value.constructor.name) || typeof value;
  }
  return typeof value;
}

function checkWord(i32, index, owner) {
  if (!(i32 instanceof Int32Array)) {
    throw new TypeError(`wsync: ${owner} needs an Int32Array, got ${describe(i32)}`);
  }
  if (typeof SharedArrayBuffer === "undefined" || !(i32.buffer instanceof SharedArrayBuffer)) {
    throw new TypeError(
      `wsync: ${owner} needs an Int32Array on shared memory (a SharedArrayBuffer or a shared ` +
        `WebAssembly.Memory); in a browser that requires cross-origin isolation (COOP/COEP headers)`,
    );
  }
  if (!Number.isInteger(index) || index < 0 || index >= i32.length) {
    throw new RangeError(
      `wsync: ${owner} index ${describe(index)} is out of range 0..${i32.length - 1}`,
    );
  }
}

// The Int32Array view of a C++ object at `byteOffset` in wasm memory.
function viewAt(memoryOrHeap, byteOffset, owner) {
  let buffer;
  if (typeof WebAssembly !== "undefined" && memoryOrHeap instanceof WebAssembly.Memory) {
    buffer = memoryOrHeap.buffer;
  } else if (ArrayBuffer.isView(memoryOrHeap)) {
    buffer = memoryOrHeap.buffer;
  } else if (typeof SharedArrayBuffer !== "undefined" && memoryOrHeap instanceof SharedArrayBuffer) {
    buffer = memoryOrHeap;
  } else {
    throw new TypeError(
      `wsync: ${owner}.at() needs a WebAssembly.Memory, a SharedArrayBuffer or a typed array ` +
        `(e.g. Module.HEAP32), got ${describe(memoryOrHeap)}`,
    );
  }
  if (!Number.isInteger(byteOffset) || byteOffset < 0) {
    throw new RangeError(`wsync: ${owner}.at() byte offset ${describe(byteOffset)} is not a valid address`);
  }
  if (byteOffset % 4 !== 0) {
    throw new RangeError(`wsync: ${owner}.at() byte offset ${byteOffset} is not 4-byte aligned`);
  }
  if (byteOffset + 4 > buffer.byteLength) {
    throw new RangeError(
      `wsync: ${owner}.at() byte offset ${byteOffset} is outside the memory (${buffer.byteLength} bytes)`,
    );
  }
  return [new Int32Array(buffer), byteOffset >> 2];
}

// A timeout in ms: undefined means forever; otherwise a number >= 0 (or Infinity).
function checkTimeout(timeoutMs) {
  if (timeoutMs === undefined) return Infinity;
  if (typeof timeoutMs !== "number" || Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(
      `wsync: timeout must be a number of milliseconds >= 0 or Infinity, got ${describe(timeoutMs)}`,
    );
  }
  return timeoutMs;
}

const now = () => performance.now();

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

// Sleeps while i32[index] === expected, until `deadline` (performance.now()
// ms). Resolves 'ok' (woken), 'not-equal' or 'timed-out'. Holds a timer while
// pending: in Node a pending waitAsync does not keep the process alive.
async function sleepAsync(i32, index, expected, deadline) {
  for (;;) {
    const remaining = deadline - now();
    if (remaining <= 0) return "timed-out";
    if (typeof Atomics.waitAsync !== "function") return pollAsync(i32, index, expected, deadline);
    const result = Atomics.waitAsync(i32, index, expected, remaining);
    let value = result.value; // 'not-equal' or 'timed-out' when settled synchronously
    if (result.async) {
      // Held until the wait settles (not sized to `remaining`: the engine's
      // timeout may fire after ours would, leaving nothing to keep Node up).
      const keepAlive = setInterval(() => {}, 2 ** 30);
      try {
        value = await result.value;
      } finally {
        clearInterval(keepAlive);
      }
    }
    // The engine's timer can fire a hair before performance.now() reaches
    // the deadline; a timeout consumed no wake, so simply wait the rest.
    if (value !== "timed-out") return value;
  }
}

// Fallback where Atomics.waitAsync is missing: poll with setTimeout, backing
// off from 0 to 8 ms. It never registers as a waiter, so it can swallow no wake.
async function pollAsync(i32, index, expected, deadline) {
  for (let delay = 0; ; delay = Math.min(8, delay * 2 || 0.25)) {
    if (Atomics.load(i32, index) !== expected) return "ok";
    const remaining = deadline - now();
    if (remaining <= 0) return "timed-out";
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, remaining)));
  }
}

// Load-only spin (count-bounded, for blocking agents): last state seen.
function spinCount(i32, index) {
  for (let i = 0; ; ++i) {
    const s = Atomics.load(i32, index);
    if (s !== LOCKED || i === SPIN_LIMIT) return s;
  }
}

// Load-only spin (time-bounded, for the async forms): last state seen.
function spinTime(i32, index, busy) {
  const stop = now() + options.spinMicros / 1000;
  for (;;) {
    const s = Atomics.load(i32, index);
    if (s !== busy || now() >= stop) return s;
  }
}

function mutexStateError(state) {
  return new Error(`wsync: corrupted Mutex word (${state})`);
}

// What every primitive shares: one Int32Array element, checked once.
class Word {
  static NUMINTS = 1;

  /** Stores the initial state (0 for every primitive); call once, before any agent uses the word. */
  static initialize(i32, index) {
    checkWord(i32, index, this.name);
    Atomics.store(i32, index, 0);
    return index;
  }

  /** The object of a C++ wsync type (or its C struct) at `byteOffset` in wasm memory. */
  static at(memoryOrHeap, byteOffset) {
    const [i32, index] = viewAt(memoryOrHeap, byteOffset, this.name);
    return new this(i32, index);
  }

  constructor(i32, index) {
    checkWord(i32, index, new.target.name);
    this.i32 = i32;
    this.index = index;
  }
}

/** A three-state futex mutex on one Int32Array element (docs/abi.md). */
export class Mutex extends Word {

  /** Takes the mutex if it is free; never waits. */
  tryLock() {
    return Atomics.compareExchange(this.i32, this.index, UNLOCKED, LOCKED) === UNLOCKED;
  }

  /** Blocks until locked (true) or until `timeoutMs` passes (false). Not on the browser main thread. */
  lock(timeoutMs) {
    const timeout = checkTimeout(timeoutMs);
    requireBlocking("Mutex.lock()", "mutex.lockAsync()");
    if (this.tryLock()) return true;
    const { i32, index } = this;
    const deadline = now() + timeout;
    let s = spinCount(i32, index);
    if (s === UNLOCKED && this.tryLock()) return true;
    for (;;) {
      if (s < UNLOCKED || s > CONTENDED) throw mutexStateError(s);
      // Announce a sleeper; a swap that finds the mutex free owns it.
      if (s !== CONTENDED && Atomics.exchange(i32, index, CONTENDED) === UNLOCKED) return true;
      const remaining = deadline - now();
      if (remaining <= 0) return false;
      const result = Atomics.wait(i32, index, CONTENDED, remaining);
      // 'timed-out' consumed no wake; on 'ok' we retry before any deadline check.
      if (result === "timed-out" && deadline - now() <= 0) return false;
      s = spinCount(i32, index);
    }
  }

  /** Resolves true once locked, false after `timeoutMs`. Never blocks the thread. */
  async lockAsync(timeoutMs) {
    const timeout = checkTimeout(timeoutMs);
    if (this.tryLock()) return true;
    const { i32, index } = this;
    const deadline = now() + timeout;
    let s = spinTime(i32, index, LOCKED);
    if (s === UNLOCKED && this.tryLock()) return true;
    for (;;) {
      if (s < UNLOCKED || s > CONTENDED) throw mutexStateError(s);
      if (s !== CONTENDED && Atomics.exchange(i32, index, CONTENDED) === UNLOCKED) return true;
      const result = await sleepAsync(i32, index, CONTENDED, deadline);
      if (result === "timed-out") return false; // no wake was consumed
      s = Atomics.load(i32, index); // woken or changed: retry once more at least
    }
  }

  /** Releases the mutex; throws if it was not locked (and then changes nothing). */
  unlock() {
    const { i32, index } = this;
    const previous = Atomics.compareExchange(i32, index, LOCKED, UNLOCKED);
    if (previous === LOCKED) return;
    if (previous === CONTENDED) {
      // Only the owner moves the word out of CONTENDED (sleepers swap 2 for
      // 2), so a plain store releases; then wake one possible sleeper.
      Atomics.store(i32, index, UNLOCKED);
      Atomics.notify(i32, index, 1);
      return;
    }
    if (previous === UNLOCKED) throw new Error("wsync: unlock of unlocked Mutex");
    throw mutexStateError(previous);
  }
}

/** A Go-style WaitGroup on one Int32Array element (docs/abi.md). */
export class WaitGroup extends Word {
  /** The counter (a snapshot). */
  get count() {
    return Atomics.load(this.i32, this.index) & COUNTER_MASK;
  }

  /** Adds `delta` (an integer, may be negative) to the counter. */
  add(delta = 1) {
    if (!Number.isInteger(delta) || delta < -COUNTER_MASK || delta > COUNTER_MASK) {
      throw new RangeError(`wsync: WaitGroup.add() needs an integer delta, got ${describe(delta)}`);
    }
    const { i32, index } = this;
    let s = Atomics.load(i32, index);
    for (;;) {
      const count = (s & COUNTER_MASK) + delta;
      // Checked before anything is stored: misuse leaves the word as it was.
      if (count < 0) throw new RangeError("wsync: negative WaitGroup counter");
      if (count > COUNTER_MASK) throw new RangeError("wsync: WaitGroup counter overflow");
      const next = count === 0 ? 0 : (s & WAITERS) | count;
      const seen = Atomics.compareExchange(i32, index, s, next);
      if (seen === s) {
        if (count === 0 && (s & WAITERS) !== 0) Atomics.notify(i32, index); // wake all
        return;
      }
      s = seen;
    }
  }

  done() {
    this.add(-1);
  }

  // One step of a wait: returns true when the counter is zero, otherwise the
  // value to sleep on (with WAITERS set).
  #announce() {
    const { i32, index } = this;
    let s = Atomics.load(i32, index);
    for (;;) {
      if ((s & COUNTER_MASK) === 0) return true;
      if ((s & WAITERS) !== 0) return s;
      const seen = Atomics.compareExchange(i32, index, s, s | WAITERS);
      if (seen === s) return s | WAITERS;
      s = seen;
    }
  }

  /** Blocks until the counter is zero (true) or `timeoutMs` passes (false). Not on the browser main thread. */
  wait(timeoutMs) {
    const timeout = checkTimeout(timeoutMs);
    requireBlocking("WaitGroup.wait()", "wg.waitAsync()");
    const deadline = now() + timeout;
    for (;;) {
      const s = this.#announce();
      if (s === true) return true;
      const remaining = deadline - now();
      if (remaining <= 0) return false;
      Atomics.wait(this.i32, this.index, s, remaining);
    }
  }

  /** Resolves true once the counter is zero, false after `timeoutMs`. Never blocks the thread. */
  async waitAsync(timeoutMs) {
    const timeout = checkTimeout(timeoutMs);
    const deadline = now() + timeout;
    for (;;) {
      const s = this.#announce();
      if (s === true) return true;
      if (spinTime(this.i32, this.index, s) !== s) continue;
      const result = await sleepAsync(this.i32, this.index, s, deadline);
      if (result === "timed-out") return this.count === 0;
    }
  }
}
