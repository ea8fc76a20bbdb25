// js/wsync.d.ts must declare everything js/wsync.mjs exports: every class,
// function, static member, method and getter, so the typings cannot drift.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as wsync from "../../js/wsync.mjs";

const dts = readFileSync(new URL("../../js/wsync.d.ts", import.meta.url), "utf8");

// The body of `export class Name { ... }` in the declarations.
function classBody(name) {
  const start = dts.indexOf(`export class ${name} {`);
  assert.notEqual(start, -1, `wsync.d.ts declares class ${name}`);
  return dts.slice(start, dts.indexOf("\n}", start));
}

function membersOf(object) {
  return Object.getOwnPropertyNames(object).filter((n) => !["constructor", "length", "name", "prototype"].includes(n));
}

for (const [name, value] of Object.entries(wsync)) {
  test(`wsync.d.ts declares ${name} and all of its members`, () => {
    if (!/^class /.test(Function.prototype.toString.call(value))) {
      assert.match(dts, new RegExp(`export function ${name}\\(`));
      return;
    }
    const body = classBody(name);
    const members = new Set();
    for (let c = value; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      for (const m of membersOf(c)) members.add(`static ${m}`);
      for (const m of membersOf(c.prototype)) members.add(m);
    }
    for (const m of members) {
      const bare = m.replace(/^static /, "");
      const declared = new RegExp(
        `^\\s+${m.startsWith("static ") ? "static (readonly )?" : "(readonly )?"}${bare}[(:?]`,
        "m",
      );
      assert.match(body, declared, `${name}: ${m} is declared`);
    }
  });
}
