// A browser Web Worker (module) for main_thread.test.mjs: increments the C++
// counter under the C++ Mutex with the blocking wsync.mjs calls a worker may
// make, then counts the C++ WaitGroup down.
import { Mutex, WaitGroup, canBlock } from "./wsync.mjs";

onmessage = ({ data: { memory, mutexPtr, counterPtr, wgPtr, iterations } }) => {
  const m = Mutex.at(memory, mutexPtr);
  const heap = new Int32Array(memory.buffer);
  for (let i = 0; i < iterations; ++i) {
    m.lock();
    heap[counterPtr >> 2] += 1;
    m.unlock();
  }
  WaitGroup.at(memory, wgPtr).done();
  postMessage({ canBlock: canBlock() });
};
