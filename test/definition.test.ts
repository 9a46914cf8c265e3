/**
 * Definition files: every mistake is refused with a message that names the file, the JSON
 * path and the expected form (golden files in test/fixtures/definition-*.txt), the seeds'
 * format loads unchanged, and a definition gives the very stubs the equivalent DSL gives.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { McpMock, McpMockError, assertMockDefinition, type MockDefinition } from "../src/index.js";

/** The message `assertMockDefinition(value, "weather.mock.json")` throws (fails the test if it does not throw). */
function refusal(value: unknown): string {
  try {
    assertMockDefinition(value, "weather.mock.json");
  } catch (error) {
    expect(error).toBeInstanceOf(McpMockError);
    return (error as Error).message;
  }
  throw new Error(`assertMockDefinition accepted ${JSON.stringify(value)}`);
}

const weatherTool = {
  name: "get_weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
} as const;

describe("a malformed definition is refused with the file, the JSON path and the expected form", () => {
  test("a response for an undeclared tool lists the available tools", async () => {
    const message = refusal({
      tools: [weatherTool, { name: "get_forecast" }],
      responses: [{ tool: "get_wether", args: { city: "Seoul" }, result: { temp: 21 } }],
    });
    expect(message).toContain("responses[0].tool");
    expect(message).toContain("Available tools: get_weather, get_forecast");
    await expect(message).toMatchFileSnapshot("fixtures/definition-undeclared-tool.txt");
  });

  // Node fires a timer past 2^31 - 1 ms after 1 ms: such a delay answered at once.
  test("delays longer than a timer holds are each refused, all at once", () => {
    const message = refusal({
      tools: [weatherTool],
      responses: [
        { tool: "get_weather", result: "x", delay: 3e9 },
        { tool: "get_weather", result: "y", delay: { distribution: "uniform", min: 0, max: 3e9 } },
      ],
    });
    expect(message).toContain("2 problems, all listed here.\n- responses[0].delay: must be <= 2147483647, received 3000000000.\n- responses[1].delay.max: must be <= 2147483647, received 3000000000.");
  });

  test("a wrong type at a nested path names the whole path, the expected type and the value received", async () => {
    const message = refusal({
      tools: [weatherTool],
      responses: [{ tool: "get_weather", result: 1, then: [{ error: { code: "oops", message: "internal" } }] }],
    });
    expect(message).toContain("responses[0].then[0].error.code");
    await expect(message).toMatchFileSnapshot("fixtures/definition-wrong-type.txt");
  });

  test("an unknown field is named as a probable typo", async () => {
    const message = refusal({ tools: [weatherTool], responses: [{ tool: "get_weather", args: { city: "Seoul" }, reslt: { temp: 21 } }] });
    expect(message).toContain("responses[0].reslt");
    await expect(message).toMatchFileSnapshot("fixtures/definition-unknown-field.txt");
  });

  test("every problem of a file is reported at once, each with its path, and a field in the wrong place says where it belongs", async () => {
    const message = refusal({
      instructions: "Be brief",
      tools: [weatherTool],
      responses: [
        { tool: "get_weather", reslt: { temp: 21 } },
        { tool: "get_weather", args: { city: "Seoul" }, result: 1, tims: 2 },
        { tool: "get_weather", result: "{{args.ctiy}}" },
      ],
    } as never);
    await expect(message).toMatchFileSnapshot("fixtures/definition-every-problem.txt");
  });

  test("a missing required field is named with its parent's path", async () => {
    const message = refusal({ tools: [{ description: "Current weather for a city" }] });
    expect(message).toContain('tools[0]: "name" is required');
    await expect(message).toMatchFileSnapshot("fixtures/definition-missing-field.txt");
  });

  test("an invalid stream step names the step and shows the step forms", async () => {
    const message = refusal({
      tools: [weatherTool],
      responses: [{ tool: "get_weather", stream: [{ progress: 1, total: 2 }, { log: "loud", data: "working" }], result: "done" }],
    });
    expect(message).toContain("responses[0].stream[1].log");
    await expect(message).toMatchFileSnapshot("fixtures/definition-stream-step.txt");
  });

  test("an entry with no answer", async () => {
    const message = refusal({ tools: [weatherTool], responses: [{ tool: "get_weather", args: { city: "Seoul" } }] });
    expect(message).toContain("responses[0]: an entry needs an answer");
    await expect(message).toMatchFileSnapshot("fixtures/definition-no-answer.txt");
  });

  test("an entry with two answers", async () => {
    const message = refusal({
      tools: [weatherTool],
      responses: [{ tool: "get_weather", result: { temp: 21 }, error: { code: -32603, message: "internal" } }],
    });
    expect(message).toContain("responses[0]: give one answer");
    await expect(message).toMatchFileSnapshot("fixtures/definition-two-answers.txt");
  });

  test("a stream with a result is one answer, not two", () => {
    expect(() =>
      assertMockDefinition({ tools: [weatherTool], responses: [{ tool: "get_weather", stream: [{ progress: 1 }], result: "done" }] }, "weather.mock.json"),
    ).not.toThrow();
  });

  test("a placeholder with an unknown root names the roots that exist there", async () => {
    const message = refusal({ tools: [weatherTool], responses: [{ tool: "get_weather", result: { city: "{{arg.city}}", temp: 15 } }] });
    expect(message).toContain("responses[0].result.city");
    await expect(message).toMatchFileSnapshot("fixtures/definition-placeholder-root.txt");
  });

  test("a placeholder naming an argument the tool's inputSchema does not have is refused, with the closest name", async () => {
    const message = refusal({ tools: [weatherTool], responses: [{ tool: "get_weather", result: "It is sunny in {{args.ctiy}}" }] });
    expect(message).toContain("responses[0].result");
    await expect(message).toMatchFileSnapshot("fixtures/definition-placeholder-argument.txt");
  });

  test("a placeholder naming an argument the prompt does not declare, or a variable its URI template lacks", () => {
    const prompt = refusal({ prompts: [{ name: "greet", arguments: [{ name: "name" }], messages: "Hello, {{args.nmae}}" }] });
    expect(prompt).toContain('prompts[0].messages: the placeholder {{args.nmae}} names "nmae", which is not one of the arguments of prompt "greet" (name), so it would always be empty. Did you mean {{args.name}}?');
    const resource = refusal({ resources: [{ uriTemplate: "test://items/{id}{?view}", name: "item", text: "{{uri.ids}} {{uri.view}}" }] });
    expect(resource).toContain('resources[0].text: the placeholder {{uri.ids}} names "ids", which is not one of the variables of "test://items/{id}{?view}" (id, view), so it would always be empty. Did you mean {{uri.id}}?');
  });

  test("a tool whose inputSchema allows other arguments takes any {{args.name}}", () => {
    expect(() =>
      assertMockDefinition({
        tools: [{ name: "free", inputSchema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true } }],
        responses: [{ tool: "free", result: "{{args.b}}" }],
      }),
    ).not.toThrow();
  });

  test("a method entry has no {{args}} (only tools/call and prompts have arguments)", () => {
    const message = refusal({ responses: [{ method: "custom/thing", result: { echo: "{{args.id}}" } }] });
    expect(message).toContain("responses[0].result.echo");
    expect(message).toContain('"params"');
  });

  test("a resource with both uri and uriTemplate", async () => {
    const message = refusal({ resources: [{ uri: "test://items/1", uriTemplate: "test://items/{id}", name: "item" }] });
    expect(message).toContain("resources[0]");
    await expect(message).toMatchFileSnapshot("fixtures/definition-resource-uri-and-template.txt");
  });

  // Guards against Ajv's oneOf summary ("must match exactly one schema in oneOf" and the whole
  // entry): the message names the conflict and says to keep one of the two fields.
  test("the message for a resource with both uri and uriTemplate says to keep one", () => {
    const message = refusal({ resources: [{ uri: "test://items/1", uriTemplate: "test://items/{id}", name: "item" }] });
    expect(message).not.toContain("oneOf");
    expect(message).toContain('weather.mock.json: resources[0]: give "uri" (a fixed resource) or "uriTemplate" (a template), not both.');
  });

  // Guards against naming only one branch of the oneOf ('"uri" is required here.'), although
  // "uriTemplate" would do as well: both are named.
  test("the message for a resource with neither uri nor uriTemplate names both", () => {
    const [first] = refusal({ resources: [{ name: "item", text: "hello" }] }).split("\n");
    expect(first).toContain('weather.mock.json: resources[0]: "uri" (a fixed resource) or "uriTemplate" (a template like "test://items/{id}") is required here.');
  });

  // Guards the same plain sentences for a response entry, whose "tool" and "method" are the two
  // branches of a oneOf as well.
  test('a response with both "tool" and "method", or neither, says which one to give', () => {
    const both = refusal({ tools: [weatherTool], responses: [{ tool: "get_weather", method: "custom/thing", result: 1 }] });
    expect(both).not.toContain("oneOf");
    expect(both).toContain('weather.mock.json: responses[0]: give "tool" (a tools/call answer), "prompt" (a prompts/get answer) or "method" (any method), not "tool" and "method".');
    const neither = refusal({ tools: [weatherTool], responses: [{ result: 1 }] });
    expect(neither).toContain('weather.mock.json: responses[0]: "tool" (a tools/call answer), "prompt" (a prompts/get answer) or "method" (any method) is required here.');
  });

  test("a resource with neither uri nor uriTemplate", async () => {
    const message = refusal({ resources: [{ name: "item", text: "hello" }] });
    expect(message).toContain("resources[0]");
    await expect(message).toMatchFileSnapshot("fixtures/definition-resource-no-uri.txt");
  });

  test("a tool's inputSchema must be an object schema", async () => {
    const message = refusal({ tools: [{ name: "get_weather", inputSchema: { type: "array", items: { type: "string" } } }] });
    expect(message).toContain("tools[0].inputSchema.type");
    await expect(message).toMatchFileSnapshot("fixtures/definition-input-schema-array.txt");
  });

  test("a root that is not an object", async () => {
    const message = refusal([{ tool: "get_weather", result: { temp: 21 } }]);
    expect(message).toContain("the root must be an object, received array");
    await expect(message).toMatchFileSnapshot("fixtures/definition-root-not-object.txt");
    expect(refusal(null)).toContain("received null");
    expect(refusal("tools")).toContain("received string");
  });

  // Guards against a hint built from an empty list of roots ('Placeholders here start with , like
  // {{undefined.name}}.'): a fixed-URI resource has no placeholders, and the message says that
  // only a templated resource fills {{uri.*}}.
  test("a placeholder in a fixed-URI resource's text says that only templates have {{uri.*}}", () => {
    const message = refusal({ resources: [{ uri: "test://items/1", name: "item", text: "item {{uri.id}}" }] });
    expect(message).not.toContain("undefined");
    expect(message).toContain(
      'weather.mock.json: resources[0].text: placeholders are not available here ({{uri.id}}). Only a templated resource ({ "uriTemplate": ... }) fills {{uri.name}} in its text.',
    );
  });

  // Guards the items of "then": checked like a top-level entry, so a typo or an empty item does
  // not load an answer `undefined`, and { "result": 2, "status": 500 } does not silently answer
  // HTTP 500.
  test("a typo or a missing answer inside then is refused", () => {
    expect(refusal({ tools: [weatherTool], responses: [{ tool: "get_weather", result: 1, then: [{ reslt: 2 }] }] })).toContain(
      'responses[0].then[0].reslt: "reslt" is not a field here (a typo?).',
    );
    expect(refusal({ tools: [weatherTool], responses: [{ tool: "get_weather", result: 1, then: [{}] }] })).toContain(
      "responses[0].then[0]: an entry needs an answer: result, error, stream, status, fault or proxy.",
    );
    expect(refusal({ tools: [weatherTool], responses: [{ tool: "get_weather", result: 1, then: [{ result: 2, status: 500 }] }] })).toContain(
      "responses[0].then[0]: give one answer:",
    );
  });

  // Guards against a prompt response that answers `messages undefined`: it needs "messages" or "error".
  test("a prompt response with no messages and no error is refused", () => {
    expect(refusal({ prompts: [{ name: "greet", responses: [{ args: { name: "Ada" } }] }] })).toContain(
      'weather.mock.json: prompts[0].responses[0]: an entry needs "messages" (a string or prompt messages) or "error".',
    );
  });

  // Guards that validate and serve agree: assertMockDefinition (so `mcpmock validate`) refuses what
  // McpMock.start refuses in the declarations (an inputSchema that is not valid JSON Schema, a
  // tool declared twice), naming the file and the tool's place.
  test("validate refuses a definition that fromDefinition cannot start", async () => {
    const broken = { tools: [{ name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "strin" } } } }] };
    const message = refusal(broken);
    expect(message).toContain("weather.mock.json: tools[0]");
    expect(message).toContain("inputSchema is not a valid JSON Schema");
    await expect(McpMock.fromDefinition(broken as MockDefinition)).rejects.toThrow(/^\[mcpmock\] Invalid mock definition — definition: tools\[0\]/);
    expect(refusal({ tools: [weatherTool, weatherTool] })).toContain('weather.mock.json: tools[1].name: tool "get_weather" is declared twice.');
  });
});

