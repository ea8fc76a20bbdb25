// js/wsync.mjs CondVar: waits and notifies, producer/consumer, timeouts, bad input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CondVar, Mutex } from "../../js/wsync.mjs";
import { runWorker, sharedInts } from "./helpers.mjs";

test("notify with nobody waiting touches nothing", () => {
  const i32 = sharedInts(2);
  const cv = new CondVar(i32, CondVar.initialize(i32, 0));
  cv.notifyOne();
  cv.notifyAll();
  assert.deepEqual([...i32], [0, 0]);
});

test("a timed wait times out, never early, and returns with the mutex held", async () => {
  const i32 = sharedInts(3);
  const m = new Mutex(i32, 0);
  const cv = new CondVar(i32, 1);
  m.lock();
  for (const timeout of [0, 1, 20]) {
    let start = performance.now();
    assert.equal(cv.wait(m, timeout), false);
    assert.ok(performance.now() - start >= timeout, `wait(${timeout}) returned early`);
    assert.notEqual(i32[0], 0, "held again");
    start = performance.now();
    assert.equal(await cv.waitAsync(m, timeout), false);
    assert.ok(performance.now() - start >= timeout, `waitAsync(${timeout}) returned early`);
    assert.notEqual(i32[0], 0, "held again");
    assert.equal(i32[2], 0, "no waiter left registered");
  }
  m.unlock();
});

// Ring layout for the worker jobs: 0 mutex, 1-2 notEmpty, 3-4 notFull,
// 5 head, 6 tail, 7 size, 8.. ring, then one mark per item id.
test("4 producers and 4 consumers move 10^5 items, none lost or duplicated", async () => {
  const cap = 16;
  const perWorker = 25_000;
  const total = 4 * perWorker;
  const seenBase = 8 + cap;
  const i32 = sharedInts(seenBase + total);
  const jobs = [];
  for (let w = 0; w < 4; ++w) {
    jobs.push(runWorker("condVarRing", i32.buffer, { role: "consumer", count: perWorker, cap, seenBase }));
    jobs.push(
      runWorker("condVarRing", i32.buffer, { role: "producer", first: w * perWorker, count: perWorker, cap, seenBase }),
    );
  }
  await Promise.all(jobs);
  const marks = i32.subarray(seenBase);
  assert.equal(
    marks.every((n) => n === 1),
    true,
    "every id consumed exactly once",
  );
  assert.deepEqual([i32[5], i32[6], i32[7]], [total, total, 0]);
  assert.equal(i32[0], 0, "mutex unlocked");
  assert.equal(i32[2] + i32[4], 0, "no waiter left registered");
});

test("waitAsync on the main thread is woken by a worker's notify and sees its write", async () => {
  const i32 = sharedInts(16);
  const m = new Mutex(i32, 0);
  const cv = new CondVar(i32, 1);
  m.lock();
  const waiting = cv.waitAsync(m, 10_000);
  assert.equal(i32[0], 0, "the mutex is released at once");
  assert.equal(i32[2], 1, "one waiter registered");
  // A producer worker puts one item (id 7) into the ring and notifies notEmpty.
  const producer = runWorker("condVarRing", i32.buffer, { role: "producer", first: 7, count: 1, cap: 4, seenBase: 12 });
  assert.equal(await waiting, true);
  assert.notEqual(i32[0], 0, "held again");
  assert.equal(i32[7], 1, "the item is there");
  assert.equal(i32[8], 7);
  m.unlock();
  await producer;
});

test("notifyAll wakes every waiter; they take the mutex one by one", async () => {
  const i32 = sharedInts(3);
  const m = new Mutex(i32, 0);
  const cv = new CondVar(i32, 1);
  const waits = [];
  for (let i = 0; i < 5; ++i) {
    m.lock();
    waits.push(cv.waitAsync(m, 10_000));
  }
  assert.equal(i32[2], 5);
  m.lock();
  cv.notifyAll();
  m.unlock();
  let holders = 0;
  for (const w of waits) {
    assert.equal(await w, true);
    holders += 1;
    m.unlock();
  }
  assert.equal(holders, 5);
  assert.deepEqual([i32[0], i32[2]], [0, 0]);
});

test("bad arguments and misuse throw exact errors and change nothing", async () => {
  const i32 = sharedInts(4);
  const m = new Mutex(i32, 0);
  const cv = new CondVar(i32, 1);
  assert.throws(() => cv.wait(m), { message: "wsync: unlock of unlocked Mutex" });
  await assert.rejects(cv.waitAsync(m), { message: "wsync: unlock of unlocked Mutex" });
  assert.throws(() => cv.wait({}), {
    name: "TypeError",
    message: "wsync: CondVar.wait() needs a wsync Mutex, got Object",
  });
  await assert.rejects(cv.waitAsync(null), { message: "wsync: CondVar.waitAsync() needs a wsync Mutex, got null" });
  assert.throws(() => cv.wait(m, -1), {
    message: "wsync: timeout must be a number of milliseconds >= 0 or Infinity, got -1",
  });
  assert.throws(() => new CondVar(i32, 3), {
    name: "RangeError",
    message: "wsync: CondVar index 3 is out of range 0..2",
  });
  assert.throws(() => CondVar.at(i32, 12), {
    message: "wsync: CondVar.at() byte offset 12 is outside the memory (16 bytes)",
  });
  assert.deepEqual([...i32], [0, 0, 0, 0], "no word was touched");
});
