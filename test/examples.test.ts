/**
 * Every file in examples/ runs (or, for configuration, is checked) here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { assertMockDefinition } from "../src/index.js";
import { main as adminApi } from "../examples/admin-api.js";

const dir = new URL("../examples/", import.meta.url);

test("every example is covered here or by the README test", () => {
  expect(readdirSync(dir).sort()).toEqual(["admin-api.ts", "admin_api_test.py", "claude-desktop-config.json", "quick-start.ts", "weather.mock.json"]);
});

test("examples/weather.mock.json is a valid definition", () => {
  const definition: unknown = JSON.parse(readFileSync(new URL("weather.mock.json", dir), "utf8"));
  expect(() => assertMockDefinition(definition, "weather.mock.json")).not.toThrow();
});

test("examples/claude-desktop-config.json starts mcpmock stdio on a definition", () => {
  const config = JSON.parse(readFileSync(new URL("claude-desktop-config.json", dir), "utf8")) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  const server = Object.values(config.mcpServers)[0];
  // mcpmock is not on the registry yet: the config runs the installed package's command with node.
  expect(server?.command).toBe("node");
  expect(server?.args[0]).toMatch(/^\/.*\/node_modules\/mcpmock\/dist\/cli\.js$/);
  expect(server?.args[1]).toBe("stdio");
  expect(server?.args[2]).toMatch(/^\/.*\.mock\.json$/);
});

test("examples/admin-api.ts drives mcpmock serve through the admin API", async () => {
  const lines: string[] = [];
  await adminApi((line) => lines.push(line));
  expect(lines[0]).toMatch(/^MCP endpoint http:\/\/127\.0\.0\.1:\d+\/mcp, admin API http:\/\/127\.0\.0\.1:\d+\/__admin$/);
  expect(lines).toContain('POST /__admin/stubs → 201 {"ids":["stub-4"]}');
  expect(lines).toContain('tools/call get_weather Oslo → {"content":[{"type":"text","text":"{\\"temp\\":-3}"}]}');
  expect(lines).toContain('POST /__admin/verify → 200 {"ok":true,"matched":1}');
  expect(lines).toContain("POST /__admin/reset → 204");
}, 20_000);
