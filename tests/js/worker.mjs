// A worker_threads agent for the JS tests: runs one named job on shared words.
import { parentPort, workerData } from "node:worker_threads";
import { Barrier, CondVar, Latch, Mutex, Once, Semaphore, WaitGroup, configure } from "../../js/wsync.mjs";

const { job, buffer, args } = workerData;
// `buffer` is a SharedArrayBuffer or a shared WebAssembly.Memory (wasm interop).
const i32 = new Int32Array(buffer instanceof WebAssembly.Memory ? buffer.buffer : buffer);

// Options are per agent: a job may bring its own (`args.options`).
if (args?.options) configure(args.options);

const jobs = {
  // Increment a plain (non-atomic) counter under the Mutex `iterations` times.
  increment({ mutexIndex, counterIndex, iterations }) {
    const m = new Mutex(i32, mutexIndex);
    for (let i = 0; i < iterations; ++i) {
      m.lock();
      i32[counterIndex] = i32[counterIndex] + 1; // a plain read-modify-write: only the lock protects it
      m.unlock();
    }
  },
  // The same, on a C++ wsync::Mutex and int counter in wasm memory.
  incrementAt({ mutexPtr, counterPtr, iterations }) {
    const m = Mutex.at(buffer, mutexPtr);
    for (let i = 0; i < iterations; ++i) {
      m.lock();
      i32[counterPtr >> 2] = i32[counterPtr >> 2] + 1;
      m.unlock();
    }
  },
  // Hold the Mutex for `ms`, flagging when it is held.
  hold({ mutexIndex, flagIndex, ms }) {
    const m = new Mutex(i32, mutexIndex);
    m.lock();
    Atomics.store(i32, flagIndex, 1);
    Atomics.notify(i32, flagIndex);
    Atomics.wait(i32, flagIndex, 1, ms); // sleep while holding
    m.unlock();
  },
  // Go's fairness holder: lock, count, 100 us inside, unlock, relock at once,
  // until i32[stopIndex] is set.
  relock({ mutexIndex, stopIndex, countIndex }) {
    const m = new Mutex(i32, mutexIndex);
    while (Atomics.load(i32, stopIndex) === 0) {
      m.lock();
      Atomics.add(i32, countIndex, 1);
      Atomics.wait(i32, stopIndex, 0, 0.1);
      m.unlock();
    }
  },
  // The seed's pattern: write input^power to dest, then done().
  power({ wgIndex, input, power, dest }) {
    i32[dest] = input ** power;
    new WaitGroup(i32, wgIndex).done();
  },
  // Wait on a WaitGroup (blocking, allowed in a worker), then record it.
  waitThenMark({ wgIndex, markIndex }) {
    new WaitGroup(i32, wgIndex).wait();
    Atomics.add(i32, markIndex, 1);
  },
  // Producer/consumer on a ring of `cap` slots guarded by a Mutex, with two
  // CondVars (layout: tests/js/cond_var.test.mjs). A producer puts ids
  // first..first+count-1; a consumer takes `count` items, marking each id.
  condVarRing({ role, first, count, cap, seenBase }) {
    const m = new Mutex(i32, 0);
    const notEmpty = new CondVar(i32, 1);
    const notFull = new CondVar(i32, 3);
    const [HEAD, TAIL, SIZE, RING] = [5, 6, 7, 8];
    for (let i = 0; i < count; ++i) {
      m.lock();
      if (role === "producer") {
        while (i32[SIZE] === cap) notFull.wait(m);
        i32[RING + (i32[TAIL] % cap)] = first + i;
        i32[TAIL] += 1;
        i32[SIZE] += 1;
        notEmpty.notifyOne();
      } else {
        while (i32[SIZE] === 0) notEmpty.wait(m);
        const id = i32[RING + (i32[HEAD] % cap)];
        i32[HEAD] += 1;
        i32[SIZE] -= 1;
        notFull.notifyOne();
        Atomics.add(i32, seenBase + id, 1);
      }
      m.unlock();
    }
  },
  // The same ring with two Semaphores (free slots, items) and a Mutex for
  // the indexes (layout: tests/js/semaphore.test.mjs).
  semaphoreRing({ role, first, count, cap, seenBase }) {
    const m = new Mutex(i32, 0);
    const slots = new Semaphore(i32, 1);
    const items = new Semaphore(i32, 4);
    const [HEAD, TAIL, RING] = [7, 8, 9];
    for (let i = 0; i < count; ++i) {
      if (role === "producer") {
        slots.acquire();
        m.lock();
        i32[RING + (i32[TAIL] % cap)] = first + i;
        i32[TAIL] += 1;
        m.unlock();
        items.release();
      } else {
        items.acquire();
        m.lock();
        const id = i32[RING + (i32[HEAD] % cap)];
        i32[HEAD] += 1;
        m.unlock();
        slots.release();
        Atomics.add(i32, seenBase + id, 1);
      }
    }
  },
  // `phases` phases of a Barrier at index 0: each phase, write the phase
  // number into this worker's slot; the completion (run by whoever completes
  // the phase) checks every slot holds it and counts the phase.
  barrierPhases({ slot, slotsBase, workers, phases, checkedIndex, badIndex }) {
    let phase = 0;
    const barrier = new Barrier(i32, 0, () => {
      for (let w = 0; w < workers; ++w) {
        if (i32[slotsBase + w] !== phase) Atomics.add(i32, badIndex, 1);
      }
      Atomics.add(i32, checkedIndex, 1);
    });
    for (; phase < phases; ++phase) {
      i32[slotsBase + slot] = phase;
      barrier.arriveAndWait();
    }
  },
  // Race for a Once at index 0; the runner counts itself at runsIndex and,
  // if `throwFirst` and nobody threw yet, throws instead (another caller must
  // then run it). Every caller checks the value f published.
  onceRace({ runsIndex, thrownIndex, valueIndex, badIndex, sleepIndex, throwFirst }) {
    const once = new Once(i32, 0);
    for (;;) {
      try {
        once.callOnce(() => {
          Atomics.add(i32, runsIndex, 1);
          Atomics.wait(i32, sleepIndex, 0, 5); // stay RUNNING a while: others queue
          if (throwFirst && Atomics.compareExchange(i32, thrownIndex, 0, 1) === 0) throw new Error("first run fails");
          i32[valueIndex] = 42; // plain write, published by the Once
        });
        break;
      } catch (error) {
        if (error.message !== "first run fails") throw error;
      }
    }
    if (i32[valueIndex] !== 42 || !once.isComplete) Atomics.add(i32, badIndex, 1);
  },
  // After `ms`, end the wait the main thread is in (tests/js/timeouts.test.mjs):
  // words 0..2 hold the primitive `kind`, word 3 the CondVar's mutex.
  releaseLater({ kind, ms }) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    if (kind === "CondVar") {
      // Notify only once the main thread is waiting (the waiter count is
      // not zero); a notify before that would be one nobody was there for.
      while (Atomics.load(i32, 1) === 0) Atomics.wait(i32, 1, 0, 1);
      const m = new Mutex(i32, 3);
      m.lock();
      new CondVar(i32, 0).notifyAll();
      m.unlock();
      return;
    }
    const release = {
      Mutex: () => new Mutex(i32, 0).unlock(),
      WaitGroup: () => new WaitGroup(i32, 0).done(),
      Latch: () => new Latch(i32, 0).countDown(),
      Semaphore: () => new Semaphore(i32, 0).release(),
      Barrier: () => new Barrier(i32, 0).arrive(),
    };
    release[kind]();
  },
  // Lock the Mutex at `mutexIndex`, say so, then never unlock: the test
  // terminates this worker while it holds the lock.
  lockAndHang({ mutexIndex }) {
    new Mutex(i32, mutexIndex).lock();
    parentPort.postMessage("locked");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
  // Count down a Latch at index 0, then wait for it; mark when released.
  latchArrive({ markIndex }) {
    new Latch(i32, 0).arriveAndWait();
    Atomics.add(i32, markIndex, 1);
  },
};

jobs[job](args);
parentPort.postMessage("done");
