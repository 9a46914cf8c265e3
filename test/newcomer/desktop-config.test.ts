/**
 * Issue 21, item 10: the desktop-client configuration in examples/ works today, without the
 * registry. The test fills in its placeholder paths (the installed package is this checkout's
 * build; the definition is examples/weather.mock.json) and starts the server exactly as a
 * desktop client does: the config's command and args, over stdio, with the SDK client.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect, test } from "vitest";
import { CLI } from "../support/build.js";

const examples = new URL("../../examples/", import.meta.url);

test("examples/claude-desktop-config.json starts a server the SDK client talks to", async () => {
  const config = JSON.parse(readFileSync(new URL("claude-desktop-config.json", examples), "utf8")) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  const server = Object.values(config.mcpServers)[0] as { command: string; args: string[] };
  expect(JSON.stringify(server)).not.toContain('"-y"');
  const args = server.args.map((arg) =>
    arg
      .replace("/absolute/path/to/your-project/node_modules/mcpmock/dist/cli.js", CLI)
      .replace("/absolute/path/to/weather.mock.json", fileURLToPath(new URL("weather.mock.json", examples))),
  );
  expect(args).not.toContainEqual(expect.stringContaining("/absolute/path"));
  // "node" as the desktop client resolves it; here the same Node that runs the tests.
  const command = server.command === "node" ? process.execPath : server.command;
  const client = new Client({ name: "desktop", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, stderr: "pipe" }));
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["get_weather"]);
    const seoul = await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } });
    expect(seoul.content).toEqual([{ type: "text", text: '{"city":"Seoul","temp":21,"condition":"clear"}' }]);
  } finally {
    await client.close();
  }
});

test("the README and the definition guide show the same local install path, and npx -y only as what comes once published", () => {
  const readme = readFileSync(new URL("../README.md", examples), "utf8");
  const guide = readFileSync(new URL("../docs/guides/definitions-and-cli.md", examples), "utf8");
  expect(guide).toContain('"args": ["/absolute/path/to/your-project/node_modules/mcpmock/dist/cli.js", "stdio", "/absolute/path/to/weather.mock.json"]');
  expect(readme).toContain("npm install --save-dev /path/to/mcpmock/mcpmock-0.1.0.tgz");
  expect(guide).toContain("npm install --save-dev /path/to/mcpmock/mcpmock-0.1.0.tgz");
  // npx -y of mcpmock itself (other servers' npx lines, as in the recording examples, are theirs).
  for (const line of `${readme}\n${guide}`.split("\n").filter((l) => l.includes("npx -y mcpmock") || l.includes('"-y", "mcpmock"'))) expect(line).toMatch(/published|registry/);
});
