/**
 * A mock and one connected client, closed together at the end of an `await using` scope:
 * the shape every client-driven test file starts from. Each file passes its own tools and
 * options, and its own way to connect (the shared `connect` of ./clients.ts, or a client of
 * its own that records what a test needs).
 */
import { McpMock, type McpMockOptions, type ToolDeclaration } from "../../src/index.js";

/** A mock with one connected client; disposing closes the client, then the mock. */
export interface MockWithClient<Tools extends readonly ToolDeclaration[], Client> extends AsyncDisposable {
  readonly mock: McpMock<Tools>;
  readonly client: Client;
}

/** Starts a mock with `options`, then connects a client to its URL with `connectTo`. */
export async function startWithClient<const Tools extends readonly ToolDeclaration[], Client extends { close(): Promise<void> }>(
  options: McpMockOptions<Tools>,
  connectTo: (url: string) => Promise<Client>,
): Promise<MockWithClient<Tools, Client>> {
  const mock = await McpMock.start(options);
  const client = await connectTo(mock.url);
  return {
    mock,
    client,
    async [Symbol.asyncDispose]() {
      await client.close();
      await mock.close();
    },
  };
}
