// js/wsync.mjs WaitGroup: the seed's pattern, reuse, timeouts, bad input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { WaitGroup } from "../../js/wsync.mjs";
import { runWorker, sharedInts } from "./helpers.mjs";

test("workers square and cube while the main thread awaits waitAsync", async () => {
  const ints = sharedInts(3);
  const wg = new WaitGroup(ints, WaitGroup.initialize(ints, 0));
  wg.add(2);
  const workers = [
    runWorker("power", ints.buffer, { wgIndex: 0, input: 3, power: 2, dest: 1 }),
    runWorker("power", ints.buffer, { wgIndex: 0, input: 4, power: 3, dest: 2 }),
  ];
  assert.equal(await wg.waitAsync(), true);
  assert.equal(ints[1], 9);
  assert.equal(ints[2], 64);
  assert.equal(ints[0], 0, "counter zero, WAITERS cleared");
  await Promise.all(workers);
});

test("the word layout matches C++: counter in bits 30..0, WAITERS in bit 31", () => {
  const ints = sharedInts(1);
  const wg = new WaitGroup(ints, 0);
  wg.add(3);
  assert.equal(ints[0], 3);
  assert.equal(wg.count, 3);
  assert.equal(wg.wait(0), false); // announces itself before giving up
  assert.equal(ints[0] >>> 0, 0x80000003);
  wg.add(-3);
  assert.equal(ints[0], 0, "reaching zero clears WAITERS");
});

test("reused eight times with blocking worker waiters and an async main waiter", async () => {
  const ints = sharedInts(8);
  const wg = new WaitGroup(ints, 0);
  for (let round = 0; round < 8; ++round) {
    ints[1] = 0;
    wg.add(2);
    const waiters = [
      runWorker("waitThenMark", ints.buffer, { wgIndex: 0, markIndex: 1 }),
      runWorker("waitThenMark", ints.buffer, { wgIndex: 0, markIndex: 1 }),
    ];
    const main = wg.waitAsync();
    await new Promise((r) => setTimeout(r, 5));
    const work = [
      runWorker("power", ints.buffer, { wgIndex: 0, input: round, power: 2, dest: 2 }),
      runWorker("power", ints.buffer, { wgIndex: 0, input: round, power: 3, dest: 3 }),
    ];
    assert.equal(await main, true);
    assert.deepEqual([ints[2], ints[3]], [round ** 2, round ** 3]);
    await Promise.all([...waiters, ...work]);
    assert.equal(ints[1], 2, `round ${round}: both worker waiters returned`);
    assert.equal(ints[0], 0);
  }
});

test("wait and waitAsync time out while work is pending, never early", async () => {
  const ints = sharedInts(1);
  const wg = new WaitGroup(ints, 0);
  wg.add(1);
  for (const timeout of [0, 1, 25]) {
    let start = performance.now();
    assert.equal(wg.wait(timeout), false);
    assert.ok(performance.now() - start >= timeout, `wait(${timeout}) returned early`);
    start = performance.now();
    assert.equal(await wg.waitAsync(timeout), false);
    assert.ok(performance.now() - start >= timeout, `waitAsync(${timeout}) returned early`);
  }
  wg.done();
  assert.equal(wg.wait(0), true);
  assert.equal(await wg.waitAsync(0), true);
});

test("misuse and bad arguments throw exact errors and leave the word as it was", () => {
  const ints = sharedInts(2);
  const wg = new WaitGroup(ints, 0);
  assert.throws(() => wg.done(), { name: "RangeError", message: "wsync: negative WaitGroup counter" });
  assert.equal(ints[0], 0);
  wg.add(2);
  assert.throws(() => wg.add(-3), { message: "wsync: negative WaitGroup counter" });
  assert.equal(ints[0], 2);
  assert.throws(() => wg.add(0x7fffffff), { message: "wsync: WaitGroup counter overflow" });
  assert.equal(ints[0], 2);
  assert.throws(() => wg.add(1.5), { message: "wsync: WaitGroup.add() needs an integer delta, got 1.5" });
  assert.throws(() => wg.add("1"), { message: 'wsync: WaitGroup.add() needs an integer delta, got "1"' });
  assert.throws(() => wg.wait(NaN), {
    message: "wsync: timeout must be a number of milliseconds >= 0 or Infinity, got NaN",
  });
  assert.throws(() => new WaitGroup(ints, -1), { message: "wsync: WaitGroup index -1 is out of range 0..1" });
  assert.throws(() => WaitGroup.at(ints, 3), { message: "wsync: WaitGroup.at() byte offset 3 is not 4-byte aligned" });
  assert.equal(ints[0], 2);
});