// Guards the one-pass check against shapes it reads before the schema's verdict: a list that
// is not one, a null or a number where an entry belongs. Each is reported (all at once), none throws.
describe("a malformed shape is reported, never thrown as a TypeError", () => {
  const shapes: Array<[string, unknown, string[]]> = [
    ["tools not a list", { tools: "x", responses: [{ tool: "a", result: 1 }] }, ["tools: must be array"]],
    ["a null tool", { tools: [null], responses: [{ tool: "a", result: 1 }] }, ["tools[0]: must be object"]],
    ["prompts not a list", { prompts: "x", responses: [{ prompt: "a", result: {} }] }, ["prompts: must be array"]],
    ["a number for a tool and a null response", { tools: [3, { name: "a" }], responses: [null, { tool: "a", result: 1 }] }, ["tools[0]: must be object", "responses[0]: must be object"]],
    ["responses not a list", { tools: [{ name: "a" }], responses: { tool: "a", result: 1 } }, ["responses: must be array"]],
    ["a null prompt and a number prompt response", { prompts: [null, { name: "p", responses: [7] }], responses: [{ prompt: "p", result: {} }] }, ["prompts[0]: must be object", "prompts[1].responses[0]: must be object"]],
    ["a tool whose inputSchema is a number", { tools: [{ name: "a", inputSchema: 5 }], responses: [{ tool: "a", args: { x: 1 }, result: "{{args.x}}" }] }, ["tools[0].inputSchema"]],
    ["a null resource and a string server", { server: "s", resources: [null], responses: [{ method: "x/y", result: {} }] }, ["resources[0]: must be object", "server: must be object"]],
  ];
  for (const [name, value, expected] of shapes) {
    test(name, () => {
      const message = refusal(value);
      for (const part of expected) expect(message).toContain(part);
    });
  }
});

