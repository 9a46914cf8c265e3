/**
 * The official 2026-07-28 client scenarios of SEP-2243 (custom headers, invalid tool headers)
 * and SEP-2322 (multi round-trip requests), driven by the v2 SDK client pinned to 2026-07-28:
 * what it does passes, and a client broken on purpose (headers stripped, a state altered, a
 * retry with the same id, an invalid tool called) fails exactly the check about what it broke,
 * with a message that says what it did.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, test, vi } from "vitest";
import { runScenario, type ScenarioClientContext, type Verdict } from "../../src/scenarios/index.js";

type Fetch = typeof fetch;

/**
 * The v2 client pinned to 2026-07-28, with an elicitation handler that accepts: over HTTP to
 * `url`, or over stdio or in memory as the scenario's `context` offers.
 */
async function v2(url: string, work: (client: Client) => Promise<unknown>, fetchVia: Fetch = fetch, context?: ScenarioClientContext): Promise<void> {
  const client = new Client({ name: "v2", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
  client.setRequestHandler("elicitation/create" as never, (async () => ({ action: "accept", content: { confirmed: true } })) as never);
  const stdio = context?.stdio;
  await client.connect(
    stdio ? new StdioClientTransport({ command: stdio.command, args: [...stdio.args], stderr: "pipe" }) : context?.clientTransport ? (context.clientTransport() as never) : new StreamableHTTPClientTransport(new URL(url), { fetch: fetchVia }),
  );
  try {
    await work(client);
  } finally {
    await client.close();
  }
}

/** A fetch that changes the headers of each request before it leaves. */
function rewritingHeaders(change: (headers: Headers) => void): Fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    change(headers);
    return fetch(input, { ...init, headers });
  };
}

function failures(verdict: Verdict): { id: string; errorMessage?: string }[] {
  return verdict.checks.filter((c) => c.status === "FAILURE").map(({ id, errorMessage }) => ({ id, ...(errorMessage ? { errorMessage } : {}) }));
}

const toolCalls = (context: ScenarioClientContext) => (context.context?.["toolCalls"] ?? []) as { name: string; arguments: Record<string, unknown> }[];

describe("http-custom-headers", () => {
  const drive = (fetchVia?: Fetch) => (url: string, context: ScenarioClientContext) =>
    v2(url, async (client) => {
      await client.listTools();
      for (const call of toolCalls(context)) await client.callTool(call);
    }, fetchVia);

  test("the v2 client mirrors every x-mcp-header argument, base64 where it must", async () => {
    const verdict = await runScenario("http-custom-headers", {}, drive());
    expect(failures(verdict)).toEqual([]);
    expect(verdict.passed).toBe(true);
    expect(new Set(verdict.checks.map((c) => c.id))).toEqual(new Set(["sep-2243-client-supports-custom-headers", "sep-2243-client-mirrors-designated-params", "sep-2243-client-encode-values", "sep-2243-client-base64-unsafe", "sep-2243-client-omit-null"]));
  });

  test("a client that sends a value past ASCII as it is fails sep-2243-client-base64-unsafe, naming the header", async () => {
    const plain = rewritingHeaders((headers) => {
      if (headers.has("mcp-param-nonascii")) headers.set("mcp-param-nonascii", encodeURIComponent("Hello, 世界"));
    });
    const verdict = await runScenario("http-custom-headers", {}, drive(plain));
    expect(failures(verdict)).toEqual([{ id: "sep-2243-client-base64-unsafe", errorMessage: "Value 'Hello, 世界' requires Base64 encoding but header was sent as plain: 'Hello%2C%20%E4%B8%96%E7%95%8C'" }]);
  });

  test("a client that sends no Mcp-Param headers fails, saying it sent none", async () => {
    const none = rewritingHeaders((headers) => {
      const names: string[] = [];
      headers.forEach((_value, name) => names.push(name));
      for (const name of names) if (name.startsWith("mcp-param-")) headers.delete(name);
    });
    const verdict = await runScenario("http-custom-headers", {}, drive(none));
    expect(verdict.passed).toBe(false);
    expect(failures(verdict)).toContainEqual({ id: "sep-2243-client-supports-custom-headers", errorMessage: "Client called test_custom_headers but sent no Mcp-Param-* headers." });
    expect(failures(verdict)).toContainEqual({ id: "sep-2243-client-mirrors-designated-params", errorMessage: "Missing Mcp-Param-Region header. Client MUST include headers for x-mcp-header parameters." });
  });
});

