/**
 * The `mcpmock` command, run from the built package (dist/cli.js, built once by
 * test/support/build.ts) the way a user runs it: help and version, command-line mistakes
 * (exit 2), validate (exit 0 or 1 with the problem), and serve, driven by the SDK client.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROOT } from "./support/build.js";
import { runCli, startCli, type CliRun, type RunningCli } from "./support/cli-run.js";

type Run = CliRun;
type Running = RunningCli;

/** Starts `mcpmock ...args` (test/support/cli-run.ts). */
const start = (args: readonly string[]): Running => startCli(args);

/** Runs `mcpmock ...args` to its end (killed after 10 s). */
const run = (...args: string[]): Promise<Run> => runCli(args);

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

describe.concurrent("help, version and command-line mistakes", () => {
  test("--help prints the usage of every command and exits 0", async ({ expect }) => {
    const r = await run("--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`mcpmock ${VERSION}: a mock MCP server for tests.`);
    for (const command of ["serve <definition.json>", "stdio <definition.json>", "validate <definition.json>"]) expect(r.stdout).toContain(`mcpmock ${command}`);
    expect(r.stderr).toBe("");
  });

  test.for([
    ["serve", "Serves the definition over Streamable HTTP"],
    ["stdio", "The process is the server"],
    ["validate", "Checks a definition"],
  ] as const)("%s --help explains the command and exits 0", async ([command, phrase], { expect }) => {
    const r = await run(command, "--help");
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`mcpmock ${command} <definition.json>`)).toBe(true);
    expect(r.stdout).toContain(phrase);
    expect(r.stderr).toBe("");
  });

  test("serve --help lists its options and the admin routes", async ({ expect }) => {
    const r = await run("serve", "--help");
    for (const option of ["--port N", "--host H", "--allowed-host H", "--stateless", "--sse", "--verbose", "--no-admin", "/__admin/stubs", "/__admin/sessions", "POST /__admin/recordings/snapshot"]) expect(r.stdout).toContain(option);
  });

  // Guards that --watch without a file is refused rather than watching the working directory.
  test("serve --proxy URL --watch without a file: exit 2, saying --watch needs one", async ({ expect }) => {
    const r = await run("serve", "--proxy", "http://127.0.0.1:1/mcp", "--watch");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--watch watches a definition file: give one");
  });

  test("--version prints the package version", async ({ expect }) => {
    const r = await run("--version");
    expect(r).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  test("no command: exit 2 and the usage", async ({ expect }) => {
    const r = await run();
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain("Usage:\n  mcpmock serve <definition.json>");
  });

  test("an unknown command: exit 2, naming it and the commands", async ({ expect }) => {
    const r = await run("server", "examples/weather.mock.json");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('mcpmock: unknown command "server". Did you mean "serve"? Commands: serve, stdio, validate, record, check, scenarios. See mcpmock --help.\n');
    expect(r.stdout).toBe("");
  });

  test("an unknown flag: exit 2, naming it", async ({ expect }) => {
    const r = await run("serve", "examples/weather.mock.json", "--prot", "8080");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("mcpmock: unknown option --prot. Did you mean --port? See mcpmock --help.\n");
    expect(r.stderr).toContain("See mcpmock --help.");
    expect(r.stdout).toBe("");
  });

  test("a command without its file, or with two: exit 2", async ({ expect }) => {
    const none = await run("validate");
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("mcpmock: the validate command needs a definition file: mcpmock validate <definition.json>\n");
    const two = await run("validate", "a.json", "b.json");
    expect(two.code).toBe(2);
    expect(two.stderr).toContain("takes one file, received 2: a.json b.json");
  });

  test("a port that is not a number: exit 2", async ({ expect }) => {
    const r = await run("serve", "examples/weather.mock.json", "--port", "http");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--port takes a port number 0-65535, received http");
  });

  // Before, Number() read "0x10" as port 16, "1e3" as 1000 and "" as 0 (a free port), and served.
  test.each([["0x10"], ["1e3"], [""], ["80.0"]])("a port written %j is not a port number: exit 2", async (port) => {
    const r = await run("serve", "examples/weather.mock.json", "--port", port);
    expect(r).toMatchObject({ code: 2, stdout: "", stderr: `mcpmock: --port takes a port number 0-65535, received ${port === "" ? "nothing" : port}\n` });
  });

  // Before: "--port takes no value", the opposite of the mistake (Node calls a value that
  // starts with "-" ambiguous).
  test("--port followed by -1 or by another option: exit 2, saying it needs a value", async ({ expect }) => {
    for (const next of ["-1", "--stateless"]) {
      const r = await run("serve", "examples/weather.mock.json", "--port", next);
      expect(r).toMatchObject({ code: 2, stdout: "", stderr: 'mcpmock: --port needs a value, like --port 3000 (a value starting with "-" is written --port=-VALUE). See mcpmock --help.\n' });
    }
  });

  // Before, a command ignored the options it does not take: stdio --watch watched nothing and
  // validate --port listened on nothing, without a word.
  test("an option the command does not take: exit 2, naming it and the ones it takes", async ({ expect }) => {
    const stdio = await run("stdio", "examples/weather.mock.json", "--watch", "--port", "3000");
    expect(stdio).toMatchObject({ code: 2, stdout: "", stderr: "mcpmock: --watch and --port are not options of stdio: it takes --verbose. See mcpmock stdio --help.\n" });
    const validate = await run("validate", "examples/weather.mock.json", "--verbose");
    expect(validate).toMatchObject({ code: 2, stdout: "", stderr: "mcpmock: --verbose is not an option of validate: it takes --proxy. See mcpmock validate --help.\n" });
  });
});

describe.concurrent("validate", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("examples/weather.mock.json is valid: exit 0", async ({ expect }) => {
    const r = await run("validate", "examples/weather.mock.json");
    expect(r).toMatchObject({ code: 0, stdout: "examples/weather.mock.json is a valid mcpmock definition.\n", stderr: "" });
  });

  test("a broken file: exit 1, with the file, the JSON path and the expected form on stderr", async ({ expect }) => {
    const file = join(dir, "broken.mock.json");
    writeFileSync(file, JSON.stringify({ tools: [{ name: "get_weather" }], responses: [{ tool: "get_wether", result: { temp: 1 } }] }));
    const r = await run("validate", file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "[mcpmock] Invalid mock definition — broken.mock.json: responses[0].tool: tool \"get_wether\" is not in tools. Did you mean \"get_weather\"? Available tools: get_weather.\n" +
        '→ Expected like: { "tool": "add", "args": { "a": 1, "b": 2 }, "result": { "sum": 3 } }\n',
    );
  });

  // Guards that validate refuses what serve would refuse when it starts (here a tool declared
  // twice), instead of "valid" followed by a failing serve.
  test("a definition that serve cannot start: exit 1, naming the file and the tool", async ({ expect }) => {
    const file = join(dir, "twice.mock.json");
    writeFileSync(file, JSON.stringify({ tools: [{ name: "get_weather" }, { name: "get_weather" }] }));
    const r = await run("validate", file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('[mcpmock] Invalid mock definition — twice.mock.json: tools[1].name: tool "get_weather" is declared twice.');
  });

  // Before, validate said valid: the resources were checked only when serve declared them, which
  // then refused the first broken one; and a URI given twice was served from the second entry.
  test("resources serve cannot declare, and a URI given twice: exit 1, every one listed", async ({ expect }) => {
    const file = join(dir, "resources.mock.json");
    const resources = [
      { uri: "test://a", name: "a", text: "first" },
      { uri: "test://a", name: "a2", text: "second" },
      { uriTemplate: "test://items/{id", name: "items", text: "x" },
      { uri: "test://users/{id}", name: "users", text: "y" },
    ];
    writeFileSync(file, JSON.stringify({ resources }));
    const r = await run("validate", file);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n").slice(0, 4)).toStrictEqual([
      "[mcpmock] Invalid mock definition — resources.mock.json: 3 problems, all listed here.",
      '- resources[1].uri: "test://a" is declared twice (first at resources[0]), and the second would replace the first. Give each resource one declaration.',
      '- resources[2].uriTemplate: "test://items/{id" is not a valid RFC 6570 URI template (Unclosed template expression). Write it like "file:///{path}".',
      '- resources[3].uri: "test://users/{id}" looks like a template; declare it as { uriTemplate: "test://users/{id}", ... }.',
    ]);
  });

  test("a file that is not JSON: exit 1", async ({ expect }) => {
    const file = join(dir, "garbage.mock.json");
    writeFileSync(file, "tools: [get_weather]\n");
    const r = await run("validate", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Invalid mock definition — garbage.mock.json: not valid JSON");
  });

  test("a missing file: exit 1, naming the path", async ({ expect }) => {
    const r = await run("validate", "examples/nope.mock.json");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`[mcpmock] no definition file at examples/nope.mock.json. Check the path (it is relative to ${ROOT.replace(/\/$/, "")}).\n`);
  });

  // Before, a FIFO named by mistake was read synchronously: validate (and serve, and a --watch
  // reload) waited for a writer forever; a directory was "EISDIR: illegal operation on a directory, read".
  test.skipIf(process.platform === "win32")("a FIFO or a directory: exit 1 at once, saying what it is", async ({ expect }) => {
    const fifo = join(dir, "pipe.mock.json");
    execFileSync("mkfifo", [fifo]);
    const r = await run("validate", fifo);
    expect(r).toMatchObject({ code: 1, stdout: "", stderr: `[mcpmock] cannot read ${fifo}: it is a FIFO (named pipe); name a regular file.\n` });
    const folder = join(dir, "folder.mock.json");
    mkdirSync(folder);
    const s = await run("serve", folder);
    expect(s).toMatchObject({ code: 1, stdout: "", stderr: `[mcpmock] cannot read ${folder}: it is a directory; name a regular file.\n` });
  });

  // Before: "mcpmock: RangeError: Maximum call stack size exceeded" and a stack trace (the
  // checks walk values recursively).
  test("a file nested 100,000 levels deep: exit 1, naming where, no stack trace", async ({ expect }) => {
    const file = join(dir, "deep.mock.json");
    const levels = 100_000;
    writeFileSync(file, `{"tools":[{"name":"a"}],"responses":[{"tool":"a","result":${"[".repeat(levels)}${"]".repeat(levels)}}]}`);
    const r = await run("validate", file);
    expect(r).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "[mcpmock] Invalid mock definition — deep.mock.json: responses[0].result[0][0][0]… nests objects and arrays deeper than 528 levels from the root; a stubbed value may nest 512. Flatten it.\n",
    });
  });

  // Before, bytes that are not UTF-8 were read as U+FFFD and the file was valid: a tool named
  // "caf\uFFFD" served, and nothing said why a client's "café" was not answered.
  test("a file that is not UTF-8: exit 1, with the line and column of the first bad byte", async ({ expect }) => {
    const file = join(dir, "latin1.mock.json");
    writeFileSync(file, Buffer.concat([Buffer.from('{"tools": [\n  { "name": "caf'), Buffer.from([0xe9]), Buffer.from('" }\n]}\n')]));
    const r = await run("validate", file);
    expect(r).toMatchObject({ code: 1, stdout: "", stderr: "[mcpmock] Invalid mock definition — latin1.mock.json: not UTF-8 text at line 2, column 17 (byte 0xe9). Save the file as UTF-8.\n" });
  });

  test("serve refuses a broken file the same way: exit 1 and nothing listening", async ({ expect }) => {
    const file = join(dir, "broken-serve.mock.json");
    writeFileSync(file, JSON.stringify({ tools: [{ name: "get_weather", inputShema: {} }] }));
    const r = await run("serve", file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("broken-serve.mock.json: tools[0].inputShema: \"inputShema\" is not a field here (a typo?).");
  });
});

