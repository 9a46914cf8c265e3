/**
 * The Skills extension's client scenarios (sep-2640-*) over every transport, with a host of our
 * own on the v1 client: it lists the skills, loads one by reading its SKILL.md, verifies it
 * against the entry and only then reads the other files. A host that skips a verification
 * fails exactly the scenario about it, with a message saying what it read.
 */
import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { runScenario, scenarioNames, type ScenarioClientContext } from "../../src/scenarios/index.js";
import { connectV1 } from "./v1-client.js";

type Checked = "size" | "digest" | "frontmatter";
interface Entry { uri: string; frontmatter: Record<string, unknown>; resources: Array<{ uri: string; digest: string; size: number }> }

const connect = (url: string, context: ScenarioClientContext): Promise<Client> => connectV1(url, context, { name: "skills-host", version: "1.0.0" });

/** The frontmatter as YAML reads the mock's SKILL.md: `key: <JSON value>` lines. */
function frontmatter(text: string): Record<string, unknown> {
  const block = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? "";
  return Object.fromEntries(block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), JSON.parse(line.slice(line.indexOf(":") + 1))]));
}

/** A host that checks `checks` before it reads a skill's other files; `load: false` only lists. */
function host(checks: readonly Checked[], load = true) {
  return async (url: string, context: ScenarioClientContext): Promise<void> => {
    const client = await connect(url, context);
    try {
      const { skills } = (await client.request({ method: "skills/list", params: {} }, ResultSchema)) as unknown as { skills: Entry[] };
      if (!load) return;
      for (const skill of skills) {
        const text = ((await client.readResource({ uri: skill.uri })).contents[0] as { text: string }).text;
        const own = skill.resources.find((r) => r.uri === skill.uri)!;
        const bad =
          (checks.includes("size") && Buffer.byteLength(text) !== own.size) ||
          (checks.includes("digest") && `sha256:${createHash("sha256").update(text).digest("hex")}` !== own.digest) ||
          (checks.includes("frontmatter") && JSON.stringify(frontmatter(text)) !== JSON.stringify(skill.frontmatter));
        if (bad) continue;
        for (const file of skill.resources.filter((r) => r.uri !== skill.uri)) await client.readResource({ uri: file.uri });
      }
    } finally {
      await client.close();
    }
  };
}

const ALL: Checked[] = ["size", "digest", "frontmatter"];
const FORMS = "skill://pdf-processing/references/FORMS.md";

test("the four are listed for every transport, off the spec timeline as an extension's scenarios are", () => {
  const names = ["sep-2640-client-no-prefetch", "sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"];
  for (const transport of ["http", "stdio", "memory"] as const) expect(scenarioNames({ transport })).toEqual(expect.arrayContaining(names));
  for (const specVersion of ["2025-11-25", "2026-07-28"]) expect(scenarioNames({ specVersion }).filter((n) => n.startsWith("sep-2640-"))).toEqual([]);
});

describe.each(["http", "stdio", "memory"] as const)("over %s", (transport) => {
  test("a host that verifies everything passes all four; one that only lists skips the verify checks", async () => {
    for (const name of ["sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"]) {
      const verdict = await runScenario(name, { transport }, host(ALL));
      expect(verdict.checks.map((c) => c.status)).toEqual(["SUCCESS"]);
      expect(verdict.passed).toBe(true);
    }
    const listing = await runScenario("sep-2640-client-no-prefetch", { transport }, host(ALL, false));
    expect(listing.checks.map((c) => `${c.id} ${c.status}`)).toEqual(["sep-2640-host-no-prefetch SUCCESS"]);
    const idle = await runScenario("sep-2640-client-verify-digest", { transport }, async () => {});
    expect(idle.checks.map((c) => c.status)).toEqual(["SKIPPED"]);
  });

  test("a host that skips a check fails that scenario alone, saying what it read", async () => {
    const digestBlind = await runScenario("sep-2640-client-verify-digest", { transport }, host(["size", "frontmatter"]));
    expect(digestBlind.checks).toEqual([
      expect.objectContaining({ id: "sep-2640-host-verify-digest", status: "FAILURE", errorMessage: `client continued to ${FORMS} after being served a SKILL.md that fails digest verification, so it did not reject the content` }),
    ]);
    expect((await runScenario("sep-2640-client-verify-size", { transport }, host(["size", "frontmatter"]))).passed).toBe(true);
    const trusting = await runScenario("sep-2640-client-verify-frontmatter", { transport }, host(["size", "digest"]));
    expect(trusting.checks[0]).toMatchObject({ id: "sep-2640-host-frontmatter-comparison", status: "FAILURE" });
    const eager = await runScenario("sep-2640-client-no-prefetch", { transport }, host(ALL));
    expect(eager.checks[0]?.errorMessage).toBe(`client read 2 skill file(s) without loading a skill: skill://pdf-processing/SKILL.md, ${FORMS}`);
  });
});
