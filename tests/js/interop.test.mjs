// JS and C++ on the same words: a wasm module (tests/js/interop.cpp, built by
// the wasm CMake tree) whose pthreads share a WaitGroup and a Mutex with JS.
// The module is the global-`Module` kind (no MODULARIZE), loaded with
// require; every at() takes the Module itself, as an app would pass it.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { Barrier, CondVar, Latch, Mutex, Once, Semaphore, WaitGroup } from "../../js/wsync.mjs";
import { relockingHolderRound, runWorker, wasmTestProgram } from "./helpers.mjs";

const modulePath = wasmTestProgram("tests/wsync_interop.js");
const Module = createRequire(import.meta.url)(modulePath);
await new Promise((resolve) => {
  if (Module.calledRun) resolve();
  else Module.onRuntimeInitialized = resolve;
});
after(() => Module.PThread.terminateAllThreads());
// The program's words, as JS code that is not wsync's reads them. No memory
// growth (INITIAL_MEMORY), so one view stays valid.
const heap = new Int32Array(Module.wsyncMemory.buffer);

test("C++ pthreads square and cube; the JS main thread awaits their WaitGroup", async () => {
  const wg = WaitGroup.at(Module, Module._interop_wait_group());
  Module._interop_square_cube(3, 4, 50);
  assert.equal(wg.count, 2);
  const start = performance.now();
  assert.equal(await wg.waitAsync(), true);
  assert.ok(performance.now() - start >= 40, "the main thread really waited");
  const results = Module._interop_results() >> 2;
  assert.equal(heap[results], 9);
  assert.equal(heap[results + 1], 64);
  assert.equal(heap[Module._interop_wait_group() >> 2], 0);
});

test("JS workers and C++ pthreads keep one exact count under one Mutex", async () => {
  const memory = Module.wsyncMemory;
  const mutexPtr = Module._interop_mutex();
  const counterPtr = Module._interop_counter();
  const iterations = 20000;
  heap[counterPtr >> 2] = 0;
  const wg = WaitGroup.at(memory, Module._interop_wait_group());
  Module._interop_increments(3, iterations); // three C++ pthreads
  const workers = [0, 1, 2].map(() => runWorker("incrementAt", memory, { mutexPtr, counterPtr, iterations }));
  const m = Mutex.at(memory, mutexPtr);
  for (let i = 0; i < iterations; ++i) {
    await m.lockAsync(); // and the JS main thread
    heap[counterPtr >> 2] += 1;
    m.unlock();
  }
  await Promise.all(workers);
  assert.equal(await wg.waitAsync(30_000), true);
  assert.equal(heap[counterPtr >> 2], 7 * iterations);
  assert.equal(heap[mutexPtr >> 2], 0, "Mutex back to UNLOCKED");
});

// A JS waiter and a C++ holder on one word follow one protocol: the JS
// waiter's request makes the C++ unlock hand the lock over (the bound as in
// tests/js/mutex.test.mjs).
test("a JS waiter gets a C++ Mutex within the handoff bound from a pthread that relocks at once", async (t) => {
  const m = Mutex.at(Module, Module._interop_mutex());
  const count = Module._interop_relocks() >> 2;
  Module._interop_relocking_holder();
  while (Atomics.load(heap, count) === 0) await new Promise((r) => setTimeout(r, 1));
  for (const how of ["lock", "lockAsync"]) {
    const round = await relockingHolderRound(m, heap, count, how);
    t.diagnostic(
      `${how}: 10 acquisitions in ${round.total.toFixed(1)} ms, longest ${round.longest.toFixed(2)} ms, ` +
        `at most ${round.mostBypasses} relocks during one wait`,
    );
    assert.ok(round.mostBypasses <= 2000, `the pthread relocked ${round.mostBypasses} times during one wait`);
    assert.ok(round.total < 2000, `10 acquisitions took ${round.total} ms`);
  }
  Module._interop_stop_relocking();
  assert.equal(await WaitGroup.at(Module, Module._interop_wait_group()).waitAsync(30_000), true);
  assert.equal(heap[Module._interop_mutex() >> 2], 0);
});

test("a JS timed wait on a C++ WaitGroup times out while the pthreads work", async () => {
  const wg = WaitGroup.at(Module, Module._interop_wait_group());
  Module._interop_square_cube(5, 6, 200);
  assert.equal(await wg.waitAsync(20), false);
  assert.equal(await wg.waitAsync(30_000), true);
  const results = Module._interop_results() >> 2;
  assert.deepEqual([heap[results], heap[results + 1]], [25, 216]);
});

// Every later() pthread of interop.cpp calls done() on the WaitGroup.
async function pthreadsFinished() {
  assert.equal(await WaitGroup.at(Module, Module._interop_wait_group()).waitAsync(30_000), true);
}

