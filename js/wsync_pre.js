// wsync_pre.js: linked into every wasm program of the wsync::wsync target
// (--pre-js), it runs before Emscripten's runtime starts.
//
// Module.wsyncMemory: the program's WebAssembly.Memory, for wsync.mjs's
// `Mutex.at(Module, ptr)`. Emscripten stopped putting HEAP32 (4.0.7) and
// wasmMemory (6.0.2) on Module unless a program exports them; this getter
// reads the runtime's own variable, on every toolchain, in every agent.
Object.defineProperty(Module, "wsyncMemory", {
  configurable: true,
  get: function () {
    return typeof wasmMemory === "undefined" ? undefined : wasmMemory;
  },
});

// A -pthread program needs a SharedArrayBuffer for its memory; where there is
// none, the runtime would stop with "SharedArrayBuffer is not defined". This
// says instead what is missing and how to fix it, on the console and in the
// error it throws. The same words as threadSupport() in wsync.mjs.
(function () {
  if (typeof SharedArrayBuffer === "function") return;
  var missing =
    typeof crossOriginIsolated !== "undefined" && !crossOriginIsolated
      ? "SharedArrayBuffer is not available: this page is not cross-origin isolated."
      : "SharedArrayBuffer is not available in this JavaScript engine.";
  var fix =
    typeof crossOriginIsolated !== "undefined" && !crossOriginIsolated
      ? 'Serve the page with the headers "Cross-Origin-Opener-Policy: same-origin" and ' +
        '"Cross-Origin-Embedder-Policy: require-corp", from https or http://localhost ' +
        "(wsync's serve.py does)."
      : "Use a browser or Node.js with WebAssembly threads.";
  var message = "wsync: no WebAssembly threads here. " + missing + " " + fix;
  console.error(message);
  throw new Error(message);
})();
