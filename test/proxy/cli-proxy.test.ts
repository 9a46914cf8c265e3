/**
 * `mcpmock serve [file] --proxy <url>` and `--proxy -- <command> [args...]`: the definition's
 * stubs win, the rest is the real server's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mcpmock, stop } from "../support/recording.js";
import { EVERYTHING, everythingOverHttp } from "./everything.js";

let http: Awaited<ReturnType<typeof everythingOverHttp>>;
beforeAll(async () => {
  http = await everythingOverHttp();
});
afterAll(async () => {
  await http.stop();
});
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function texts(url: string, calls: Array<[string, Record<string, unknown>]>): Promise<string[]> {
  const client = new Client({ name: "t", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const out: string[] = [];
    for (const [name, args] of calls) out.push(((await client.callTool({ name, arguments: args })).content as Array<{ text: string }>)[0]?.text ?? "");
    return out;
  } finally {
    await client.close();
  }
}

describe("mcpmock serve --proxy", () => {
  it("a definition's stub wins in front of a Streamable HTTP upstream; the rest is the real server's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpmock-proxy-"));
    dirs.push(dir);
    const file = join(dir, "stub.json");
    writeFileSync(file, JSON.stringify({ responses: [{ tool: "echo", args: { message: "x" }, result: "from the file" }, { tool: "get-sum", proxy: true, delay: 1 }] }));
    const served = mcpmock(["serve", file, "--proxy", http.url, "--no-admin"]);
    try {
      const [, url] = (await served.line(/at (http:\/\/\S+\/mcp)/)) as RegExpExecArray;
      await served.line(new RegExp(`proxy mode: what no stub answers goes to ${http.url.replace(/[.]/g, "\\.")}`));
      // The start-up listing reads the file as the mock did: in proxy mode (its tools are undeclared).
      await served.line(/stub-2: tools\/call "get-sum"/);
      expect(await texts(url as string, [["echo", { message: "x" }], ["echo", { message: "y" }], ["get-sum", { a: 1, b: 2 }]])).toEqual(["from the file", "Echo: y", "The sum of 1 and 2 is 3."]);
    } finally {
      await stop(served);
    }
  }, 30_000);

  it("with no file, in front of a stdio command given after --", async () => {
    const served = mcpmock(["serve", "--no-admin", "--proxy", "--", process.execPath, EVERYTHING, "stdio"]);
    try {
      const [, url] = (await served.line(/at (http:\/\/\S+\/mcp)/)) as RegExpExecArray;
      expect(await texts(url as string, [["echo", { message: "over stdio" }]])).toEqual(["Echo: over stdio"]);
    } finally {
      await stop(served);
    }
  }, 30_000);

  it("--proxy without an upstream is a usage error (exit 2)", async () => {
    const served = mcpmock(["serve", "--proxy", "--"]);
    expect(await served.exited).toBe(2);
    expect(served.stderr()).toContain("--proxy needs an upstream");
  });
});
