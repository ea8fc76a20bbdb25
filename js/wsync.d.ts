// Type declarations for wsync.mjs. Word layouts and states: docs/abi.md.

/**
 * An Emscripten Module of a program linked with wsync, as a MODULARIZE
 * factory resolves it or as the global `Module`: wsync's pre-js gives it
 * `wsyncMemory`, the program's shared memory, on every toolchain.
 */
export interface EmscriptenModuleWithWsync {
  readonly wsyncMemory: WebAssembly.Memory;
}

/** Anything whose memory a C++ wsync object lives in. */
export type WasmMemoryLike = EmscriptenModuleWithWsync | WebAssembly.Memory | SharedArrayBuffer | ArrayBufferView;

/** Run-time options. */
export interface Options {
  /** The most a blocking wait spins before it sleeps, in pauses (default 262144, as C++ in wasm); each agent learns its spin below it. */
  spinLimit: number;
  /** How long the async forms spin before awaiting, in microseconds (default 50). */
  spinMicros: number;
  /** How long a Mutex waiter sleeps before the next unlock hands it the lock, in microseconds (default 1000). */
  handoffAfterMicros: number;
}

/** Sets options; returns the options now in force. */
export function configure(options: Partial<Options>): Options;

/** Whether this agent may block in Atomics.wait (false on the browser main thread). */
export function canBlock(): boolean;

/** Why this agent cannot use WebAssembly threads, and the fix. */
export interface ThreadSupportProblem {
  /** What is missing, e.g. "SharedArrayBuffer is not available: this page is not cross-origin isolated." */
  missing: string;
  /** How to fix it (for a page: the COOP/COEP headers). */
  fix: string;
  /** "wsync: no WebAssembly threads here. " + missing + " " + fix */
  message: string;
}

/** What keeps this agent from sharing memory with other threads; null when nothing does. */
export function threadSupportProblem(): ThreadSupportProblem | null;

/**
 * Timeouts are milliseconds: a number >= 0 or Infinity (omitted: forever);
 * NaN or a negative number throws a RangeError. Blocking methods throw on
 * the browser main thread (use the ...Async form there); the ...Async forms
 * work everywhere and never block.
 */
export type TimeoutMs = number;

/** A futex mutex on one Int32Array element, barging but never starving a waiter (its states: include/wsync/mutex.hpp). */
export class Mutex {
  static readonly NUMINTS: 1;
  /** Stores the unlocked state at i32[index]; returns index. */
  static initialize(i32: Int32Array, index: number): number;
  /** The Mutex of a C++ wsync::Mutex / C wsync_mutex_t at byteOffset (4-byte aligned). */
  static at(memory: WasmMemoryLike, byteOffset: number): Mutex;
  constructor(i32: Int32Array, index: number);
  readonly i32: Int32Array;
  readonly index: number;
  /** Takes the mutex if free; never waits. */
  tryLock(): boolean;
  /** Blocks until locked (true) or timeoutMs passes (false). Throws on the browser main thread. */
  lock(timeoutMs?: TimeoutMs): boolean;
  /** Resolves true once locked, false after timeoutMs. Never blocks. */
  lockAsync(timeoutMs?: TimeoutMs): Promise<boolean>;
  /** Releases; throws "wsync: unlock of unlocked Mutex" if not locked. */
  unlock(): void;
}

/** Go's WaitGroup on one Int32Array element: bit 31 waiters, bits 30..0 the counter. */
export class WaitGroup {
  static readonly NUMINTS: 1;
  static initialize(i32: Int32Array, index: number): number;
  /** The WaitGroup of a C++ wsync::WaitGroup / C wsync_wg_t at byteOffset (4-byte aligned). */
  static at(memory: WasmMemoryLike, byteOffset: number): WaitGroup;
  constructor(i32: Int32Array, index: number);
  readonly i32: Int32Array;
  readonly index: number;
  /** The counter (a snapshot). */
  readonly count: number;
  /** Adds delta; a negative result throws "wsync: negative WaitGroup counter" and stores nothing. */
  add(delta?: number): void;
  done(): void;
  /** Blocks until the counter is zero (true) or timeoutMs passes (false). Throws on the browser main thread. */
  wait(timeoutMs?: TimeoutMs): boolean;
  /** Resolves true once the counter is zero, false after timeoutMs. Never blocks. */
  waitAsync(timeoutMs?: TimeoutMs): Promise<boolean>;
}

