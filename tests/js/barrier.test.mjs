// js/wsync.mjs Barrier: phases, tokens, the completion, workers, bad input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Barrier } from "../../js/wsync.mjs";
import { runWorker, sharedInts } from "./helpers.mjs";

test("arrive returns the phase; the last arrival runs the completion and starts the next phase", async () => {
  const i32 = sharedInts(3);
  let completions = 0;
  const barrier = new Barrier(i32, Barrier.initialize(i32, 0, 2), () => ++completions);
  const token = barrier.arrive();
  assert.equal(token, 0);
  assert.equal(barrier.wait(token, 1), false, "phase 0 still open");
  assert.equal(await barrier.waitAsync(token, 1), false);
  assert.equal(barrier.arrive(), 0);
  assert.equal(completions, 1);
  assert.equal(barrier.phase, 1);
  assert.equal(barrier.wait(token), true, "phase 0 done");
  assert.equal(await barrier.waitAsync(token), true);
  assert.equal(barrier.arrive(2), 1);
  assert.deepEqual([...i32], [2, 2, 2]);
});

test("arriveAndDrop shrinks the next phases", () => {
  const i32 = sharedInts(3);
  const barrier = new Barrier(i32, Barrier.initialize(i32, 0, 2));
  const token = barrier.arrive();
  barrier.arriveAndDrop(); // completes phase 0; one participant from now on
  assert.equal(barrier.wait(token, 0), true);
  barrier.arriveAndWait(); // alone: completes phase 1 at once
  assert.deepEqual([...i32], [2, 1, 1]);
});

// Layout: 0-2 barrier, 3 phases checked, 4 violations, 5.. one slot per worker.
test("four workers and the main thread run 10^4 phases; the completion checks each one", async () => {
  const workers = 4;
  const phases = 10_000;
  const i32 = sharedInts(5 + workers + 1);
  Barrier.initialize(i32, 0, workers + 1);
  const args = { slotsBase: 5, workers, phases, checkedIndex: 3, badIndex: 4 };
  const jobs = Array.from({ length: workers }, (_, slot) => runWorker("barrierPhases", i32.buffer, { ...args, slot }));
  // The main thread takes part without blocking; its completion does the same check.
  let phase = 0;
  const barrier = new Barrier(i32, 0, () => {
    for (let w = 0; w < workers; ++w) if (i32[5 + w] !== phase) Atomics.add(i32, 4, 1);
    Atomics.add(i32, 3, 1);
  });
  for (; phase < phases; ++phase) await barrier.arriveAndWaitAsync();
  await Promise.all(jobs);
  assert.equal(i32[3], phases, "one completion per phase");
  assert.equal(i32[4], 0, "every participant was in the phase when it completed");
  assert.equal(barrier.phase, phases);
});

test("a throwing completion still completes the phase, then throws", () => {
  const i32 = sharedInts(3);
  const barrier = new Barrier(i32, Barrier.initialize(i32, 0, 1), () => {
    throw new Error("completion failed");
  });
  assert.throws(() => barrier.arrive(), { message: "completion failed" });
  assert.deepEqual([...i32], [1, 1, 1], "phase 1, count reset");
});

test("bad arguments and misuse throw exact errors and change nothing", async () => {
  const i32 = sharedInts(3);
  const barrier = new Barrier(i32, Barrier.initialize(i32, 0, 2));
  assert.throws(() => barrier.arrive(3), { name: "RangeError", message: "wsync: Barrier over-arrival" });
  assert.throws(() => barrier.arrive(0), {
    message: "wsync: Barrier.arrive() needs an integer n 1..2147483647, got 0",
  });
  assert.throws(() => barrier.wait(-1), { message: "wsync: Barrier.wait() needs a token from arrive(), got -1" });
  await assert.rejects(barrier.waitAsync("0"), {
    message: 'wsync: Barrier.waitAsync() needs a token from arrive(), got "0"',
  });
  assert.throws(() => new Barrier(i32, 0, 5), {
    name: "TypeError",
    message: "wsync: Barrier completion needs a function, got 5",
  });
  assert.throws(() => Barrier.initialize(i32, 0, -2), {
    message: "wsync: Barrier.initialize() needs an integer count 0..2147483647, got -2",
  });
  assert.deepEqual([...i32], [0, 2, 2], "no word was touched");
  const empty = new Barrier(sharedInts(3), 0); // zero participants
  assert.throws(() => empty.arriveAndDrop(), { message: "wsync: Barrier over-arrival" });
  assert.deepEqual([...empty.i32], [0, 0, 0]);
});
