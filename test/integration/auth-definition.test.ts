/**
 * Authorization from the other front ends: a definition's `"auth"` section (validated, with
 * clear errors), `mcpmock serve --auth` driven by the SDK client's own OAuth code, and the
 * start option's checks.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { assertMockDefinition, McpMock } from "../../src/index.js";
import { CLI, ROOT } from "../support/build.js";
import { HEADERS } from "../support/raw-http.js";
import { TestOAuthProvider } from "../support/oauth-provider.js";

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
const dir = mkdtempSync(join(tmpdir(), "mcpmock-auth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a definition's auth section", () => {
  test("fromDefinition protects the endpoint as the section says", async () => {
    await using mock = await McpMock.fromDefinition({ auth: { scopes: ["read", "write"], required: ["write"] }, tools: [{ name: "echo", inputSchema: { type: "object" } }] });
    const res = await fetch(mock.url, { method: "POST", headers: HEADERS, body: INIT });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('scope="write"');
    expect((await fetch(mock.url, { method: "POST", headers: { ...HEADERS, authorization: `Bearer ${mock.auth.issueToken({ scopes: ["write"] })}` }, body: INIT })).status).toBe(200);
  });

  test("a mistake in the section names the file, the path, the rule and the expected form", () => {
    const refusal = (auth: unknown): string => {
      try {
        assertMockDefinition({ auth }, "auth.mock.json");
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    };
    // The allowed values are the expected form; the section's example (which has no "consent") is not shown for it (issue 32, item 4).
    expect(refusal({ consent: "maybe" })).toBe('[mcpmock] Invalid mock definition — auth.mock.json: auth.consent: must be one of "approve", "deny", received "maybe".');
    expect(refusal({ refrsh: true })).toContain('auth.refrsh: "refrsh" is not a field here (a typo?).');
    expect(refusal("yes")).toContain('auth: must be boolean or object, received "yes" (string).');
    expect(refusal({ accessTokenTtl: 0 })).toContain("auth.accessTokenTtl: must be >= 1");
    expect(refusal({ scopes: ["read"], required: ["admin"] })).toContain('auth.mock.json: auth.required: names "admin", which auth.scopes does not list: add it to scopes, or leave scopes out');
    expect(refusal(true)).toBe("");
  });

  test("the start option refuses what cannot work, every problem at once, with the fix", async () => {
    await expect(McpMock.start({ auth: { scopes: ["read"], required: ["write"], metadataAt: "top" as never, accessTokenTtl: 0 } })).rejects.toThrow(
      /auth has 3 problems:\n- auth\.required names "write", which auth\.scopes does not list.*\n- auth\.metadataAt must be "path" or "root".*\n- auth\.accessTokenTtl must be a positive whole number/,
    );
    await expect(McpMock.start({ auth: { required: ["two words"] } })).rejects.toThrow(/auth\.required must be a list of scope names/);
  });
});

describe("mcpmock serve --auth", () => {
  test("the SDK client's own OAuth flow against the served definition, then a tool call", async () => {
    const file = join(dir, "echo.mock.json");
    writeFileSync(file, JSON.stringify({ tools: [{ name: "echo", inputSchema: { type: "object" } }], responses: [{ tool: "echo", result: "hi" }] }));
    const child = spawn(process.execPath, [CLI, "serve", file, "--auth"], { cwd: ROOT, stdio: "pipe" });
    try {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
      for (let i = 0; !out.includes("stub-1:") && i < 200; i++) await new Promise((r) => setTimeout(r, 25));
      expect(out).toMatch(/^authorization: a bearer token is required; authorization server http:\/\/127\.0\.0\.1:\d+ /m);
      const url = /at (http:\/\/\S+\/mcp)\n/.exec(out)?.[1] ?? "";
      const provider = new TestOAuthProvider();
      await expect(new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
      const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
      await transport.finishAuth(provider.code());
      const client = new Client({ name: "t", version: "1" });
      await client.connect(transport);
      expect((await client.callTool({ name: "echo", arguments: {} })).content).toEqual([{ type: "text", text: "hi" }]);
      await client.close();
    } finally {
      child.kill("SIGKILL");
    }
  });
});
