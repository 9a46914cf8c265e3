/**
 * A realistic client session for the recording tests, run with the official SDK v1 Client,
 * and the transcript it gives (every answer and every notification, in order), so a session
 * against the real server and one against the replay can be compared as values.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";

export type Step = (client: Client, log: unknown[]) => Promise<unknown>;

/** Runs steps through a client on a transport; each step's answer or error goes into the transcript. */
export async function transcript(transport: SdkTransport, steps: readonly Step[]): Promise<unknown[]> {
  const client = new Client({ name: "recording-test", version: "1.0.0" });
  const log: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void log.push({ log: n.params }));
  await client.connect(transport);
  log.push({ server: client.getServerVersion(), capabilities: client.getServerCapabilities(), instructions: client.getInstructions() });
  try {
    for (const step of steps) {
      try {
        log.push(await step(client, log));
      } catch (error) {
        log.push({ error: String(error) });
      }
    }
  } finally {
    await client.close();
  }
  return log;
}

/** A Streamable HTTP client transport to a URL, with optional headers. */
export function http(url: string, headers: Record<string, string> = {}): SdkTransport {
  return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
}

/** A stdio client transport that launches a command. */
export function stdio(command: string, args: string[], env: Record<string, string> = {}): SdkTransport {
  return new StdioClientTransport({ command, args, env: { ...(process.env as Record<string, string>), ...env }, stderr: "pipe" });
}

