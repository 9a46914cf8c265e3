/**
 * The one table of entry points: every row names a method of the mock and a pattern-free
 * call, and reports write the same call a user would.
 */
import { expect, test } from "vitest";
import { McpMock } from "../src/index.js";
import { ENTRY_POINTS, entryCall } from "../src/protocol/entry-points.js";
import { entryDsl } from "../src/journal/explain.js";

test("every entry point in the table is a method of McpMock", () => {
  for (const name of Object.values(ENTRY_POINTS)) expect(typeof (McpMock.prototype as unknown as Record<string, unknown>)[name], name).toBe("function");
});

test("reports write the entry point call, with the key where one is given", () => {
  expect(entryDsl("tools/call", "add")).toBe('mock.toolsCall("add")');
  expect(entryDsl("tools/call")).toBe("mock.toolsCall()");
  expect(entryDsl("prompts/get", "greet")).toBe('mock.promptsGet("greet")');
  expect(entryDsl("resources/read", "test://x")).toBe('mock.resourcesRead("test://x")');
  expect(entryDsl("resources/templates/list")).toBe("mock.resourcesTemplatesList()");
  expect(entryDsl("logging/setLevel")).toBe("mock.loggingSetLevel()");
  expect(entryDsl("DELETE session")).toBe("mock.deleteSession()");
  expect(entryDsl("GET stream")).toBe("mock.openStream()");
  expect(entryDsl("custom/thing")).toBe('mock.method("custom/thing")');
  expect(entryCall("resources/subscribe", "test://x")).toBe('resourcesSubscribe("test://x")');
});

test("a chain names its entry point as written in messages", async () => {
  await using mock = await McpMock.start({ transport: "none" });
  expect(() => mock.resourcesTemplatesList().fails("nope" as never)).toThrow(/^\[mcpmock\] resourcesTemplatesList\(\): fails takes/);
  expect(() => mock.resourcesSubscribe("test://x").fails("nope" as never)).toThrow(/^\[mcpmock\] resourcesSubscribe\("test:\/\/x"\): fails takes/);
});
