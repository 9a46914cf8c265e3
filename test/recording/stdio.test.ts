/**
 * `mcpmock record -- <command>`: the recorder is the stdio server a client launches; it starts
 * the real server, relays both ways, and writes the file when the client closes stdin. The
 * file replays the same transcript through `mcpmock stdio`.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockDefinition } from "../../src/definition/format.js";
import { CLI, stdio, transcript } from "../support/recording.js";
import { FIXTURE_SESSION } from "./sessions.js";

const FIXTURE = "test/fixtures/real-server.mjs";

describe("mcpmock record -- <command> (stdio)", () => {
  it("records the server a client launches, and mcpmock stdio replays it identically", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "mcpmock-record-")), "recorded.json");
    const recorded = await transcript(stdio(process.execPath, [CLI, "record", "--out", out, "--", process.execPath, FIXTURE, "stdio"]), FIXTURE_SESSION, { elicit: true });
    // The client closed stdin; the recorder wrote the file on its way out (poll briefly for it).
    let def: MockDefinition | undefined;
    for (let i = 0; i < 50 && !(def?.responses ?? []).some((r) => r.tool === "ask"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      def = JSON.parse(readFileSync(out, "utf8")) as MockDefinition;
    }
    expect(def?.tools?.length).toBe(7);
    expect(def?.responses?.find((r) => r.tool === "slow")?.stream?.filter((s) => "progress" in s)).toHaveLength(3);
    const replayed = await transcript(stdio(process.execPath, [CLI, "stdio", out]), FIXTURE_SESSION, { elicit: true });
    expect(replayed).toEqual(recorded);
    expect(JSON.stringify(recorded)).toContain("call 4");
  });
});
