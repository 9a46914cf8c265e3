/**
 * `check` shows whole differences: no value cut with `…` in the printed lines or in
 * `CheckReport.differences`, each place as a change with its values whole and, for long texts
 * and objects, a line diff; and an entry's own `ignore` leaves out what varies in its answers.
 */
import { describe, expect, it } from "vitest";
import { McpMock, type MockDefinition } from "../../src/index.js";
import { checkDefinition } from "../../src/recording/index.js";

const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1} of a long report that a real server writes`);
const TOOLS = [
  { name: "report", inputSchema: { type: "object" } },
  { name: "clock", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { time: { type: "string" }, zone: { type: "string" } } } },
] as const;

async function server(): Promise<McpMock> {
  const mock = await McpMock.start({ tools: [...TOOLS] });
  mock.toolsCall("report").respondsWith(LINES.join("\n"));
  mock.toolsCall("clock").respondsWith(() => ({ time: new Date().toISOString(), zone: "UTC" }));
  return mock;
}

describe("check's differences", () => {
  it("are whole, with a diff of a long text", async () => {
    await using real = await server();
    const expected = [...LINES];
    expected[6] = "line 7 changed";
    const def: MockDefinition = { tools: [...TOOLS], responses: [{ tool: "report", args: {}, result: expected.join("\n") }] };
    const report = await checkDefinition(def, { target: real.url });
    expect(report.ok).toBe(false);
    const [difference] = report.differences;
    expect(difference?.call).toBe('tools/call "report" {}');
    expect(difference?.changes).toHaveLength(1);
    const change = difference!.changes[0]!;
    expect(change.at).toBe("/content/0/text");
    expect(change.expected).toBe(expected.join("\n"));
    expect(change.received).toBe(LINES.join("\n"));
    expect(change.diff?.split("\n")).toEqual([...LINES.slice(0, 6).map((l) => `  ${l}`), "- line 7 changed", `+ ${LINES[6]}`, ...LINES.slice(7).map((l) => `  ${l}`)]);
    const printed = report.lines.join("\n");
    expect(printed).not.toContain("…");
    expect(printed).toContain(`/content/0/text: expected ${JSON.stringify(expected.join("\n"))}, received ${JSON.stringify(LINES.join("\n"))}`);
    expect(printed).toContain(`        - line 7 changed\n        + ${LINES[6]}`);
    expect(difference!.details.join("\n")).toContain("diff (- expected, + received):");
  });

  it("mark the changed words of one long line", async () => {
    await using real = await server();
    const line = LINES.join(" ");
    real.toolsCall("report").respondsWith(line);
    const def: MockDefinition = { tools: [...TOOLS], responses: [{ tool: "report", args: {}, result: line.replace("line 3 of", "line three of") }] };
    const report = await checkDefinition(def, { target: real.url });
    expect(report.differences[0]?.changes[0]?.diff).toContain("line [-three-]{+3+} of");
  });

  it("leave out what an entry's own ignore names, beside check's ignore", async () => {
    await using real = await server();
    const answer = { time: "2026-01-01T00:00:00.000Z", zone: "UTC" };
    const entry = { tool: "clock", args: {}, result: answer };
    const differs = await checkDefinition({ tools: [...TOOLS], responses: [entry] }, { target: real.url });
    expect(differs.differences[0]?.changes.map((c) => c.at)).toEqual(["/content/0/text", "/structuredContent/time"]);
    const agrees = await checkDefinition({ tools: [...TOOLS], responses: [{ ...entry, ignore: ["/structuredContent/time", "/content/0/text"] }] }, { target: real.url });
    expect(agrees.lines.join("\n")).toContain('✓ tools/call "clock" {}: agrees');
    expect(agrees.ok).toBe(true);
    // Only that entry's: another entry of the same tool is compared whole.
    const other = { tool: "clock", args: { zone: "UTC" }, result: answer };
    const mixed = await checkDefinition({ tools: [...TOOLS], responses: [{ ...entry, ignore: ["/structuredContent/time", "/content/0/text"] }, other] }, { target: real.url });
    expect(mixed.differences.map((d) => d.call)).toEqual(['tools/call "clock" {"zone":"UTC"}']);
  });
});
