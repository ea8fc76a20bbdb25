// serve.py, the real dev server, as a user meets it: the isolation headers on
// every response (errors included), content types, traversal attempts,
// misuse on the command line, 200 clients at once, huge headers, slow
// clients, Ctrl-C.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startServe, stopAll } from "../serve_process.mjs";

// A site folder with one of each type, and a secret beside (outside) it.
const tmp = mkdtempSync(path.join(os.tmpdir(), "wsync-serve-"));
const site = path.join(tmp, "site");
mkdirSync(path.join(site, "sub"), { recursive: true });
writeFileSync(path.join(tmp, "secret.txt"), "outside the served folder\n");
const files = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "mod.mjs": "text/javascript; charset=utf-8",
  "module.wasm": "application/wasm",
  "data.json": "application/json",
  "style.css": "text/css; charset=utf-8",
  "picture.png": "image/png",
  "photo.jpg": "image/jpeg",
  "icon.svg": "image/svg+xml",
  "blob.unknownext": "application/octet-stream",
};
for (const name of Object.keys(files)) writeFileSync(path.join(site, name), `contents of ${name}`);
writeFileSync(path.join(site, "sub", "inner.txt"), "inner");
symlinkSync(path.join(tmp, "secret.txt"), path.join(site, "leak.txt")); // leads out: refused
symlinkSync(path.join(site, "sub", "inner.txt"), path.join(site, "alias.txt")); // stays inside: served

const ISOLATION = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

/** serve.py with `args`; `started` resolves to its port once it is listening (null if it exited). */
function serve(args) {
  const server = startServe(args);
  return { ...server, started: server.started.then((s) => s && s.port) };
}

/** One raw request on a fresh connection; resolves to { status, headers, body }. */
function raw(port, request) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (c) => (data += c));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head, ...rest] = data.split("\r\n\r\n");
      const [statusLine, ...lines] = head.split("\r\n");
      const headers = {};
      for (const line of lines) {
        const i = line.indexOf(":");
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
  });
}

const get = (port, target, method = "GET") =>
  raw(port, `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);

function assertIsolated(response, what) {
  for (const [name, value] of Object.entries(ISOLATION)) {
    assert.equal(response.headers[name], value, `${what}: ${name}`);
  }
}

let server;
let port;
before(async () => {
  server = serve([site, "--port", "0", "--quiet"]);
  port = await server.started;
  assert.ok(port, `serve.py started: ${JSON.stringify(server.output())}`);
});
after(async () => {
  await server?.stop();
  await stopAll(); // any server a failed test left running
  rmSync(tmp, { recursive: true, force: true });
});

test("it prints the URL and that pages will be isolated", () => {
  const { stdout } = server.output();
  assert.match(stdout, new RegExp(`^serve.py: serving .+ at http://127\\.0\\.0\\.1:${port}/$`, "m"));
  assert.match(stdout, /^serve.py: pages will be cross-origin isolated \(COOP same-origin, COEP require-corp\)$/m);
});

test("every file type gets its content type and the isolation headers", async () => {
  for (const [name, type] of Object.entries(files)) {
    const r = await get(port, `/${name}`);
    assert.equal(r.status, 200, name);
    assert.equal(r.headers["content-type"], type, name);
    assert.equal(r.body, `contents of ${name}`);
    assert.equal(r.headers["content-length"], String(r.body.length));
    assertIsolated(r, name);
  }
  const index = await get(port, "/");
  assert.equal(index.body, "contents of index.html");
  const head = await get(port, "/app.js", "HEAD");
  assert.equal(head.status, 200);
  assert.equal(head.body, "", "HEAD sends no body");
  assertIsolated(head, "HEAD");
});

