/**
 * What an application does against each hostile server, shared by the tests that drive real
 * clients through them (hostile.test.ts: the SDK clients; frameworks.test.ts: agent
 * frameworks), and the README's table of their verdicts, read back so that it cannot drift
 * from what the tests found.
 */
import { readFileSync } from "node:fs";

/** A client as an application uses it: list the tools, call one with a timeout, close. */
export interface Driven {
  listTools(): Promise<unknown>;
  call(name: string, args?: Record<string, unknown>, timeout?: number): Promise<unknown>;
  close(): Promise<void>;
}

const settle = (ms: number) => new Promise((done) => setTimeout(done, ms));
const attempt = async (work: () => Promise<unknown>): Promise<void> => {
  try {
    await work();
  } catch {
    // a hostile answer: the application goes on
  }
};

/** What an application does in each scenario. */
export const WORK: Readonly<Record<string, (client: Driven) => Promise<void>>> = {
  "hostile/tool-list-changed": async (c) => {
    await c.listTools();
    await c.call("search", { q: "mcp" });
    await settle(300);
  },
  "hostile/canary-tool": async (c) => {
    await c.listTools();
    await c.call("get_weather", { city: "Paris" });
  },
  "hostile/session-expired": async (c) => {
    await c.listTools();
    await c.call("echo");
    await attempt(() => c.call("echo"));
    await attempt(() => c.call("echo"));
  },
  "hostile/stream-dropped": async (c) => {
    await attempt(() => c.call("report", {}, 3_000));
  },
  "hostile/slow-answer": async (c) => {
    await attempt(() => c.call("slow_search", {}, 300));
    await settle(200);
  },
  "hostile/malformed-json": async (c) => {
    await attempt(() => c.call("garbled", {}, 1_000));
    await attempt(() => c.call("misaddressed", {}, 1_000));
    await attempt(() => c.call("healthy", {}, 1_000));
  },
  "hostile/endless-cursor": async (c) => {
    await attempt(() => c.listTools());
  },
  "hostile/list-changed-storm": async (c) => {
    await c.listTools();
    await c.call("ping_tool");
    await settle(500);
  },
  "hostile/huge-result": async (c) => {
    await attempt(() => c.call("dump", {}, 10_000));
    await c.call("healthy");
  },
  "hostile/undeclared-capability": async (c) => {
    await attempt(() => c.call("summarize", {}, 3_000));
  },
};

/**
 * The README's "How popular clients fare" table, as scenario → column → status: a ✓ cell is
 * SUCCESS, a ✗ cell FAILURE.
 */
export function readmeVerdicts(): ReadonlyMap<string, ReadonlyMap<string, "SUCCESS" | "FAILURE">> {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## How popular clients fare"));
  const rows = section.split("\n").filter((line) => line.startsWith("|"));
  const cells = (line: string) => line.split("|").slice(1, -1).map((cell) => cell.trim());
  const columns = cells(rows[0] ?? "");
  const table = new Map<string, Map<string, "SUCCESS" | "FAILURE">>();
  for (const row of rows.slice(2)) {
    const [scenario = "", ...marks] = cells(row);
    table.set(scenario.replaceAll("`", ""), new Map(marks.map((mark, i) => [columns[i + 1] ?? "", mark.startsWith("✓") ? "SUCCESS" : "FAILURE"] as const)));
  }
  return table;
}
