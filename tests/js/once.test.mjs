// js/wsync.mjs Once: exactly once, retry after a throw, workers, async, bad input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Once } from "../../js/wsync.mjs";
import { runWorker, sharedInts } from "./helpers.mjs";

test("runs once; later calls return false without running", () => {
  const i32 = sharedInts(1);
  const once = new Once(i32, Once.initialize(i32, 0));
  let runs = 0;
  assert.equal(
    once.callOnce(() => ++runs),
    true,
  );
  assert.equal(
    once.callOnce(() => ++runs),
    false,
  );
  assert.equal(runs, 1);
  assert.equal(once.isComplete, true);
  assert.equal(i32[0], 3, "COMPLETE");
});

test("a throwing run leaves it incomplete, and the next caller runs it", async () => {
  const i32 = sharedInts(1);
  const once = new Once(i32, 0);
  assert.throws(
    () =>
      once.callOnce(() => {
        throw new Error("boom");
      }),
    { message: "boom" },
  );
  assert.equal(i32[0], 0, "INCOMPLETE again");
  await assert.rejects(
    once.callOnceAsync(async () => {
      throw new Error("async boom");
    }),
    { message: "async boom" },
  );
  assert.equal(i32[0], 0);
  assert.equal(await once.callOnceAsync(async () => {}), true);
  assert.equal(once.isComplete, true);
});

// Layout: 0 once, 1 runs, 2 thrown, 3 value, 4 violations, 5 a word to sleep on.
test("eight workers race, the first run throws, exactly one more run completes it", async () => {
  const i32 = sharedInts(6);
  const args = { runsIndex: 1, thrownIndex: 2, valueIndex: 3, badIndex: 4, sleepIndex: 5, throwFirst: true };
  await Promise.all(Array.from({ length: 8 }, () => runWorker("onceRace", i32.buffer, args)));
  assert.equal(i32[2], 1, "one run threw");
  assert.equal(i32[1], 2, "one more run completed it");
  assert.equal(i32[4], 0, "every caller saw the value afterwards");
  assert.equal(i32[0], 3);
});

test("callOnceAsync waits for a worker that is running f", async () => {
  const i32 = sharedInts(6);
  const once = new Once(i32, 0);
  const worker = runWorker("onceRace", i32.buffer, {
    runsIndex: 1,
    thrownIndex: 2,
    valueIndex: 3,
    badIndex: 4,
    sleepIndex: 5,
    throwFirst: false,
  });
  while (Atomics.load(i32, 1) === 0) await new Promise((r) => setTimeout(r, 0));
  assert.equal(await once.callOnceAsync(() => assert.fail("must not run")), false);
  assert.equal(i32[3], 42, "the worker's result is visible");
  await worker;
});

test("bad arguments and a corrupted word throw exact errors", async () => {
  const i32 = sharedInts(1);
  const once = new Once(i32, 0);
  assert.throws(() => once.callOnce("f"), {
    name: "TypeError",
    message: 'wsync: Once.callOnce() needs a function, got "f"',
  });
  await assert.rejects(once.callOnceAsync(), {
    message: "wsync: Once.callOnceAsync() needs a function, got undefined",
  });
  assert.equal(i32[0], 0);
  i32[0] = 9;
  assert.throws(() => once.callOnce(() => {}), { message: "wsync: corrupted Once word (9)" });
  assert.equal(i32[0], 9);
});