/** A counting semaphore with a maximum on three Int32Array elements: permits, sleepers, max. */
export class Semaphore {
  static readonly NUMINTS: 3;
  /** The largest maximum: 2^31 - 1. */
  static readonly MAX: number;
  /** Stores `initial` permits (default 0) and `max` (default MAX) at i32[index..index+2]; returns index. */
  static initialize(i32: Int32Array, index: number, initial?: number, max?: number): number;
  /** The Semaphore of a C++ wsync::Semaphore / C wsync_sem_t at byteOffset. */
  static at(memory: WasmMemoryLike, byteOffset: number): Semaphore;
  constructor(i32: Int32Array, index: number);
  readonly i32: Int32Array;
  readonly index: number;
  /** Permits available (a snapshot). */
  readonly count: number;
  readonly max: number;
  tryAcquire(): boolean;
  /** Blocks until a permit is taken (true) or timeoutMs passes (false). Throws on the browser main thread. */
  acquire(timeoutMs?: TimeoutMs): boolean;
  acquireAsync(timeoutMs?: TimeoutMs): Promise<boolean>;
  /** Adds n permits (default 1); past the maximum throws "wsync: Semaphore released past its maximum". */
  release(n?: number): void;
}

/** A condition variable on two Int32Array elements: a sequence number and a waiter count. */
export class CondVar {
  static readonly NUMINTS: 2;
  static initialize(i32: Int32Array, index: number): number;
  /** The CondVar of a C++ wsync::CondVar / C wsync_cond_t at byteOffset. */
  static at(memory: WasmMemoryLike, byteOffset: number): CondVar;
  constructor(i32: Int32Array, index: number);
  readonly i32: Int32Array;
  readonly index: number;
  notifyOne(): void;
  notifyAll(): void;
  /**
   * Unlocks `mutex` (held by the caller), sleeps until notified (true) or timeoutMs passes (false),
   * and relocks it. Spurious wakeups are possible: loop on a predicate. Throws on the browser main thread.
   */
  wait(mutex: Mutex, timeoutMs?: TimeoutMs): boolean;
  /** As wait(), without blocking; resolves with `mutex` held again. */
  waitAsync(mutex: Mutex, timeoutMs?: TimeoutMs): Promise<boolean>;
}

/** A single-use countdown on one Int32Array element (the WaitGroup's layout). */
export class Latch {
  static readonly NUMINTS: 1;
  /** Stores `count` at i32[index]; returns index. */
  static initialize(i32: Int32Array, index: number, count: number): number;
  static at(memory: WasmMemoryLike, byteOffset: number): Latch;
  constructor(i32: Int32Array, index: number);
  readonly i32: Int32Array;
  readonly index: number;
  readonly count: number;
  /** Counts down by n (default 1); below zero throws "wsync: Latch counted down below zero". */
  countDown(n?: number): void;
  tryWait(): boolean;
  wait(timeoutMs?: TimeoutMs): boolean;
  waitAsync(timeoutMs?: TimeoutMs): Promise<boolean>;
  arriveAndWait(n?: number): boolean;
  arriveAndWaitAsync(n?: number): Promise<boolean>;
}

/** A phase number returned by Barrier.arrive(). */
export type BarrierToken = number;

/** A reusable phase barrier on three Int32Array elements: phase (bit 31 waiters), remaining, expected. */
export class Barrier {
  static readonly NUMINTS: 3;
  /** Stores a barrier of `count` participants at i32[index..index+2]; returns index. */
  static initialize(i32: Int32Array, index: number, count: number): number;
  /** The Barrier of a C++ wsync::Barrier / C wsync_barrier_t at byteOffset; `completion` runs on this handle's completing arrivals. */
  static at(memory: WasmMemoryLike, byteOffset: number, completion?: () => void): Barrier;
  constructor(i32: Int32Array, index: number, completion?: () => void);
  readonly i32: Int32Array;
  readonly index: number;
  readonly completion: (() => void) | undefined;
  /** The current phase number (wraps at 2^31). */
  readonly phase: number;
  /** Arrives n times (default 1); returns the phase arrived in. Too many throws "wsync: Barrier over-arrival". */
  arrive(n?: number): BarrierToken;
  wait(token: BarrierToken, timeoutMs?: TimeoutMs): boolean;
  waitAsync(token: BarrierToken, timeoutMs?: TimeoutMs): Promise<boolean>;
  arriveAndWait(): void;
  arriveAndWaitAsync(): Promise<void>;
  /** Arrives once and leaves: the next phases expect one participant fewer. */
  arriveAndDrop(): void;
}

/** Runs a function exactly once across every agent, on one Int32Array element. */
export class Once {
  static readonly NUMINTS: 1;
  static initialize(i32: Int32Array, index: number): number;
  /** The Once of a C++ wsync::Once / C wsync_once_t at byteOffset. */
  static at(memory: WasmMemoryLike, byteOffset: number): Once;
  constructor(i32: Int32Array, index: number);
  readonly i32: Int32Array;
  readonly index: number;
  readonly isComplete: boolean;
  /**
   * Runs fn unless a call completed; waits while another agent runs it. True if this call ran fn.
   * If fn throws, the Once stays incomplete and the error propagates. Throws on the browser main thread.
   */
  callOnce(fn: () => void): boolean;
  /** As callOnce(), without blocking; fn may return a Promise, awaited while the Once is running. */
  callOnceAsync(fn: () => void | Promise<void>): Promise<boolean>;
}