test("CondVar: a C++ pthread waits for JS's notify, then JS waits for C++'s", async () => {
  const m = Mutex.at(Module, Module._interop_mutex());
  const cv = CondVar.at(Module, Module._interop_cond_var());
  const flag = Module._interop_flag() >> 2;
  heap[flag] = 0;
  Module._interop_cv_await_flag();
  while (Atomics.load(heap, (Module._interop_cond_var() >> 2) + 1) === 0) {
    await new Promise((r) => setTimeout(r, 1)); // until the pthread waits
  }
  await m.lockAsync();
  heap[flag] = 1;
  cv.notifyOne();
  m.unlock();
  await pthreadsFinished();
  assert.equal(heap[flag], 2, "the pthread woke, saw 1 and wrote 2");

  heap[flag] = 0;
  Module._interop_cv_set_flag(30);
  await m.lockAsync();
  while (heap[flag] !== 1) assert.equal(await cv.waitAsync(m, 10_000), true);
  m.unlock();
  await pthreadsFinished();
  assert.equal(heap[Module._interop_mutex() >> 2], 0);
});

test("Semaphore: JS releases permits that C++ pthreads acquire, and the reverse", async () => {
  const sem = Semaphore.at(Module, Module._interop_semaphore());
  assert.deepEqual([sem.count, sem.max], [0, 8], "the C++ constructor's words");
  Module._interop_sem_acquirers(3, 100);
  for (let i = 0; i < 300; ++i) {
    while (sem.count === sem.max) await new Promise((r) => setTimeout(r, 0));
    sem.release();
  }
  await pthreadsFinished();
  assert.equal(Module._interop_sem_taken(), 300);
  Module._interop_sem_releaser(20, 10);
  for (let i = 0; i < 20; ++i) assert.equal(await sem.acquireAsync(10_000), true);
  await pthreadsFinished();
  assert.throws(
    () => {
      sem.release(8);
      sem.release(1);
    },
    { message: "wsync: Semaphore released past its maximum" },
  );
  assert.equal(sem.count, 8, "the refused release stored nothing");
  while (sem.tryAcquire()) {}
  assert.equal(Atomics.load(heap, (Module._interop_semaphore() >> 2) + 1), 0, "no sleeper left");
});

test("Latch: C++ pthreads and the JS main thread arrive and are released together", async () => {
  const ptr = Module._interop_latch();
  Latch.initialize(heap, ptr >> 2, 4); // the same words a wsync::Latch(4) holds
  const latch = Latch.at(Module, ptr);
  Module._interop_latch_arrivers(3, 20);
  assert.equal(await latch.waitAsync(5), false);
  assert.equal(await latch.arriveAndWaitAsync(), true);
  await pthreadsFinished();
  assert.equal(latch.count, 0);
});

test("Barrier: C++ pthreads and the JS main thread pass 2000 phases; each completes once", async () => {
  const ptr = Module._interop_barrier();
  const phases = 2000;
  Barrier.initialize(heap, ptr >> 2, 4);
  let jsCompletions = 0;
  const barrier = Barrier.at(Module, ptr, () => ++jsCompletions);
  const cxxBefore = Module._interop_phases();
  Module._interop_barrier_participants(3, phases);
  for (let p = 0; p < phases; ++p) await barrier.arriveAndWaitAsync();
  await pthreadsFinished();
  assert.equal(jsCompletions + Module._interop_phases() - cxxBefore, phases, "one completion per phase, by C++ or JS");
  assert.equal(barrier.phase, phases);
});

test("Once: JS waits for a C++ runner, and C++ callers see the JS-completed word", async () => {
  const once = Once.at(Module, Module._interop_once());
  Module._interop_once_callers(4, 50);
  while (Module._interop_once_runs() === 0) await new Promise((r) => setTimeout(r, 1));
  assert.equal(await once.callOnceAsync(() => assert.fail("C++ is running it")), false);
  assert.equal(Module._interop_once_value(), 42, "f's result is visible to JS");
  await pthreadsFinished();
  assert.equal(Module._interop_once_runs(), 1, "ran once; every caller saw its write");

  Once.initialize(heap, Module._interop_once() >> 2);
  let ran = false;
  const js = once.callOnceAsync(async () => {
    await new Promise((r) => setTimeout(r, 30)); // C++ callers queue meanwhile
    ran = true;
  });
  Module._interop_once_callers(3, 0);
  assert.equal(await js, true);
  await pthreadsFinished();
  assert.equal(ran, true);
  assert.equal(Module._interop_once_runs(), 1, "no C++ caller ran it again");
});