test("errors carry the isolation headers too", async () => {
  const cases = [
    [await get(port, "/missing.js"), 404],
    [await get(port, "/app.js", "POST"), 405],
    [await get(port, "/app.js", "DELETE"), 405],
    [await raw(port, "GARBAGE\r\n\r\n"), 400],
    [await raw(port, "GET /app.js HTTP/9.9\r\n\r\n"), 400],
    [await raw(port, "GET noslash HTTP/1.1\r\nConnection: close\r\n\r\n"), 400],
    [await raw(port, "GET /app.js\r\n"), 400], // HTTP/0.9: no version, would get no headers
    [await raw(port, "GET /a b c d HTTP/1.1\r\n\r\n"), 400],
    [await get(port, "/" + "a".repeat(9000)), 414],
  ];
  for (const [r, status] of cases) {
    assert.equal(r.status, status);
    assertIsolated(r, `status ${status}`);
  }
  assert.equal(cases[1][0].headers.allow, "GET, HEAD");
});

test("nothing outside the folder is served, however the path is spelled", async () => {
  const attempts = [
    "/../secret.txt",
    "/sub/../../secret.txt",
    "/%2e%2e/secret.txt",
    "/%2E%2E/secret.txt",
    "/..%2fsecret.txt",
    "/%2e%2e%2fsecret.txt",
    "/%252e%252e/secret.txt", // double-encoded: decoded once it is a literal name, not ".."
    "/..\\secret.txt",
    "/%5c..%5csecret.txt",
    "/sub/..%5c..%5csecret.txt",
    `/${tmp}/secret.txt`, // an absolute path is a path under the root
    "//secret.txt",
    "/leak.txt", // a symlink out of the folder
    "/%00secret.txt",
    "/%ff%fe",
  ];
  for (const target of attempts) {
    const r = await get(port, target);
    assert.equal(r.status, 404, target);
    assert.doesNotMatch(r.body, /outside the served folder/, target);
    assertIsolated(r, target);
  }
  assert.equal((await get(port, "/alias.txt")).body, "inner", "a symlink that stays inside is served");
  const dir = await get(port, "/sub");
  assert.equal(dir.status, 301);
  assert.equal(dir.headers.location, "/sub/");
  const listing = await get(port, "/sub/");
  assert.match(listing.body, /inner\.txt/);
  assertIsolated(listing, "listing");
});

