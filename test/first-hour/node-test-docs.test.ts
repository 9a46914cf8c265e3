/**
 * Issue 32, "Beyond": the `node:test` page (docs/node-test.md) shows what `mcpmock/vitest`
 * does with Node's own runner, and its example runs: `node --test` on the page's code block,
 * importing "mcpmock" as a user's project would (the package's own name resolves to dist/).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

test("the node:test page's example passes under node --test, and fails a test that makes an unstubbed call", () => {
  const page = readFileSync(new URL("docs/node-test.md", `file://${ROOT}`), "utf8");
  const code = /```js\n([\s\S]*?)```/.exec(page)?.[1];
  expect(code).toBeDefined();
  const dir = `${ROOT}test/.generated/`;
  mkdirSync(dir, { recursive: true });
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|NODE_TEST)/.test(k)));
  const run = (name: string, source: string) => {
    writeFileSync(`${dir}${name}`, source);
    const r = spawnSync(process.execPath, ["--test", `${dir}${name}`], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
    return `${r.stdout}${r.stderr}`;
  };
  expect(run("node-test-page.test.mjs", code as string)).toMatch(/# pass 2\n# fail 0/);
  // The same page without allowUnmatched(): that test fails, with the miss report.
  const failing = run("node-test-page-failing.test.mjs", (code as string).replace("mock.allowUnmatched();", ""));
  expect(failing).toMatch(/# pass 1\n# fail 1/);
  expect(failing).toContain("matched no stub");
}, 90_000);
