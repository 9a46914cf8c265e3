/**
 * The method descriptors (src/protocol/methods/) agree with everything they stand for: one
 * file per method and every file in the list; entry points that exist on McpMock and start
 * a chain for their method; pattern functions exported where the descriptor says; result
 * schemas the SDK has; key params McpCall.key reads; client capabilities the mock checks;
 * capabilities advertised as before; and every built-in answer valid at every revision its
 * method exists in.
 */
import { readdirSync } from "node:fs";
import * as sdk from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import * as mcpmock from "../src/index.js";
import { McpMock, SUPPORTED_PROTOCOL_VERSIONS } from "../src/index.js";
import { McpCall } from "../src/stubs/call.js";
import { METHOD_BY_NAME, METHODS, type MethodDescriptor } from "../src/protocol/methods/index.js";
import { BUILT_IN_METHODS } from "../src/engine/built-ins/index.js";
import { CAPABILITY_RULES } from "../src/protocol/methods/capabilities.js";
import { MetaKeys, SESSION_PROTOCOL_VERSIONS, STATELESS_PROTOCOL_VERSIONS } from "../src/protocol/revisions.js";
import { specTypeSchemas } from "@modelcontextprotocol/client";
import { assertClientCapability } from "../src/engine/stream-player.js";
import type { Session } from "../src/engine/session-store.js";
import { HEADERS } from "./support/raw-http.js";

type SafeParse = { safeParse(value: unknown): { success: boolean } };
const schemas = sdk as unknown as Record<string, SafeParse | undefined>;
const KNOWN_REVISIONS = [...SUPPORTED_PROTOCOL_VERSIONS];

/** A result schema by name: the v1 SDK's, else (for 2026-07-28 methods) the v2 client's spec type. */
function resultSchemaOf(name: string): SafeParse | undefined {
  const v1 = schemas[name];
  if (v1) return v1;
  const v2 = (specTypeSchemas as unknown as Record<string, { "~standard": { validate(v: unknown): { issues?: unknown } } } | undefined>)[name.replace(/Schema$/, "")];
  return v2 && { safeParse: (value) => ({ success: !v2["~standard"].validate(value).issues }) };
}

/** The method names of one of the SDK's unions (`ClientRequestSchema`, ...). */
function sdkMethods(union: string): Set<string> {
  const options = (schemas[union] as unknown as { options: Array<{ shape: { method: { value: string } } }> }).options;
  return new Set(options.map((o) => o.shape.method.value));
}