describe("serve", () => {
  let served: Running;
  let url: string;

  beforeAll(async () => {
    served = start(["serve", "examples/weather.mock.json", "--verbose"]);
    await served.waitFor("stdout", (s) => s.includes("stub-3:"));
    url = /at (http:\/\/\S+\/mcp)\n/.exec(served.out.stdout)?.[1] ?? "";
  });
  afterAll(() => served.kill());

  test("prints the URL, the Host names it answers, the SSE URL, the admin API, the inspector and one line per stub", () => {
    const lines = served.out.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^mcpmock serving examples\/weather\.mock\.json at http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(lines[1]).toBe("Host names answered: localhost, 127.0.0.1, [::1] (--allowed-host to add one)");
    expect(lines[2]).toBe(`HTTP+SSE (2024-11-05) at ${url.replace(/\/mcp$/, "")}/sse`);
    expect(lines[3]).toBe(`admin API at ${url.replace(/\/mcp$/, "")}/__admin`);
    expect(lines[4]).toBe(`inspector at ${url.replace(/\/mcp$/, "")}/__admin/ui (open it in a browser)`);
    expect(lines.slice(5)).toEqual([
      "  tools: get_weather",
      '  stub-1: tools/call "get_weather" with arguments equal to {"city":"Seoul"} → {"city":"Seoul","temp":21,"condition":"clear"} (seen 0)',
      '  stub-2: tools/call "get_weather" with arguments equal to {"city":"Atlantis"} → an error result text "→ \'Atlantis\' is not a city I know. Known cities: Seoul, Busan, Jeju" (seen 0)',
      '  stub-3: tools/call "get_weather" → the template {"city":"{{args.city}}","temp":15,"condition":"cloudy"} (seen 0)',
    ]);
  });

  test("answers the SDK client, and --verbose logs each call on stderr", async () => {
    const client = new Client({ name: "cli-test", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect(client.getServerVersion()).toEqual({ name: "weather", version: "1.0.0" });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["get_weather"]);
      expect((await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } })).content).toEqual([
        { type: "text", text: '{"city":"Seoul","temp":21,"condition":"clear"}' },
      ]);
      expect((await client.callTool({ name: "get_weather", arguments: { city: "Gwangju" } })).content).toEqual([
        { type: "text", text: '{"city":"Gwangju","temp":15,"condition":"cloudy"}' },
      ]);
      const atlantis = await client.callTool({ name: "get_weather", arguments: { city: "Atlantis" } });
      expect(atlantis.isError).toBe(true);
      const log = await served.waitFor("stderr", (s) => s.includes("Atlantis"));
      expect(log).toMatch(/^\[mcpmock\] \(new session\) ← initialize .* → default:initialize: /m);
      expect(log).toMatch(/^\[mcpmock\] session-1 ← tools\/call "get_weather" \{"name":"get_weather","arguments":\{"city":"Seoul"\}.* → stub-1: .* \(\d+ ms\)$/m);
      expect(log).toMatch(/^\[mcpmock\] session-1 ← tools\/call "get_weather" .*"Gwangju".* → stub-3: /m);
    } finally {
      await client.close();
    }
    expect(served.out.stdout).not.toContain("tools/call \"get_weather\" {"); // logs go to stderr only
  });

  test("answers the SDK's SSEClientTransport at the printed SSE URL", async () => {
    const sseUrl = /^HTTP\+SSE \(2024-11-05\) at (\S+)$/m.exec(served.out.stdout)?.[1] ?? "";
    const client = new Client({ name: "cli-test-sse", version: "1.0.0" });
    try {
      await client.connect(new SSEClientTransport(new URL(sseUrl)));
      expect((await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } })).content).toEqual([
        { type: "text", text: '{"city":"Seoul","temp":21,"condition":"clear"}' },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe.concurrent("serve's lifetime", () => {
  test("without --verbose, calls are not logged", async ({ expect }) => {
    const p = start(["serve", "examples/weather.mock.json"]);
    try {
      await p.waitFor("stdout", (s) => s.includes("stub-3:"));
      const url = /at (http:\/\/\S+\/mcp)\n/.exec(p.out.stdout)?.[1] ?? "";
      const client = new Client({ name: "cli-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } });
      await client.close();
      p.child.kill("SIGTERM");
      const r = await p.exited;
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
    } finally {
      p.kill();
    }
  });

  test.for(["SIGTERM", "SIGINT"] as const)("%s stops serve with exit 0 and frees the port", async (signal, { expect }) => {
    const p = start(["serve", "examples/weather.mock.json"]);
    try {
      // At once when the URL shows: a supervisor may stop the server as soon as it sees it.
      await p.waitFor("stdout", (s) => /\/mcp\n/.test(s));
      const port = Number(/127\.0\.0\.1:(\d+)\/mcp/.exec(p.out.stdout)?.[1]);
      p.child.kill(signal);
      const r = await p.exited;
      expect(r).toMatchObject({ code: 0, signal: null });
      // The port is free again.
      const server: Server = createServer();
      await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", () => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    } finally {
      p.kill();
    }
  });

  test("a port in use: exit 1 with a clear message", async ({ expect }) => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", () => resolve()));
    try {
      const port = (busy.address() as { port: number }).port;
      const r = await run("serve", "examples/weather.mock.json", "--port", String(port));
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use. Use port 0 (the default; --port 0 on the command line) to get a free port.`);
      expect(r.stderr).not.toContain("    at "); // a message, not a stack trace
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });

  test("--stateless serves without sessions", async ({ expect }) => {
    const p = start(["serve", "examples/weather.mock.json", "--stateless", "--no-admin"]);
    try {
      await p.waitFor("stdout", (s) => s.includes("stub-3:"));
      expect(p.out.stdout).not.toContain("admin API");
      const url = /at (http:\/\/\S+\/mcp)\n/.exec(p.out.stdout)?.[1] ?? "";
      const client = new Client({ name: "cli-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      expect(transport.sessionId).toBeUndefined();
      expect((await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } })).isError).toBeUndefined();
      await client.close();
      const admin = await fetch(url.replace(/\/mcp$/, "/__admin/stubs"));
      expect(admin.status).toBe(404);
      await admin.text();
    } finally {
      p.kill();
    }
  });
});
