// js/wsync.mjs Latch: counting down, workers, timeouts, bad input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Latch } from "../../js/wsync.mjs";
import { runWorker, sharedInts } from "./helpers.mjs";

test("counts down to release and stays released", async () => {
  const i32 = sharedInts(1);
  const latch = new Latch(i32, Latch.initialize(i32, 0, 3));
  assert.equal(latch.tryWait(), false);
  latch.countDown(2);
  assert.equal(latch.count, 1);
  assert.equal(latch.wait(0), false);
  latch.countDown();
  assert.equal(latch.tryWait(), true);
  assert.equal(latch.wait(), true);
  assert.equal(await latch.waitAsync(), true);
  assert.equal(i32[0], 0);
});

test("eight workers arrive and wait; the main thread awaits them all", async () => {
  const i32 = sharedInts(2);
  const latch = new Latch(i32, Latch.initialize(i32, 0, 9));
  const workers = Array.from({ length: 8 }, () => runWorker("latchArrive", i32.buffer, { markIndex: 1 }));
  const start = performance.now();
  while (latch.count > 1) await new Promise((r) => setTimeout(r, 1));
  assert.equal(await latch.waitAsync(5), false, "one arrival still missing");
  assert.ok(performance.now() - start >= 5);
  assert.equal(Atomics.load(i32, 1), 0, "nobody was released early");
  assert.equal(await latch.arriveAndWaitAsync(), true);
  await Promise.all(workers);
  assert.deepEqual([...i32], [0, 8]);
});

test("bad arguments and misuse throw exact errors and change nothing", () => {
  const i32 = sharedInts(2);
  const latch = new Latch(i32, Latch.initialize(i32, 0, 1));
  assert.throws(() => latch.countDown(2), { name: "RangeError", message: "wsync: Latch counted down below zero" });
  assert.equal(i32[0], 1);
  assert.throws(() => latch.countDown(-1), {
    message: "wsync: Latch.countDown() needs an integer n 0..2147483647, got -1",
  });
  assert.throws(() => Latch.initialize(i32, 1, 2 ** 31), {
    message: "wsync: Latch.initialize() needs an integer count 0..2147483647, got 2147483648",
  });
  assert.throws(() => latch.wait(-0.5), {
    message: "wsync: timeout must be a number of milliseconds >= 0 or Infinity, got -0.5",
  });
  assert.throws(() => new Latch(new Float64Array(2), 0), {
    name: "TypeError",
    message: "wsync: Latch needs an Int32Array, got Float64Array",
  });
  assert.deepEqual([...i32], [1, 0], "no word was touched");
});
