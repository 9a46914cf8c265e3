/**
 * The real clients tests drive the mock with: the official SDK v1 Client and the v2 client,
 * over real HTTP. Both are wrapped in one small shape so a test can run against each.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";

export interface TestClient {
  readonly kind: "v1" | "v2";
  listTools(): Promise<{ tools: Array<Record<string, unknown>> }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  ping(): Promise<unknown>;
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
  sessionId(): string | undefined;
  serverVersion(): unknown;
  protocolVersion(): string | undefined;
  close(): Promise<void>;
  /** Errors the transport reported besides failed calls (e.g. a refused GET stream). */
  readonly transportErrors: Error[];
}

export type ClientKind = "v1" | "v2";
export const CLIENT_KINDS: readonly ClientKind[] = ["v1", "v2"];

export async function connect(kind: ClientKind, url: string, options: { sessionId?: string } = {}): Promise<TestClient> {
  const transportErrors: Error[] = [];
  if (kind === "v1") {
    const transport = new TransportV1(new URL(url), options.sessionId ? { sessionId: options.sessionId } : undefined);
    const client = new ClientV1({ name: "mcpmock-test", version: "1.0.0" });
    client.onerror = (e) => transportErrors.push(e);
    await client.connect(transport);
    return {
      kind,
      transportErrors,
      listTools: () => client.listTools() as never,
      callTool: (name, args) => client.callTool({ name, arguments: args ?? {} }) as never,
      ping: () => client.ping(),
      request: async (method, params) => {
        const { z } = await import("zod");
        return client.request({ method, params } as never, z.looseObject({}) as never);
      },
      sessionId: () => transport.sessionId,
      serverVersion: () => client.getServerVersion(),
      protocolVersion: () => transport.protocolVersion,
      close: () => client.close(),
    };
  }
  const transport = new TransportV2(new URL(url), options.sessionId ? { sessionId: options.sessionId } : undefined);
  const client = new ClientV2({ name: "mcpmock-test", version: "1.0.0" });
  client.onerror = (e: Error) => transportErrors.push(e);
  await client.connect(transport);
  return {
    kind,
    transportErrors,
    listTools: () => client.listTools() as never,
    callTool: (name, args) => client.callTool({ name, arguments: args ?? {} }) as never,
    ping: () => client.ping(),
    request: async (method, params) => {
      const { z } = await import("zod");
      return (client as unknown as { request(r: unknown, s: unknown): Promise<unknown> }).request({ method, params }, z.looseObject({}));
    },
    sessionId: () => transport.sessionId,
    serverVersion: () => client.getServerVersion(),
    protocolVersion: () => transport.protocolVersion,
    close: () => client.close(),
  };
}

/** The text of a tool result's first content block ("" when it has none). */
export function textOf(result: Record<string, unknown>): string {
  return (result["content"] as Array<{ text: string }>)[0]?.text ?? "";
}

/** The text of a tool result's first content block, or undefined (no content, no text). */
export function textOrUndefined(result: Record<string, unknown>): string | undefined {
  return (result["content"] as Array<{ text?: string }> | undefined)?.[0]?.text;
}
