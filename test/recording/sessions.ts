/** The client sessions the recording tests drive: one against the fixture server, one against server-everything. */
import { z } from "zod";
import type { Step } from "../support/recording.js";

/** A call with a progress token (the progress notifications go into the transcript as they arrive). */
function withProgress(name: string, args: Record<string, unknown>): Step {
  return (c) => c.callTool({ name, arguments: args }, undefined, { onprogress: () => {} });
}

/** Against test/fixtures/real-server.mjs. */
export const FIXTURE_SESSION: Step[] = [
  (c) => c.listTools(),
  (c) => c.listResources(),
  (c) => c.listResourceTemplates(),
  (c) => c.listPrompts(),
  (c) => c.callTool({ name: "add", arguments: { a: 1, b: 2 } }),
  (c) => c.callTool({ name: "add", arguments: { a: "one", b: 2 } }),
  (c) => c.callTool({ name: "count" }),
  (c) => c.callTool({ name: "count" }),
  (c) => c.callTool({ name: "count" }),
  (c) => c.callTool({ name: "count" }),
  withProgress("slow", { steps: 3 }),
  (c) => c.callTool({ name: "nope" }),
  (c) => c.readResource({ uri: "test://hello" }),
  (c) => c.readResource({ uri: "test://items/7" }),
  (c) => c.readResource({ uri: "test://missing" }),
  (c) => c.readResource({ uri: "test://hello" }, { onprogress: () => {} }), // with a progress token in _meta
  (c) => c.getPrompt({ name: "greet", arguments: { name: "Ada" } }),
  (c) => c.callTool({ name: "ask" }),
  (c) => c.request({ method: "custom/unknown", params: { x: 1 } } as never, z.looseObject({}) as never), // a method the server does not have
];

/** Against @modelcontextprotocol/server-everything. */
export const EVERYTHING_SESSION: Step[] = [
  (c) => c.listTools(),
  (c) => c.listResources(),
  (c) => c.listResourceTemplates(),
  (c) => c.listPrompts(),
  (c) => c.callTool({ name: "echo", arguments: { message: "hello" } }),
  (c) => c.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } }),
  (c) => c.callTool({ name: "get-sum", arguments: { a: "two", b: 3 } }),
  withProgress("trigger-long-running-operation", { duration: 0.3, steps: 3 }),
  (c) => c.callTool({ name: "get-tiny-image", arguments: {} }),
  (c) => c.readResource({ uri: "demo://resource/dynamic/text/1" }),
  (c) => c.getPrompt({ name: "simple-prompt" }),
  (c) => c.getPrompt({ name: "args-prompt", arguments: { city: "Paris", state: "TX" } }),
];
