/**
 * The one file that touches Node's network: listen on a port, and close leaving nothing
 * behind (no sockets, no timers, no streams).
 * @module
 */
import { createAdaptorServer } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { McpMockError } from "../../values/errors.js";

/** A listening HTTP server. */
export interface Listening {
  readonly port: number;
  readonly host: string;
  close(): Promise<void>;
}

/** Listens with a fetch handler; rejects with a clear message when the port is taken. */
export async function listen(fetch: (req: Request, env: unknown) => Response | Promise<Response>, port: number, host: string): Promise<Listening> {
  const server = createAdaptorServer({ fetch, port, hostname: host, overrideGlobalObjects: false }) as Server;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE") {
        reject(new McpMockError(`port ${port} on ${host} is already in use. Use port 0 (the default; --port 0 on the command line) to get a free port.`));
      } else if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") {
        reject(new McpMockError(`cannot listen on host ${JSON.stringify(host)} (${error.code}). Use "127.0.0.1" (the default) or another local address.`));
      } else reject(error);
    };
    const onListening = (): void => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
  const address = server.address() as AddressInfo;
  return {
    port: address.port,
    host,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
