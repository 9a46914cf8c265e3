/**
 * The definitions `npm run conformance` serves (the suite itself runs outside vitest: it takes
 * about half a minute): both are valid, and both are written with the documented forms only,
 * so no entry answers `server/discover` or a task method by hand; the mock's own answers do.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { assertMockDefinition, type MockDefinition } from "../../src/index.js";

const FILES = ["everything.mock.json", "independent.mock.json"];
const BUILT_IN = ["server/discover", "tasks/get", "tasks/update", "tasks/cancel", "tasks/result", "tasks/list", "subscriptions/listen", "initialize"];

describe.each(FILES)("test/conformance/%s", (file) => {
  const definition = JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8")) as MockDefinition;

  test("is a valid definition", () => {
    expect(() => assertMockDefinition(definition, file)).not.toThrow();
  });

  test("answers no built-in method by hand, and uses named inputs, groups and startTask", () => {
    const methods = (definition.responses ?? []).flatMap((r) => ("method" in r && typeof r.method === "string" ? [r.method] : []));
    expect(methods.filter((m) => BUILT_IN.includes(m))).toEqual([]);
    const text = JSON.stringify(definition);
    expect(text).toContain('"requests"');
    expect(text).toContain('"startTask":true');
    expect(text).toContain('"prompt"');
  });
});
