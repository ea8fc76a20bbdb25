// js/wsync.mjs Semaphore: permits and the maximum, producer/consumer, timeouts, bad input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Semaphore } from "../../js/wsync.mjs";
import { runWorker, sharedInts } from "./helpers.mjs";

test("counts permits up to its maximum", () => {
  const i32 = sharedInts(3);
  const sem = new Semaphore(i32, Semaphore.initialize(i32, 0, 1, 3));
  assert.deepEqual([sem.count, sem.max], [1, 3]);
  assert.equal(sem.tryAcquire(), true);
  assert.equal(sem.tryAcquire(), false);
  sem.release(3);
  assert.equal(sem.count, 3);
  assert.equal(sem.acquire(0), true);
  assert.deepEqual([...i32], [2, 0, 3], "count 2, no sleepers, max 3");
});

test("timed acquires time out, never early, and leave no sleeper registered", async () => {
  const i32 = sharedInts(3);
  const sem = new Semaphore(i32, Semaphore.initialize(i32, 0));
  for (const timeout of [0, 1, 20]) {
    let start = performance.now();
    assert.equal(sem.acquire(timeout), false);
    assert.ok(performance.now() - start >= timeout, `acquire(${timeout}) returned early`);
    start = performance.now();
    assert.equal(await sem.acquireAsync(timeout), false);
    assert.ok(performance.now() - start >= timeout, `acquireAsync(${timeout}) returned early`);
  }
  assert.deepEqual([...i32], [0, 0, Semaphore.MAX]);
});

test("release(n) wakes n async waiters, and only those", async () => {
  const i32 = sharedInts(3);
  const sem = new Semaphore(i32, Semaphore.initialize(i32, 0, 0, 10));
  const results = [];
  const waits = [0, 1, 2].map((i) => sem.acquireAsync(300).then((ok) => results.push([i, ok])));
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(i32[1], 3, "three sleepers registered");
  sem.release(2);
  await Promise.all(waits);
  assert.equal(results.filter(([, ok]) => ok).length, 2);
  assert.deepEqual([...i32], [0, 0, 10]);
});

// Ring layout: 0 mutex, 1-3 free slots, 4-6 items, 7 head, 8 tail, 9.. ring, then marks.
test("4 producers and 4 consumers move 10^5 items, none lost or duplicated", async () => {
  const cap = 16;
  const perWorker = 25_000;
  const seenBase = 9 + cap;
  const i32 = sharedInts(seenBase + 4 * perWorker);
  Semaphore.initialize(i32, 1, cap, cap);
  Semaphore.initialize(i32, 4, 0, cap);
  const jobs = [];
  for (let w = 0; w < 4; ++w) {
    jobs.push(runWorker("semaphoreRing", i32.buffer, { role: "consumer", count: perWorker, cap, seenBase }));
    jobs.push(
      runWorker("semaphoreRing", i32.buffer, {
        role: "producer",
        first: w * perWorker,
        count: perWorker,
        cap,
        seenBase,
      }),
    );
  }
  await Promise.all(jobs);
  assert.equal(
    i32.subarray(seenBase).every((n) => n === 1),
    true,
    "every id consumed exactly once",
  );
  assert.deepEqual([...i32.subarray(0, 7)], [0, cap, 0, cap, 0, 0, cap], "slots full again, items empty, no sleepers");
});

test("bad arguments and misuse throw exact errors and change nothing", async () => {
  const i32 = sharedInts(4);
  const sem = new Semaphore(i32, Semaphore.initialize(i32, 0, 1, 2));
  assert.throws(() => sem.release(2), { name: "RangeError", message: "wsync: Semaphore released past its maximum" });
  assert.deepEqual([...i32], [1, 0, 2, 0]);
  assert.throws(() => sem.release(-1), {
    message: "wsync: Semaphore.release() needs an integer n 0..2147483647, got -1",
  });
  assert.throws(() => sem.release(0.5), {
    message: "wsync: Semaphore.release() needs an integer n 0..2147483647, got 0.5",
  });
  assert.throws(() => Semaphore.initialize(i32, 0, 3, 2), {
    message: "wsync: Semaphore.initialize() initial count 3 exceeds the maximum 2",
  });
  assert.throws(() => Semaphore.initialize(i32, 0, 0, -1), {
    message: "wsync: Semaphore.initialize() needs an integer max 0..2147483647, got -1",
  });
  assert.throws(() => new Semaphore(i32, 2), { message: "wsync: Semaphore index 2 is out of range 0..1" });
  assert.throws(() => sem.acquire(NaN), {
    message: "wsync: timeout must be a number of milliseconds >= 0 or Infinity, got NaN",
  });
  await assert.rejects(sem.acquireAsync(-5), {
    message: "wsync: timeout must be a number of milliseconds >= 0 or Infinity, got -5",
  });
  assert.deepEqual([...i32], [1, 0, 2, 0], "no word was touched");
});
