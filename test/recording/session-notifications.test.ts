/**
 * A notification of the session's (tools/list_changed) that a stdio server sends while a call
 * is in flight is not recorded as part of the call's stream, and `check` does not compare it as
 * one: a fresh recording and its check agree whatever the timing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { checkDefinition, record } from "../../src/recording/index.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-session-notes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SERVER = { command: process.execPath, args: [join(import.meta.dirname, "list-changed-server.mjs")] };

it("a list change sent during a call stays out of the call's recorded stream, and check agrees", async () => {
  const seen: string[] = [];
  const { definition } = await record({
    ...SERVER,
    out: join(dir, "recorded.json"),
    session: async (client) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, async (n) => void seen.push(n.method));
      await client.callTool({ name: "ping", arguments: {} });
    },
  });
  // The client got it (the relay passes everything on), but the recording keeps it out of the call.
  expect(seen).toContain("notifications/tools/list_changed");
  const ping = definition.responses?.find((r) => r.tool === "ping");
  expect(ping?.result).toEqual({ content: [{ type: "text", text: "pong" }] });
  expect(ping?.stream).toBeUndefined();
  const report = await checkDefinition(definition, SERVER);
  expect(report.lines.join("\n")).toContain('✓ tools/call "ping" {}: agrees');
  expect(report.ok).toBe(true);
}, 60_000);
