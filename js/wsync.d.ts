// Type declarations for wsync.mjs. Word layouts and states: docs/abi.md.

/** Anything whose memory a C++ wsync object lives in. */
export type WasmMemoryLike = WebAssembly.Memory | SharedArrayBuffer | ArrayBufferView;

/** Run-time options. */
export interface Options {
  /** How long the async forms spin before awaiting, in microseconds (default 50). */
  spinMicros: number;
}

/** Sets options; returns the options now in force. */
export function configure(options: Partial<Options>): Options;

/** Whether this agent may block in Atomics.wait (false on the browser main thread). */
export function canBlock(): boolean;

/** Drepper's three-state futex mutex on one Int32Array element: 0 unlocked, 1 locked, 2 contended. */
export class Mutex {
  static readonly NUMINTS: 1;
  /** Stores the unlocked state at i32[index]; returns index. */
  static initialize(i32: Int32Array, index: number): number;
  /** The Mutex of a C++ wsync::Mutex / C wsync_mutex_t at byteOffset (4-byte aligned). */
  static at(memoryOrHeap: WasmMemoryLike, byteOffset: number): Mutex;
  constructor(i32: Int32Array, index: number);
  readonly i32: Int32Array;
  readonly index: number;
  /** Takes the mutex if free; never waits. */
  tryLock(): boolean;
  /** Blocks until locked (true) or timeoutMs passes (false). Throws on the browser main thread. */
  lock(timeoutMs?: number): boolean;
  /** Resolves true once locked, false after timeoutMs. Never blocks. */
  lockAsync(timeoutMs?: number): Promise<boolean>;
  /** Releases; throws "wsync: unlock of unlocked Mutex" if not locked. */
  unlock(): void;
}

/** Go's WaitGroup on one Int32Array element: bit 31 waiters, bits 30..0 the counter. */
export class WaitGroup {
  static readonly NUMINTS: 1;
  static initialize(i32: Int32Array, index: number): number;
  /** The WaitGroup of a C++ wsync::WaitGroup / C wsync_wg_t at byteOffset (4-byte aligned). */
  static at(memoryOrHeap: WasmMemoryLike, byteOffset: number): WaitGroup;
  constructor(i32: Int32Array, index: number);
  readonly i32: Int32Array;
  readonly index: number;
  /** The counter (a snapshot). */
  readonly count: number;
  /** Adds delta; a negative result throws "wsync: negative WaitGroup counter" and stores nothing. */
  add(delta?: number): void;
  done(): void;
  /** Blocks until the counter is zero (true) or timeoutMs passes (false). Throws on the browser main thread. */
  wait(timeoutMs?: number): boolean;
  /** Resolves true once the counter is zero, false after timeoutMs. Never blocks. */
  waitAsync(timeoutMs?: number): Promise<boolean>;
}
