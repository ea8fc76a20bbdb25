// js/wsync.d.ts against js/wsync.mjs, the one source: the typings declare
// every export, each class's static and instance members (methods, getters,
// fields) and configure()'s options, and nothing else, so they cannot drift.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as wsync from "../../js/wsync.mjs";

const typings = readFileSync(new URL("../../js/wsync.d.ts", import.meta.url), "utf8");

// The declarations of the typings, without comments: exported functions and
// classes with their members.
function declared() {
  const text = typings.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  const functions = [...text.matchAll(/^export function (\w+)\(/gm)].map((m) => m[1]);
  const classes = {};
  for (const [, name, body] of text.matchAll(/^export class (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const statics = [];
    const members = [];
    for (const line of body.split("\n").map((l) => l.trim())) {
      const m = /^(static )?(readonly )?(\w+)[(:?]/.exec(line);
      if (!m || m[3] === "constructor") continue;
      (m[1] ? statics : members).push(m[3]);
    }
    classes[name] = { statics: statics.sort(), members: members.sort() };
  }
  return { functions: functions.sort(), classes };
}

// The same, read from the module: statics and prototype members up the
// class chain (shared ones live on a base class), and an instance's fields.
const fieldsOfInstance = {
  Mutex: () => new wsync.Mutex(new Int32Array(new SharedArrayBuffer(4)), 0),
  WaitGroup: () => new wsync.WaitGroup(new Int32Array(new SharedArrayBuffer(4)), 0),
  Semaphore: () => new wsync.Semaphore(new Int32Array(new SharedArrayBuffer(12)), 0),
  CondVar: () => new wsync.CondVar(new Int32Array(new SharedArrayBuffer(8)), 0),
  Latch: () => new wsync.Latch(new Int32Array(new SharedArrayBuffer(4)), 0),
  Barrier: () =>
    new wsync.Barrier(
      new Int32Array(new SharedArrayBuffer(12)),
      wsync.Barrier.initialize(new Int32Array(new SharedArrayBuffer(12)), 0, 1),
    ),
  Once: () => new wsync.Once(new Int32Array(new SharedArrayBuffer(4)), 0),
};

function implemented() {
  const functions = [];
  const classes = {};
  for (const [name, value] of Object.entries(wsync)) {
    if (typeof value !== "function") continue;
    if (!/^class /.test(Function.prototype.toString.call(value))) {
      functions.push(name);
      continue;
    }
    const statics = new Set();
    const members = new Set();
    for (let c = value; c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      for (const key of Object.getOwnPropertyNames(c)) {
        if (!["length", "name", "prototype"].includes(key)) statics.add(key);
      }
      for (const key of Object.getOwnPropertyNames(c.prototype)) {
        if (key !== "constructor") members.add(key);
      }
    }
    for (const key of Object.keys(fieldsOfInstance[name]())) members.add(key);
    classes[name] = { statics: [...statics].sort(), members: [...members].sort() };
  }
  return { functions: functions.sort(), classes };
}

const d = declared();
const m = implemented();

for (const name of m.functions) {
  test(`wsync.d.ts declares the function ${name}`, () => assert.ok(d.functions.includes(name)));
}
for (const name of Object.keys(m.classes)) {
  test(`wsync.d.ts declares the class ${name} with exactly its members`, () => {
    assert.ok(d.classes[name], `class ${name} is declared`);
    assert.deepEqual(d.classes[name].statics, m.classes[name].statics, `${name}'s static members`);
    assert.deepEqual(d.classes[name].members, m.classes[name].members, `${name}'s instance members`);
  });
}

test("wsync.d.ts declares nothing that wsync.mjs does not export", () => {
  assert.deepEqual(d.functions, m.functions);
  assert.deepEqual(Object.keys(d.classes).sort(), Object.keys(m.classes).sort());
});

test("the typings' option names are configure()'s", () => {
  const block = /export interface Options \{([\s\S]*?)\}/.exec(typings)[1].replace(/\/\*[\s\S]*?\*\//g, "");
  const names = [...block.matchAll(/(\w+): number;/g)].map((m) => m[1]).sort();
  assert.deepEqual(names, Object.keys(wsync.configure({})).sort());
});