// Guards that a top-level "proxy" section is checked as the proxy option is, before anything
// starts: no mock spawns the command "" for a section that names neither target nor command.
describe("a definition's proxy section is checked", () => {
  test.each([
    [{}, "not both and not neither"],
    [{ target: "ftp://example.test/mcp" }, "proxy.target must be an http(s) URL"],
    [{ target: "http://127.0.0.1:1/mcp", command: "node" }, "not both and not neither"],
    [{ command: "" }, "proxy.command must be a command to run"],
  ])("%j is refused with the fix", async (proxy, expected) => {
    const message = refusal({ proxy, responses: [{ tool: "echo", proxy: true }] });
    expect(message).toContain(`weather.mock.json: proxy: `);
    expect(message).toContain(expected);
    expect(message).toContain('Expected like: { "target": "http://127.0.0.1:3001/mcp" } or { "command": "node", "args": ["server.js", "stdio"] }');
    await expect(McpMock.fromDefinition({ proxy } as MockDefinition)).rejects.toThrow(/Invalid mock definition — definition: proxy: /);
  });
});

describe("definition files on disk", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-definition-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("bad JSON names the file and where the JSON broke", async () => {
    const file = join(dir, "weather.mock.json");
    writeFileSync(file, '{\n  "tools": [ { "name": "get_weather" }, ]\n}\n');
    const error = await McpMock.fromDefinition(file).then(
      (mock) => mock.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpMockError);
    const message = (error as Error).message;
    expect(message).toContain("weather.mock.json: not valid JSON");
    expect(message).not.toContain(dir); // the file's name, not the temp directory
    await expect(message).toMatchFileSnapshot("fixtures/definition-bad-json.txt");
  });

  // Guards the position: when V8 gives one ("at position 18"), the message names the line and
  // column of the mistake, and V8's reason stays on one line. (For a trailing comma Node 20's V8
  // gives no position; the scan of json-text.ts finds it, and the golden above shows it.)
  test("bad JSON names the line and column of the mistake", async () => {
    const file = join(dir, "missing-comma.mock.json"); // no comma after "tools": []
    writeFileSync(file, '{\n  "tools": []\n  "responses": []\n}\n');
    const error = await McpMock.fromDefinition(file).then(
      (mock) => mock.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpMockError);
    const message = (error as Error).message;
    expect(message).toMatch(/^\[mcpmock\] Invalid mock definition — missing-comma\.mock\.json: not valid JSON at line 3, column 3 \(/);
    expect(message).not.toContain("\n");
  });

  // Before, V8's "Unexpected token" (a comment, a trailing comma) came with no position: in a
  // long file the user had to hunt for it.
  test("a comment names its line and column, though V8 gives no position", async () => {
    const file = join(dir, "comment.mock.json");
    writeFileSync(file, '{\n  "tools": [\n    // none yet\n  ]\n}\n');
    await expect(McpMock.fromDefinition(file)).rejects.toThrow(/^\[mcpmock\] Invalid mock definition — comment\.mock\.json: not valid JSON at line 3, column 5 \(Unexpected token '\/'/);
  });

  // Before, JSON.parse kept the last of two keys without a word: a second "responses" list (two
  // files pasted together) silently dropped the first list's stubs, and a repeated argument
  // matched only its last value.
  test("a key given twice in one object is refused, every one listed with both places", async () => {
    const file = join(dir, "twice.mock.json");
    writeFileSync(
      file,
      '{\n  "tools": [{ "name": "get_weather" }],\n  "responses": [{ "tool": "get_weather", "result": 1 }],\n' +
        '  "responses": [{ "tool": "get_weather", "args": { "city": "Paris", "city": "Oslo" }, "result": 2 }]\n}\n',
    );
    await expect(McpMock.fromDefinition(file)).rejects.toThrow(
      "[mcpmock] Invalid mock definition — twice.mock.json: 2 keys are given twice, all listed here.\n" +
        "- responses is given twice in one object, at line 4, column 3 and first at line 3, column 3\n" +
        "- responses[0].args.city is given twice in one object, at line 4, column 69 and first at line 4, column 52\n" +
        "→ JSON keeps only the last, so the first would be ignored: merge the two (one list of all the entries, say) or remove one.",
    );
  });

  // A byte-order mark is stripped before parsing, and positions count in the stripped text.
  test("bad JSON after a byte-order mark names the same line and column", async () => {
    const file = join(dir, "bom-missing-comma.mock.json");
    writeFileSync(file, '\uFEFF{\n  "tools": []\n  "responses": []\n}\n');
    await expect(McpMock.fromDefinition(file)).rejects.toThrow(/not valid JSON at line 3, column 3 \(/);
  });

  test("a missing file names the path and where relative paths start", async () => {
    const file = join(dir, "nope.mock.json");
    const error = await McpMock.fromDefinition(file).then(
      (mock) => mock.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpMockError);
    const message = (error as Error).message.replaceAll(dir, "<tmp>").replaceAll(process.cwd(), "<cwd>");
    expect(message).toContain("<tmp>/nope.mock.json");
    await expect(message).toMatchFileSnapshot("fixtures/definition-missing-file.txt");
  });

  test("a file that is valid JSON but not a definition names the file (not the directory)", async () => {
    const file = join(dir, "typo.mock.json");
    writeFileSync(file, JSON.stringify({ tools: [weatherTool], respones: [] }));
    await expect(McpMock.fromDefinition(file)).rejects.toThrow(/^\[mcpmock\] Invalid mock definition — typo\.mock\.json: respones: /);
  });

  test("a byte-order mark is accepted", async () => {
    const file = join(dir, "bom.mock.json");
    writeFileSync(file, `\uFEFF${JSON.stringify({ tools: [weatherTool] })}`);
    await using mock = await McpMock.fromDefinition(file);
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });
});

describe("the seeds' format loads unchanged", () => {
  const seed = {
    tools: [weatherTool],
    responses: [
      { tool: "get_weather", args: { city: "Seoul" }, result: { temp: 21 } },
      { tool: "get_weather", args: { city: "Atlantis" }, result: "No such city", isError: true },
      { tool: "get_weather", result: { temp: 15 } },
    ],
  };

  test("tools, responses with tool, args (omitted = ANY), result and isError", async () => {
    expect(() => assertMockDefinition(seed, "seed.json")).not.toThrow();
    await using fromFile = await McpMock.fromDefinition(seed);
    await using fromCode = await McpMock.start({ tools: [weatherTool] });
    fromCode.toolsCall("get_weather").withArgs({ city: "Seoul" }).respondsWith({ temp: 21 });
    fromCode.toolsCall("get_weather").withArgs({ city: "Atlantis" }).respondsWith("No such city", { isError: true });
    fromCode.toolsCall("get_weather").respondsWith({ temp: 15 }); // no withArgs: any arguments, like withArgs(ANY)
    expect(fromFile.explain()).toEqual(fromCode.explain());
    expect(fromFile.explain().filter((s) => s.startsWith("stub-"))).toEqual([
      'stub-1: tools/call "get_weather" with arguments equal to {"city":"Seoul"} → {"temp":21} (seen 0)',
      'stub-2: tools/call "get_weather" with arguments equal to {"city":"Atlantis"} → an error result text "No such city" (seen 0)',
      'stub-3: tools/call "get_weather" → {"temp":15} (seen 0)',
    ]);
  });

  test("examples/weather.mock.json is valid and loads its three stubs", async () => {
    await using mock = await McpMock.fromDefinition("examples/weather.mock.json");
    expect(mock.stubs().filter((s) => s.source !== "default").map((s) => s.source)).toEqual([
      "weather.mock.json responses[0]",
      "weather.mock.json responses[1]",
      "weather.mock.json responses[2]",
    ]);
  });

  test("a definition object does not change when loaded", async () => {
    const copy = structuredClone(seed);
    await using mock = await McpMock.fromDefinition(copy);
    expect(copy).toEqual(seed);
    expect(mock.stubs().filter((s) => s.source !== "default")).toHaveLength(seed.responses.length);
  });

  test("options given in code win over the file's options", async () => {
    await using mock = await McpMock.fromDefinition({ ...seed, options: { sessions: "stateless", pageSize: 5 } }, { sessions: "stateful" });
    const init = await fetch(mock.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    expect(init.headers.get("mcp-session-id")).toBe("session-1");
    await init.text();
  });
});

describe("a definition and the equivalent DSL give the same stubs", () => {
  const tools = [
    { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } },
    { name: "slow", inputSchema: { type: "object" } },
  ] as const;
  const prompts = [{ name: "greet", arguments: [{ name: "name", required: true }] }];
  const resources = [{ uri: "test://hello", name: "hello", text: "Hello, world" }];

  const definition: MockDefinition = {
    tools: [...tools],
    resources,
    prompts: [
      {
        ...prompts[0]!,
        responses: [
          { args: { name: "Ada" }, messages: "Hello, Ada" },
          { args: { name: "Bob" }, messages: [{ role: "assistant", content: { type: "text", text: "Hi Bob" } }], description: "for Bob" },
          { args: { name: "Eve" }, error: { code: -32602, message: "no Eve" } },
          { messages: "Hello, someone", priority: -1 },
        ],
      },
    ],
    responses: [
      { tool: "add", args: { a: 1, b: 2 }, result: { sum: 3 } },
      { tool: "add", result: { sum: 0 } },
      { tool: "add", args: { a: 0, b: 0 }, result: "zero is not allowed", isError: true },
      { tool: "add", args: { a: 9, b: 9 }, error: { code: -32603, message: "internal", data: { why: "test" } } },
      { tool: "add", args: { a: 5, b: 5 }, status: 503, body: "down" },
      { tool: "add", args: { a: 6, b: 6 }, fault: { kind: "connection-reset" } },
      { tool: "add", argsMatching: { a: 7 }, result: 7, delay: 50, times: 2, priority: 5, optional: true },
      { tool: "add", args: { a: 3, b: 3 }, delay: { distribution: "uniform", min: 10, max: 20 }, result: 6 },
      {
        tool: "add",
        args: { a: 8, b: 8 },
        result: "first",
        then: [{ result: "second" }, { result: "third", isError: true }],
        scenario: { name: "checkout", whenState: "Started", setState: "Paid" },
      },
      {
        tool: "slow",
        stream: [
          { progress: 1, total: 2, message: "half way" },
          { log: "info", data: "working" },
          { delay: 10 },
          { notify: "notifications/resources/updated", params: { uri: "test://hello" } },
          { request: "roots/list" },
          { send: { jsonrpc: "2.0", method: "notifications/custom" } },
          { progress: 2, total: 2 },
        ],
        result: { done: true },
        dropAfter: 3,
      },
      { tool: "slow", args: { fail: true }, stream: [{ progress: 1 }], error: { code: -32000, message: "gave up" } },
      { tool: "slow", args: { drop: true }, fault: { kind: "drop-stream-after", after: 2 } },
      { method: "custom/thing", params: { id: 7 }, result: { ok: true } },
      { method: "custom/thing", paramsMatching: { id: 8 }, headers: { authorization: "Bearer x" }, protocolVersion: "2025-06-18", bodyContains: "needle", result: { ok: 8 } },
      { method: "initialize", result: { instructions: "Be brief" } },
    ],
    completions: [
      { ref: { type: "ref/prompt", name: "greet" }, argument: "name", values: ["Ada", "Alan"] },
      { ref: { type: "ref/resource", uri: "test://hello" }, values: ["x"] },
    ],
    openStream: [{ delay: 100 }, { notify: "notifications/tools/list_changed" }],
  };

  async function fromDsl(): Promise<McpMock> {
    const mock = await McpMock.start({ tools, resources, prompts });
    const add = mock.toolsCall("add");
    add.withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    add.respondsWith({ sum: 0 });
    add.withArgs({ a: 0, b: 0 }).respondsWith("zero is not allowed", { isError: true });
    add.withArgs({ a: 9, b: 9 }).respondsWithError(-32603, "internal", { why: "test" });
    add.withArgs({ a: 5, b: 5 }).respondsWithStatus(503, "down");
    add.withArgs({ a: 6, b: 6 }).fails("connection-reset");
    add.withArgsMatching({ a: 7 }).withDelay(50).times(2).priority(5).optional().respondsWith(7);
    add.withArgs({ a: 3, b: 3 }).withDelay({ distribution: "uniform", min: 10, max: 20 }).respondsWith(6);
    add
      .withArgs({ a: 8, b: 8 })
      .inScenario("checkout")
      .whenState("Started")
      .willSetState("Paid")
      .respondsWith("first")
      .andThen("second")
      .andThen("third", { isError: true });
    mock.toolsCall("slow").streams(
      (s) =>
        s
          .progress(1, 2, "half way")
          .log("info", "working")
          .delay(10)
          .notify("notifications/resources/updated", { uri: "test://hello" })
          .request("roots/list")
          .send({ jsonrpc: "2.0", method: "notifications/custom" })
          .progress(2, 2)
          .result({ done: true }),
      { dropAfter: 3 },
    );
    mock.toolsCall("slow").withArgs({ fail: true }).streams((s) => s.progress(1).error(-32000, "gave up"));
    mock.toolsCall("slow").withArgs({ drop: true }).fails("drop-stream-after", 2);
    mock.method("custom/thing").withParams({ id: 7 }).respondsWith({ ok: true });
    mock
      .method("custom/thing")
      .withParamsMatching({ id: 8 })
      .withHeader("authorization", "Bearer x")
      .withProtocolVersion("2025-06-18")
      .withBodyContaining("needle")
      .respondsWith({ ok: 8 });
    mock.initialize().respondsWith({ instructions: "Be brief" });
    const greet = mock.promptsGet("greet");
    greet.withArgs({ name: "Ada" }).respondsWith("Hello, Ada");
    greet.withArgs({ name: "Bob" }).respondsWith([{ role: "assistant", content: { type: "text", text: "Hi Bob" } }], { description: "for Bob" });
    greet.withArgs({ name: "Eve" }).respondsWithError(-32602, "no Eve");
    greet.priority(-1).respondsWith("Hello, someone");
    mock.completionComplete().forPrompt("greet").withArgument("name").respondsWith(["Ada", "Alan"]);
    mock.completionComplete().forResource("test://hello").respondsWith(["x"]);
    mock.openStream().sends((s) => s.delay(100).notify("notifications/tools/list_changed"));
    return mock;
  }

  const withoutIds = (sentences: string[]): string[] => sentences.map((s) => s.replace(/^[^:]+: /, ""));

  test("the same explain() sentences, ids aside", async () => {
    await using fromFile = await McpMock.fromDefinition(definition);
    await using fromCode = await fromDsl();
    const file = withoutIds(fromFile.explain());
    expect(file).toEqual(withoutIds(fromCode.explain()));
    // Every entry became a stub (the rest are the built-in answers).
    expect(fromFile.stubs().filter((s) => s.source !== "default")).toHaveLength(4 + 15 + 2 + 1);
  });

  test("the stubs name their place in the file", async () => {
    await using mock = await McpMock.fromDefinition(definition);
    const sources = mock.stubs().filter((s) => s.source !== "default").map((s) => s.source);
    expect(sources).toEqual(
      expect.arrayContaining(["definition responses[0]", "definition responses[14]", "definition prompts[0].responses[3]", "definition completions[1]", "definition openStream"]),
    );
  });
});
