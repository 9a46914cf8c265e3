/**
 * What the scenario tests share to drive a scenario with the SDK's v1 Client: connecting it over
 * whichever transport the scenario gives (HTTP at its URL, stdio by spawning its command, in
 * memory through its transport), and a verdict's checks as "id STATUS" lines.
 */
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ScenarioClientContext } from "../../src/scenarios/index.js";

/** A v1 client connected over the scenario's transport (HTTP when the context names none). */
export async function connectV1(url: string, context: Pick<ScenarioClientContext, "transport" | "stdio" | "clientTransport"> | undefined, info = { name: "scenario-test", version: "1.0.0" }, capabilities = {}): Promise<Client> {
  const client = new Client(info, { capabilities });
  const transport = context?.transport ?? "http";
  if (transport === "http") await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  else if (transport === "stdio") {
    const stdio = context?.stdio;
    if (!stdio) throw new Error("no stdio command in the context");
    await client.connect(new StdioClientTransport({ command: stdio.command, args: [...stdio.args], stderr: "pipe" }));
  } else {
    const memory = context?.clientTransport;
    if (!memory) throw new Error("no in-memory transport in the context");
    await client.connect(memory());
  }
  return client;
}

/**
 * The v1 client's interactive authorization at connect: told 401, it finishes the authorization
 * with the provider's code and connects anew over a new transport (a transport starts once).
 */
export async function connectAuthorized(open: () => StreamableHTTPClientTransport, provider: { code(): string }, name: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  let transport = open();
  let client = new Client({ name, version: "1.0.0" });
  try {
    await client.connect(transport);
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    await transport.finishAuth(provider.code());
    transport = open();
    client = new Client({ name, version: "1.0.0" });
    await client.connect(transport);
  }
  return { client, transport };
}

/** Connects a v1 client over the scenario's transport, lets `work` use it, and closes it. */
export async function withV1(url: string, context: Parameters<typeof connectV1>[1], work: (client: Client) => Promise<unknown>, info?: { name: string; version: string }, capabilities = {}): Promise<void> {
  const client = await connectV1(url, context, info, capabilities);
  try {
    await work(client);
  } finally {
    await client.close();
  }
}

/** A verdict's checks as "id STATUS" lines, in order. */
export function statuses(verdict: { checks: readonly { id: string; status: string }[] }): string[] {
  return verdict.checks.map((c) => `${c.id} ${c.status}`);
}