test("200 connections open at once are all answered, with the headers", async () => {
  // Every socket connects first and only then sends its request, so the
  // server holds 200 open connections at the same moment.
  const count = 200;
  // Each socket's listeners go on before it connects: a socket the server
  // closed early must still settle its answer, never leave it pending.
  const clients = Array.from({ length: count }, () => {
    const s = net.connect(port, "127.0.0.1");
    let data = "";
    s.setEncoding("latin1");
    s.on("data", (c) => (data += c));
    const connected = new Promise((resolve, reject) => {
      s.once("connect", resolve);
      s.once("error", reject);
    });
    const answer = new Promise((resolve, reject) => {
      s.once("error", reject);
      s.once("close", () => resolve(data));
    });
    return { s, connected, answer };
  });
  await Promise.all(clients.map((c) => c.connected));
  clients.forEach(({ s }, i) =>
    s.end(`GET /data.json?n=${i} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
  );
  const answers = clients.map((c) => c.answer);
  const responses = await Promise.all(answers);
  for (const data of responses) {
    assert.match(data, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(data, /\r\nCross-Origin-Opener-Policy: same-origin\r\n/);
    assert.match(data, /\r\nCross-Origin-Embedder-Policy: require-corp\r\n/);
    assert.ok(data.endsWith("\r\n\r\ncontents of data.json"), data.slice(-80));
  }
});

test("very long headers get 431 with the headers, and the server goes on", async () => {
  const request = (headers) =>
    raw(port, `GET /app.js HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`);
  const cases = {
    "one 100 KiB header": `X-Big: ${"a".repeat(100 * 1024)}\r\n`,
    "40 headers of 2 KiB": Array.from({ length: 40 }, (_, i) => `X-H${i}: ${"b".repeat(2048)}\r\n`).join(""),
    "150 small headers": Array.from({ length: 150 }, (_, i) => `X-H${i}: c\r\n`).join(""),
  };
  for (const [what, headers] of Object.entries(cases)) {
    const r = await request(headers);
    assert.equal(r.status, 431, what);
    assertIsolated(r, what);
  }
  // 60 KiB of headers in all is still fine.
  const fine = await request(Array.from({ length: 30 }, (_, i) => `X-H${i}: ${"d".repeat(2000)}\r\n`).join(""));
  assert.equal(fine.status, 200);
  assert.equal(fine.body, "contents of app.js");
});

test("a client that connects and sends nothing does not hold up anyone else", async () => {
  const idle = await new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => resolve(s));
  });
  try {
    const r = await get(port, "/app.js");
    assert.equal(r.status, 200);
  } finally {
    idle.destroy();
  }
});

test("a port in use is one line with the fix and exit code 2, no traceback", async () => {
  const second = serve([site, "--port", String(port)]);
  const { code } = await second.exited;
  const { stdout, stderr } = second.output();
  assert.equal(code, 2);
  assert.equal(
    stderr,
    `serve.py: port ${port} on 127.0.0.1 is in use; stop the other server or pick another port with --port N ` +
      "(--port 0 picks a free one)\n",
  );
  assert.equal(stdout, "");
});

test("bad command lines are refused cleanly", async () => {
  const notDir = serve([path.join(site, "app.js"), "--port", "0"]);
  assert.equal((await notDir.exited).code, 2);
  assert.match(notDir.output().stderr, /^serve\.py: .*app\.js is not a folder\n$/);
  const badPort = serve([site, "--port", "70000"]);
  assert.equal((await badPort.exited).code, 2);
  assert.match(badPort.output().stderr, /serve\.py: error: --port must be between 0 and 65535/);
  const badCoep = serve([site, "--coep", "bogus"]);
  assert.equal((await badCoep.exited).code, 2);
  assert.match(badCoep.output().stderr, /invalid choice: 'bogus'/);
  for (const s of [notDir, badPort, badCoep]) assert.doesNotMatch(s.output().stderr, /Traceback/);
});

test("--coep credentialless and --no-isolation set the headers they name", async () => {
  const cred = serve([site, "--port", "0", "--quiet", "--coep", "credentialless"]);
  const credPort = await cred.started;
  const r = await get(credPort, "/app.js");
  assert.equal(r.headers["cross-origin-embedder-policy"], "credentialless");
  await cred.stop();
  const plain = serve([site, "--port", "0", "--quiet", "--no-isolation"]);
  const plainPort = await plain.started;
  assert.match(plain.output().stdout, /--no-isolation: pages will NOT be cross-origin isolated/);
  const p = await get(plainPort, "/app.js");
  assert.equal(p.headers["cross-origin-opener-policy"], undefined);
  assert.equal(p.headers["cross-origin-embedder-policy"], undefined);
  assert.equal(p.headers["cache-control"], "no-store", "never a stale build, isolated or not");
  await plain.stop();
});

test("a non-loopback address is bound only when asked, with a warning", async () => {
  const wide = serve([site, "--port", "0", "--quiet", "--host", "0.0.0.0"]);
  const widePort = await wide.started;
  assert.ok(widePort);
  assert.match(wide.output().stdout, /^serve.py: warning: listening on 0\.0\.0\.0, reachable from other machines;/m);
  assert.equal((await get(widePort, "/app.js")).status, 200);
  await wide.stop();
  assert.doesNotMatch(server.output().stdout, /warning/, "the default (127.0.0.1) prints no warning");
});

test("Ctrl-C stops it cleanly", async () => {
  const s = serve([site, "--port", "0", "--quiet"]);
  await s.started;
  const { code } = await s.stop();
  assert.equal(code, 0);
  assert.match(s.output().stdout, /serve.py: stopped\n$/);
  assert.doesNotMatch(s.output().stderr, /Traceback|KeyboardInterrupt/);
});
