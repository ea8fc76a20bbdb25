// Preloaded with `node -r` to run a wasm program in an engine without
// SharedArrayBuffer (as a page that is not cross-origin isolated is): Node's
// old switch for it (--no-harmony-sharedarraybuffer) is gone from Node 24.
delete globalThis.SharedArrayBuffer;