describe("http-invalid-tool-headers", () => {
  test("the v2 client drops the invalid tools (with a warning each) and calls the valid one", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    let listed: string[] = [];
    const verdict = await runScenario("http-invalid-tool-headers", {}, (url) =>
      v2(url, async (client) => {
        listed = (await client.listTools()).tools.map((t) => t.name);
        for (const name of listed) await client.callTool({ name, arguments: { region: "us-west1" } });
      }),
    );
    const warned = [...warn.mock.calls];
    warn.mockRestore();
    expect(listed).toEqual(["valid_tool"]);
    expect(warned.map(([line]) => String(line).split(" ")[3])).toEqual(["'invalid_empty_header'", "'invalid_object_header'", "'invalid_array_header'", "'invalid_null_header'", "'invalid_number_header'", "'invalid_duplicate_same_case'", "'invalid_duplicate_diff_case'", "'invalid_space_in_name'", "'invalid_colon_in_name'", "'invalid_non_ascii_name'", "'invalid_control_char_name'"]);
    expect(failures(verdict)).toEqual([]);
    expect(verdict.checks).toHaveLength(12);
  });

  test("a client that calls a tool with a broken x-mcp-header fails the rule it broke", async () => {
    const verdict = await runScenario("http-invalid-tool-headers", {}, async (url) => {
      // A hand-written client that trusts the list as it is.
      const post = (id: number, method: string, params: Record<string, unknown>) =>
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" },
          body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }),
        }).then((r) => r.json() as Promise<{ result: { tools: { name: string }[] } }>);
      const { result } = await post(1, "tools/list", {});
      await post(2, "tools/call", { name: "valid_tool", arguments: { region: "eu" } });
      await post(3, "tools/call", { name: result.tools.find((t) => t.name === "invalid_space_in_name")?.name, arguments: { value: "x" } });
    });
    expect(failures(verdict)).toEqual([{ id: "sep-2243-x-mcp-header-charset", errorMessage: "Client called 'invalid_space_in_name' which has an invalid x-mcp-header. Clients MUST reject (exclude) such tools." }]);
  });
});

describe("sep-2322-client-request-state", () => {
  const calls = (client: Client) => async () => {
    await client.listTools();
    for (const name of ["test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state", "test_mrtr_no_result_type"]) await client.callTool({ name, arguments: {} });
  };

  /**
   * The v2 client refuses a 2026-07-28 result without resultType instead of taking it as
   * complete: it does not retry (the check passes) but its call throws, and the official
   * scenario does not excuse a client error, so the verdict fails on it.
   */
  const ALL_PASS = ["sep-2322-client-jsonrpc-id-different", "sep-2322-client-no-state-omitted", "sep-2322-client-parallel-isolation", "sep-2322-client-request-state-echoed", "sep-2322-default-result-type-complete"].map((id) => `${id} SUCCESS`);
  const REFUSES_UNTYPED = "Invalid result for tools/call: missing required resultType — servers implementing protocol revision 2026-07-28 MUST include it (the absent-means-complete bridge applies only to earlier-revision servers)";

  test("the v2 client answers the rounds and echoes the state, but throws on a result without resultType", async () => {
    const verdict = await runScenario("sep-2322-client-request-state", {}, (url) => v2(url, (client) => calls(client)()));
    expect([verdict.clientError, verdict.passed]).toEqual([REFUSES_UNTYPED, false]);
    expect(failures(verdict)).toEqual([]);
    expect(verdict.checks.map((c) => `${c.id} ${c.status}`).sort()).toEqual(ALL_PASS);
  });

  test.each(["stdio", "memory"] as const)("over %s, the same verdict: the message tap records the rounds and answers the tool without resultType", async (transport) => {
    const verdict = await runScenario("sep-2322-client-request-state", { transport }, (url, context) => v2(url, (client) => calls(client)(), fetch, context));
    expect([verdict.clientError, verdict.passed]).toEqual([REFUSES_UNTYPED, false]);
    expect(failures(verdict)).toEqual([]);
    expect(verdict.checks.map((c) => `${c.id} ${c.status}`).sort()).toEqual(ALL_PASS);
  });

  test("in memory, a client whose retry reuses its id fails sep-2322-client-jsonrpc-id-different, naming the id", async () => {
    const verdict = await runScenario("sep-2322-client-request-state", { transport: "memory", timeout: 2_000 }, async (_url, context) => {
      const inner = (context.clientTransport as () => import("@modelcontextprotocol/sdk/shared/transport.js").Transport)();
      let firstId: unknown;
      const send = inner.send.bind(inner);
      // The retry of test_mrtr_echo_state goes out under the id of its first round.
      inner.send = (message, options) => {
        const m = message as { id?: unknown; method?: string; params?: { name?: string; inputResponses?: unknown } };
        if (m.method === "tools/call" && m.params?.name === "test_mrtr_echo_state") {
          if (m.params.inputResponses === undefined) firstId = m.id;
          else return send({ ...m, id: firstId } as never, options);
        }
        return send(message, options);
      };
      await v2("", (client) => calls(client)().catch(() => undefined), fetch, { ...context, clientTransport: () => inner });
    });
    expect(failures(verdict)).toContainEqual({ id: "sep-2322-client-jsonrpc-id-different", errorMessage: expect.stringMatching(/^JSON-RPC id is the same on retry \(\d+\) — MUST be different$/) });
  });

  test("a client that alters the state fails sep-2322-client-request-state-echoed", async () => {
    const altering: Fetch = (input, init) => {
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { params?: { requestState?: string } }) : undefined;
      if (body?.params?.requestState) body.params.requestState = `${body.params.requestState}x`;
      return fetch(input, { ...init, ...(body ? { body: JSON.stringify(body) } : {}) });
    };
    const verdict = await runScenario("sep-2322-client-request-state", { timeout: 10_000 }, (url) => v2(url, (client) => calls(client)().catch(() => undefined), altering));
    expect(failures(verdict)).toContainEqual({ id: "sep-2322-client-request-state-echoed", errorMessage: "requestState was not echoed back exactly — clients MUST NOT inspect, parse, or modify it" });
  });
});
