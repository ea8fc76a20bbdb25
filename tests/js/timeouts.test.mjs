// The timeout matrix of js/wsync.mjs, for every timed wait, blocking and
// async: 0 only tries; a finite timeout never returns early; omitted,
// Infinity and huge finite timeouts wait until released; negative, NaN and
// non-numbers throw one exact RangeError before anything changes
// (docs/api.md, "Timeouts").
import { test } from "node:test";
import assert from "node:assert/strict";
import { Barrier, CondVar, Latch, Mutex, Semaphore, WaitGroup } from "../../js/wsync.mjs";
import { runWorker, sharedInts } from "./helpers.mjs";

// Each case: words 0..2 hold the primitive (word 3: the CondVar's mutex);
// pend() puts it in a state its waits wait in, and returns the two waits.
// After a successful wait, done() puts it back for the next pend().
const CASES = {
  Mutex(i32) {
    const m = new Mutex(i32, Mutex.initialize(i32, 0));
    m.lock();
    return { wait: (t) => m.lock(t), waitAsync: (t) => m.lockAsync(t), done: () => m.unlock() };
  },
  WaitGroup(i32) {
    const wg = new WaitGroup(i32, WaitGroup.initialize(i32, 0));
    wg.add(1);
    return { wait: (t) => wg.wait(t), waitAsync: (t) => wg.waitAsync(t), done: () => {} };
  },
  Latch(i32) {
    const latch = new Latch(i32, Latch.initialize(i32, 0, 1));
    return { wait: (t) => latch.wait(t), waitAsync: (t) => latch.waitAsync(t), done: () => {} };
  },
  Semaphore(i32) {
    const sem = new Semaphore(i32, Semaphore.initialize(i32, 0, 0, 1));
    return { wait: (t) => sem.acquire(t), waitAsync: (t) => sem.acquireAsync(t), done: () => {} };
  },
  Barrier(i32) {
    const barrier = new Barrier(i32, Barrier.initialize(i32, 0, 2));
    const token = barrier.arrive();
    return { wait: (t) => barrier.wait(token, t), waitAsync: (t) => barrier.waitAsync(token, t), done: () => {} };
  },
  CondVar(i32) {
    const cv = new CondVar(i32, CondVar.initialize(i32, 0));
    const m = new Mutex(i32, Mutex.initialize(i32, 3));
    // Each wait holds the mutex around it, as a caller must. It is held
    // again when the wait returns (and still held when a bad timeout throws
    // before the wait began), so it is released there.
    return {
      wait(t) {
        m.lock();
        try {
          return cv.wait(m, t);
        } finally {
          m.unlock();
        }
      },
      async waitAsync(t) {
        await m.lockAsync();
        try {
          return await cv.waitAsync(m, t);
        } finally {
          m.unlock();
        }
      },
      done: () => {},
    };
  },
};

// Each kind, with the blocking and the async wait, as [name, kind, call].
const FORMS = Object.keys(CASES).flatMap((kind) => [
  [`${kind} blocking`, kind, "wait"],
  [`${kind} async`, kind, "waitAsync"],
]);

const elapsedSince = (start) => performance.now() - start;

test("a zero timeout only tries, for every wait", async () => {
  for (const [name, kind, call] of FORMS) {
    const i32 = sharedInts(4);
    const waits = CASES[kind](i32);
    assert.equal(await waits[call](0), false, name);
  }
});

test("a finite timeout never returns early, for every wait", async () => {
  for (const [name, kind, call] of FORMS) {
    const i32 = sharedInts(4);
    const waits = CASES[kind](i32);
    for (const ms of [15, 7.5]) {
      const start = performance.now();
      assert.equal(await waits[call](ms), false, `${name} (${ms} ms)`);
      const took = elapsedSince(start);
      assert.ok(took >= ms, `${name}: returned after ${took} ms, before its ${ms} ms timeout`);
    }
  }
});

test("omitted, Infinity and huge finite timeouts wait until released, for every wait", async () => {
  const delay = 10;
  for (const [name, kind, call] of FORMS) {
    for (const timeout of [undefined, Infinity, 1e300, Number.MAX_VALUE, 2 ** 31 + 1]) {
      const i32 = sharedInts(4);
      const waits = CASES[kind](i32);
      const release = runWorker("releaseLater", i32.buffer, { kind, ms: delay });
      const start = performance.now();
      // A timeout that overflowed into "expired" would return false at once.
      assert.equal(await waits[call](timeout), true, `${name} (timeout ${timeout})`);
      assert.ok(elapsedSince(start) >= delay - 1, `${name} (timeout ${timeout}): waited for the release`);
      waits.done();
      await release;
    }
  }
});

test("negative, NaN and non-number timeouts throw one exact RangeError and change nothing", async () => {
  const bad = [
    [-1, "-1"],
    [-0.5, "-0.5"],
    [-Infinity, "-Infinity"],
    [NaN, "NaN"],
    ["5", '"5"'],
    [null, "null"],
    [{}, "Object"],
    [10n, "10"],
  ];
  for (const [name, kind, call] of FORMS) {
    const i32 = sharedInts(4);
    const waits = CASES[kind](i32);
    const before = Array.from(i32);
    for (const [timeout, shown] of bad) {
      await assert.rejects(
        async () => waits[call](timeout),
        {
          name: "RangeError",
          message: `wsync: timeout must be a number of milliseconds >= 0 or Infinity, got ${shown}`,
        },
        `${name} (${shown})`,
      );
    }
    assert.deepEqual(Array.from(i32), before, `${name}: nothing changed`);
  }
});
