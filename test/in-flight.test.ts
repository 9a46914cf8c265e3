/**
 * InFlight (src/values/in-flight.ts): what is in flight by key, in a dictionary object rather
 * than a Map, so that a busy server's young-generation GCs do not promote every call once a
 * full GC has run. Its semantics, and that reason, checked in a child process the way V8 runs
 * a server (the GC figures come from `--trace-gc-nvp`).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { InFlight } from "../src/values/in-flight.js";

const ROOT = new URL("..", import.meta.url).pathname;

describe("InFlight", () => {
  test("holds, counts, finds and drops values by key", () => {
    const table = new InFlight<string>();
    expect(table.size).toBe(0);
    expect(table.values()).toEqual([]);
    table.set(2, "two");
    table.set("session\u00001", "one");
    table.set(2, "two again");
    expect(table.size).toBe(2);
    expect(table.get(2)).toBe("two again");
    expect(table.has("session\u00001")).toBe(true);
    expect(table.get("missing")).toBeUndefined();
    expect(table.delete("missing")).toBe(false);
    expect(table.delete(2)).toBe(true);
    expect(table.delete(2)).toBe(false);
    expect(table.size).toBe(1);
    expect(table.values()).toEqual(["one"]);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.has("session\u00001")).toBe(false);
  });

  test("holds a value while its work runs, and drops it when the work settles either way", async () => {
    const table = new InFlight<string>();
    let finish!: (value: number) => void;
    const work = table.during("a", "running", new Promise<number>((resolve) => (finish = resolve)));
    const failed = table.during("b", "failing", Promise.reject(new Error("no")));
    expect(table.get("a")).toBe("running");
    expect(table.get("b")).toBe("failing");
    await expect(failed).rejects.toThrow("no");
    expect(table.has("b")).toBe(false);
    finish(7);
    await expect(work).resolves.toBe(7);
    expect(table.size).toBe(0);
  });

  test("takes any string as a key, __proto__ and the names of Object.prototype included", () => {
    const table = new InFlight<number>();
    for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      expect(table.has(key)).toBe(false);
      expect(table.get(key)).toBeUndefined();
      table.set(key, key.length);
    }
    expect(table.size).toBe(4);
    expect(table.get("__proto__")).toBe(9);
    expect(table.values().sort((a, b) => a - b)).toEqual([8, 9, 11, 14]);
    expect(table.delete("__proto__")).toBe(true);
    expect(table.size).toBe(3);
  });

  test("a number key and a string key are different keys, as in a Map", () => {
    const table = new InFlight<string>();
    table.set(1, "number");
    table.set("1", "string");
    expect(table.size).toBe(2);
    expect(table.get(1)).toBe("number");
    expect(table.get("1")).toBe("string");
    expect(table.delete("1")).toBe(true);
    expect(table.get(1)).toBe("number");
    expect(table.values()).toEqual(["number"]);
  });

  test("keeps every kind of number key: whole, negative, fractional, past 2^32", () => {
    const table = new InFlight<number>();
    const keys = [0, 7, -3, 2.5, 2 ** 32, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER, 2 ** 31 + 5];
    keys.forEach((key, i) => table.set(key, i));
    expect(table.size).toBe(keys.length);
    keys.forEach((key, i) => expect(table.get(key), String(key)).toBe(i));
    expect(table.values().sort((a, b) => a - b)).toEqual(keys.map((_, i) => i));
    for (const key of keys) expect(table.delete(key), String(key)).toBe(true);
    expect(table.size).toBe(0);
    for (const key of keys) expect(table.has(key), String(key)).toBe(false);
  });

  test("a call that stays in flight while thousands pass keeps its value, and each passing one its own", () => {
    const table = new InFlight<string>();
    table.set(5, "long");
    const live: number[] = [];
    for (let id = 6; id < 20_000; id++) {
      table.set(id, `call ${id}`);
      live.push(id);
      if (live.length > 40) {
        const done = live.shift() as number;
        expect(table.get(done)).toBe(`call ${done}`);
        expect(table.delete(done)).toBe(true);
      }
      // Ids 64 apart from the long call's share its slot while the table has 64 slots, every
      // other one of them once it has grown to 128 (to hold 41): those go past it, to the side.
      if (id % 64 === 5) {
        expect(table.get(id)).toBe(`call ${id}`);
        expect(table.get(5)).toBe("long");
      }
    }
    expect(table.size).toBe(41);
    expect(table.get(5)).toBe("long");
    expect(table.values().filter((v) => v !== "long").sort()).toEqual(live.map((id) => `call ${id}`).sort());
    expect(table.delete(5)).toBe(true);
    table.set(5, "again");
    expect(table.get(5)).toBe("again");
    expect(table.size).toBe(41);
  });

  test("grows past many keys in flight at once, then clears", () => {
    const table = new InFlight<number>();
    for (let id = 0; id < 5_000; id++) table.set(id * 3, id);
    expect(table.size).toBe(5_000);
    for (let id = 0; id < 5_000; id++) expect(table.get(id * 3)).toBe(id);
    expect(table.get(1)).toBeUndefined();
    table.clear();
    expect(table.size).toBe(0);
    expect(table.get(3)).toBeUndefined();
    table.set(3, 1);
    expect(table.values()).toEqual([1]);
  });

  test("calls coming and going after a full GC are not promoted call after call, as with a Map", () => {
    const promoted = (kind: string): number => {
      const run = spawnSync(process.execPath, ["--expose-gc", "--trace-gc-nvp", "--import", "tsx", "test/fixtures/in-flight-churn.ts", kind], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
      if (run.status !== 0) throw new Error(`the churn fixture failed (${kind}): ${run.stderr}`);
      let bytes = 0;
      for (const line of run.stdout.split("\n")) if (/ gc=s /.test(line)) bytes += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
      return bytes;
    };
    // 300,000 calls of about 1.5 KB: promoted call after call, that is some 400 MB (a Map's way).
    for (const kind of ["in-flight", "in-flight-strings"]) {
      const bytes = promoted(kind);
      expect(bytes, `${kind}: ${(bytes / 1e6).toFixed(1)} MB promoted over 300,000 calls`).toBeLessThan(40e6);
    }
  }, 60_000);
});