/** The file a descriptor lives in: `tools/call` → tools-call.ts; an HTTP exchange by its entry point. */
function fileOf(d: MethodDescriptor): string {
  const name = d.direction === "http" ? (d.entryPoint as string) : d.method.replace(/\//g, "-");
  return `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`;
}

describe("the list", () => {
  test("one descriptor per method, one file per descriptor, and every descriptor file in the list", async () => {
    expect(new Set(METHODS.map((d) => d.method)).size).toBe(METHODS.length);
    const helpers = new Set(["index.ts", "descriptor.ts", "capabilities.ts", "paged-list.ts"]);
    const files = readdirSync(new URL("../src/protocol/methods/", import.meta.url)).filter((f) => !helpers.has(f));
    expect(files.sort()).toEqual(METHODS.map(fileOf).sort());
    for (const file of files) {
      const exported = Object.values((await import(/* @vite-ignore */ new URL(`../src/protocol/methods/${file}`, import.meta.url).href)) as Record<string, unknown>).filter((v) => METHODS.includes(v as MethodDescriptor));
      expect(exported, file).toHaveLength(1);
      expect(fileOf(exported[0] as MethodDescriptor)).toBe(file);
    }
  });

  test("every descriptor goes the way the SDK says, in known revisions only", () => {
    const ways: Record<string, Set<string>> = {
      "client-request": sdkMethods("ClientRequestSchema"),
      "server-request": sdkMethods("ServerRequestSchema"),
      notification: new Set([...sdkMethods("ClientNotificationSchema"), ...sdkMethods("ServerNotificationSchema")]),
    };
    for (const d of METHODS) {
      expect(d.revisions.length, d.method).toBeGreaterThan(0);
      for (const v of d.revisions) expect(KNOWN_REVISIONS, d.method).toContain(v);
      if (d.direction === "http") continue;
      // A method the SDK does not know yet exists only in revisions newer than the SDK's (an extension's may be in any).
      if (!ways[d.direction]?.has(d.method) && d.extension === undefined) expect(d.revisions.some((v) => SESSION_PROTOCOL_VERSIONS.includes(v)), d.method).toBe(false);
    }
  });
});

describe("entry points and patterns", () => {
  test("every entry point is a method of McpMock that starts a chain for its method", async () => {
    await using mock = await McpMock.start({ transport: "none" });
    const methods = mock as unknown as Record<string, () => { pattern: { method: string; key?: string } }>;
    for (const d of METHODS.filter((m) => m.entryPoint !== undefined)) {
      const name = d.entryPoint as string;
      expect(typeof methods[name], name).toBe("function");
      const pattern = methods[name]?.call(mock).pattern;
      expect(pattern?.method, name).toBe(d.method);
      expect(pattern?.key, name).toBeUndefined();
    }
  });

  test("a pattern function is exported exactly where the descriptor says, and starts a pattern for its method", () => {
    const exports = mcpmock as unknown as Record<string, unknown>;
    const entryPoints = new Set(METHODS.map((d) => d.entryPoint).filter((e) => e !== undefined));
    const exportedPatterns = Object.keys(exports).filter((name) => entryPoints.has(name)).sort();
    expect(exportedPatterns).toEqual(METHODS.filter((d) => d.pattern).map((d) => d.entryPoint).sort());
    for (const d of METHODS.filter((m) => m.pattern)) {
      const start = exports[d.entryPoint as string] as () => { pattern: { method: string } };
      expect(start().pattern.method, d.entryPoint).toBe(d.method);
    }
  });

  test("only the methods with an entry point have a pattern function", () => {
    for (const d of METHODS) if (d.pattern) expect(d.entryPoint, d.method).toBeDefined();
  });
});

describe("what a descriptor says of its calls", () => {
  const call = (method: string, params: Record<string, unknown>): McpCall =>
    new McpCall({ method, params, id: 1, sessionId: undefined, headers: {}, protocolVersion: "2025-11-25", body: "", transport: "http" });

  test("McpCall.key reads the descriptor's key param, and nothing for a method without one", () => {
    for (const d of METHODS) {
      const all = call(d.method, { name: "by-name", uri: "by-uri", taskId: "by-task-id" });
      expect(all.key, d.method).toBe(d.key === undefined ? undefined : { name: "by-name", uri: "by-uri", taskId: "by-task-id" }[d.key.param]);
      if (d.key) expect(call(d.method, { [d.key.param]: 7 }).key, d.method).toBeUndefined();
    }
    expect(call("custom/thing", { name: "x" }).key).toBeUndefined();
    expect(call("constructor", { name: "x" }).key).toBeUndefined();
  });

  test("every result schema is an SDK schema, and every request the SDK knows has one", () => {
    const known = new Set([...sdkMethods("ClientRequestSchema"), ...sdkMethods("ServerRequestSchema")]);
    for (const d of METHODS) {
      if (d.resultSchema !== undefined) expect(typeof resultSchemaOf(d.resultSchema)?.safeParse, `${d.method}: ${d.resultSchema}`).toBe("function");
      if (known.has(d.method)) expect(d.resultSchema, d.method).toBeDefined();
      if (d.direction === "notification" || d.direction === "http") expect(d.resultSchema, d.method).toBeUndefined();
    }
  });

  test("server-to-client requests name the client capability they need, and the mock checks it", () => {
    for (const d of METHODS) {
      expect(d.clientCapability !== undefined, d.method).toBe(d.direction === "server-request");
      if (d.clientCapability === undefined) continue;
      const without = { id: "session-1", clientCapabilities: {} } as unknown as Session;
      const withIt = { id: "session-1", clientCapabilities: { [d.clientCapability]: {} } } as unknown as Session;
      expect(() => assertClientCapability(d.method, without, "test"), d.method).toThrow(`did not declare the "${d.clientCapability}" capability`);
      expect(() => assertClientCapability(d.method, withIt, "test"), d.method).not.toThrow();
    }
  });

  test("a capability named by several methods has one value", () => {
    for (const d of METHODS) {
      if (!d.advertises) continue;
      const rule = CAPABILITY_RULES.find((r) => r.capability === d.advertises?.capability);
      expect(rule?.value, d.method).toEqual(d.advertises.value);
    }
  });
});

describe("advertised capabilities, as before the descriptors", () => {
  async function capabilitiesOf(mock: McpMock): Promise<Record<string, unknown>> {
    const res = await fetch(mock.url, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    return ((await res.json()) as { result: { capabilities: Record<string, unknown> } }).result.capabilities;
  }

  test("everything declared: logging, tools, resources, prompts, completions, in that order", async () => {
    await using mock = await McpMock.start({
      tools: [{ name: "t", inputSchema: { type: "object" } }],
      resources: [{ uri: "test://a", name: "a", text: "A" }],
      prompts: [{ name: "p" }],
    });
    const caps = await capabilitiesOf(mock);
    expect(JSON.stringify(caps)).toBe('{"logging":{},"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{"listChanged":true},"completions":{}}');
  });

  test("a tool that may run as a task adds the tasks capability (list, cancel, task-augmented tools/call)", async () => {
    await using mock = await McpMock.start({ tools: [{ name: "t", execution: { taskSupport: "required" } }] });
    const caps = await capabilitiesOf(mock);
    expect(JSON.stringify(caps)).toBe('{"logging":{},"tools":{"listChanged":true},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}}');
    await using forbidden = await McpMock.start({ tools: [{ name: "t", execution: { taskSupport: "forbidden" } }] });
    expect(Object.keys(await capabilitiesOf(forbidden))).toEqual(["logging", "tools"]);
  });

  test("nothing declared: logging only; a user stub of a method adds its capability", async () => {
    await using mock = await McpMock.start({ onUnmatched: "silent" });
    expect(await capabilitiesOf(mock)).toEqual({ logging: {} });
    mock.toolsList().respondsWith({ tools: [] });
    mock.resourcesTemplatesList().respondsWith({ resourceTemplates: [] });
    expect(Object.keys(await capabilitiesOf(mock))).toEqual(["logging"]);
    mock.completionComplete().respondsWith([]);
    mock.resourcesList().respondsWith({ resources: [] });
    expect(Object.keys(await capabilitiesOf(mock))).toEqual(["logging", "resources", "completions"]);
    mock.promptsList().respondsWith({ prompts: [] });
    mock.toolsCall().respondsWith("x");
    expect(Object.keys(await capabilitiesOf(mock))).toEqual(["logging", "tools", "resources", "prompts", "completions"]);
  });
});

describe("built-in answers", () => {
  test("one lowest-priority stub per descriptor with a built-in answer, in list order", async () => {
    await using mock = await McpMock.start({ transport: "none" });
    const defaults = mock.stubs().filter((s) => s.source === "default");
    expect(defaults.map((s) => s.id)).toEqual(BUILT_IN_METHODS.map((d) => `default:${d.method}`));
  });

  /** Params a built-in answer needs to answer at all (the others get `{}`). */
  const PARAMS: Record<string, Record<string, unknown>> = {
    "logging/setLevel": { level: "info" },
    "resources/subscribe": { uri: "test://a" },
    "resources/unsubscribe": { uri: "test://a" },
    "completion/complete": { ref: { type: "ref/prompt", name: "p" }, argument: { name: "x", value: "" } },
    // task-1 has finished, task-2 runs on (see below): each task method answers for one of them.
    "tasks/get": { taskId: "task-1" },
    "tasks/result": { taskId: "task-1" },
    "tasks/cancel": { taskId: "task-2" },
    "tasks/update": { taskId: "task-2", inputResponses: {} },
    "skills/get": { uri: "skill://s/SKILL.md" },
    "resources/directory/read": { uri: "skill://s" },
  };

  /** The field each extension method's result carries (no SDK has their schemas; test/extensions/ checks them whole). */
  const EXTENSION_FIELDS: Record<string, string> = { "skills/list": "skills", "skills/get": "skill", "resources/directory/read": "resources" };

  async function rpc(url: string, method: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<{ result?: unknown; error?: { code: number } }> {
    const res = await fetch(url, { method: "POST", headers: { ...HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    return (await res.json()) as { result?: unknown; error?: { code: number } };
  }

  const answered = BUILT_IN_METHODS.filter((d) => d.direction === "client-request");

  describe.each(KNOWN_REVISIONS)("at %s", (version) => {
    test("every built-in answer of a method in this revision parses with its SDK result schema", async () => {
      const here = answered.filter((d) => d.revisions.includes(version));
      if (here.length === 0) return;
      await using mock = await McpMock.start({
        onUnmatched: "silent",
        tools: [{ name: "t", inputSchema: { type: "object" }, outputSchema: { type: "object" } }, { name: "job", execution: { taskSupport: "optional" } }],
        resources: [{ uri: "test://a", name: "a", text: "A" }, { uriTemplate: "test://t/{id}", name: "t" }],
        prompts: [{ name: "p", arguments: [{ name: "x" }] }],
        skills: [{ name: "s", description: "A skill", content: "Do it." }],
      });
      // A session-era revision is asked in a session; the stateless one with each request's envelope.
      const stateless = STATELESS_PROTOCOL_VERSIONS.includes(version);
      const init = stateless ? undefined : await rpc(mock.url, "initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } }, {});
      if (here.some((d) => d.method.startsWith("tasks/"))) {
        mock.toolsCall("job").withArgs({ slow: true }).withDelay(60_000).respondsWith("late");
        mock.toolsCall("job").respondsWith("done");
        const taskHeaders = { "mcp-session-id": "session-1", "mcp-protocol-version": version };
        // 2026-07-28: the tasks extension, opted into in the envelope; the task comes back flat.
        const optIn = { _meta: { [MetaKeys.protocolVersion]: version, [MetaKeys.clientCapabilities]: { extensions: { "io.modelcontextprotocol/tasks": {} } } } };
        const modernHeaders = { "mcp-protocol-version": version, "mcp-method": "tools/call", "mcp-name": "job" };
        for (const args of [{}, { slow: true }]) {
          const created = stateless
            ? await rpc(mock.url, "tools/call", { name: "job", arguments: args, ...optIn }, modernHeaders)
            : await rpc(mock.url, "tools/call", { name: "job", arguments: args, task: {} }, taskHeaders);
          expect(created.result).toMatchObject(stateless ? { resultType: "task", status: "working" } : { task: { status: "working" } });
        }
      }
      for (const d of here) {
        const params = PARAMS[d.method] ?? {};
        const taskId = params["taskId"];
        const headers: Record<string, string> = stateless
          ? { "mcp-protocol-version": version, "mcp-method": d.method, ...(typeof taskId === "string" ? { "mcp-name": taskId } : {}) }
          : { "mcp-session-id": "session-1", "mcp-protocol-version": version };
        // 2026-07-28: the task methods belong to the tasks extension, which the request declares.
        const caps = stateless && d.method.startsWith("tasks/") ? { extensions: { "io.modelcontextprotocol/tasks": {} } } : {};
        const sent = stateless ? { ...params, _meta: { [MetaKeys.protocolVersion]: version, [MetaKeys.clientCapabilities]: caps } } : params;
        const answer = d.method === "initialize" && init ? init : await rpc(mock.url, d.method, sent, headers);
        // The tasks extension's answers are not the v1 SDK's 2025 shapes (ttlMs, inline results).
        if (stateless && d.method.startsWith("tasks/")) {
          expect(answer.error, d.method).toBeUndefined();
          expect(answer.result, d.method).toMatchObject(d.method === "tasks/get" ? { resultType: "complete", taskId: expect.any(String), status: expect.any(String), ttlMs: 60000 } : { resultType: "complete" });
          continue;
        }
        if (d.extension !== undefined) {
          expect(answer.error, d.method).toBeUndefined();
          expect(answer.result, d.method).toHaveProperty(EXTENSION_FIELDS[d.method] as string);
        } else if (d.resultSchema === undefined) {
          expect(answer.error?.code, `${d.method} answers an error: it has no result schema`).toBeTypeOf("number");
          continue;
        } else {
          expect(answer.error, d.method).toBeUndefined();
          expect(resultSchemaOf(d.resultSchema)?.safeParse(answer.result).success, `${d.method} → ${JSON.stringify(answer.result)}`).toBe(true);
        }
        // 2026-07-28: every result says its type; lists and discover say how long they may be cached.
        if (stateless) expect(answer.result, d.method).toMatchObject(d.cacheable ? { resultType: "complete", ttlMs: 0, cacheScope: "private" } : { resultType: "complete" });
      }
    });
  });

  test("lookups by method", () => {
    expect(METHOD_BY_NAME.get("tools/call")?.entryPoint).toBe("toolsCall");
    expect(METHOD_BY_NAME.get("custom/thing")).toBeUndefined();
  });
});
