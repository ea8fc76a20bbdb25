// A worker_threads agent for the JS tests: runs one named job on shared words.
import { parentPort, workerData } from "node:worker_threads";
import { Mutex, WaitGroup } from "../../js/wsync.mjs";

const { job, buffer, args } = workerData;
// `buffer` is a SharedArrayBuffer or a shared WebAssembly.Memory (wasm interop).
const i32 = new Int32Array(buffer instanceof WebAssembly.Memory ? buffer.buffer : buffer);

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
};

jobs[job](args);
parentPort.postMessage("done");
