/**
 * The 2026-07-28 request headers that repeat the body (SEP-2243), checked as the revision says:
 * `Mcp-Method` (the method, case-sensitive), `Mcp-Name` (`params.name` or `params.uri`,
 * trimmed) and, for a tool argument whose schema says `"x-mcp-header": "Region"`,
 * `Mcp-Param-Region` (its value, or `=?base64?...?=` of it, decoded strictly). A missing or
 * different header is a 400 with -32020 that says which and what the body says.
 * @module
 */
import { KEY_BY_METHOD } from "../../protocol/methods/index.js";
import { HeaderNames } from "../../protocol/revisions.js";
import type { ToolCatalog } from "../../stubs/tool-catalog.js";
import { isJsonObject } from "../../values/json-value.js";
import { showValue } from "../../values/errors.js";

/** The most of a body value or header a mismatch repeats (a body may carry megabytes of one). */
const SHOWN = 200;

/** A header that disagrees with the body: what it said, and what the body says. */
export interface HeaderMismatch {
  readonly header: string;
  readonly body: string;
}

const BASE64 = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** A `Mcp-Param-*` value as the client meant it, or `undefined` when its base64 is not strict. */
export function decodeParamValue(value: string): string | undefined {
  const wrapped = BASE64.exec(value);
  if (!wrapped) return value;
  const text = wrapped[1] as string;
  const bytes = Buffer.from(text, "base64");
  if (bytes.toString("base64") !== text) return undefined;
  const decoded = new TextDecoder("utf-8", { fatal: true });
  try {
    return decoded.decode(bytes);
  } catch {
    return undefined;
  }
}

/** An argument as its header carries it (strings as they are, numbers in decimal, booleans in lower case). */
function headerForm(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The first header of a request that disagrees with its body, if any. */
export function headerMismatch(method: string, params: Record<string, unknown> | undefined, headers: Readonly<Record<string, string>>, tools: ToolCatalog): HeaderMismatch | undefined {
  const named = headers[HeaderNames.method];
  if (named === undefined) return { header: "(missing)", body: `the body names method ${method} but the required Mcp-Method header is absent` };
  if (named !== method) return { header: named, body: `the body names method ${method} but the Mcp-Method header names ${named}` };
  const key = KEY_BY_METHOD.get(method);
  const value = key === undefined ? undefined : params?.[key.param];
  if (key !== undefined && typeof value === "string") {
    const name = headers[HeaderNames.name];
    // The text of a mismatch is made only for one (this runs for every 2026-07-28 request).
    const field = (): string => `params.${key.param}=${showValue(value, SHOWN)}`;
    if (name === undefined) return { header: "(missing)", body: `the body carries ${field()} but the required Mcp-Name header is absent` };
    if (name !== value && name.trim() !== value.trim()) return { header: name, body: `the body carries ${field()} but the Mcp-Name header names ${showValue(name, SHOWN)}` };
  }
  if (method === "tools/call" && typeof value === "string") return paramMismatch(tools.get(value)?.inputSchema, params?.["arguments"], headers);
  return undefined;
}

/** An argument a tool's schema marks with `x-mcp-header`, and its header. */
interface ParamHeader {
  readonly argument: string;
  readonly headerName: string;
  readonly name: string;
}

/** The marked arguments of each input schema, found once (declarations do not change). */
const PARAM_HEADERS = new WeakMap<object, readonly ParamHeader[]>();

function paramHeaders(schema: unknown): readonly ParamHeader[] {
  if (!isJsonObject(schema)) return [];
  let found = PARAM_HEADERS.get(schema);
  if (!found) {
    const properties = isJsonObject(schema["properties"]) ? schema["properties"] : {};
    found = Object.entries(properties).flatMap(([argument, property]) => {
      const headerName = isJsonObject(property) ? property["x-mcp-header"] : undefined;
      return typeof headerName === "string" ? [{ argument, headerName, name: `${HeaderNames.paramPrefix}${headerName.toLowerCase()}` }] : [];
    });
    PARAM_HEADERS.set(schema, found);
  }
  return found;
}

/** The `Mcp-Param-*` headers against the arguments the tool's schema marks with `x-mcp-header`. */
function paramMismatch(schema: unknown, args: unknown, headers: Readonly<Record<string, string>>): HeaderMismatch | undefined {
  const marked = paramHeaders(schema);
  if (marked.length === 0) return undefined;
  const values = isJsonObject(args) ? args : {};
  for (const { argument, headerName, name } of marked) {
    const sent = headers[name];
    const expected = values[argument] === null ? undefined : headerForm(values[argument]);
    const label = `Mcp-Param-${headerName}`;
    if (expected === undefined) {
      if (sent !== undefined) return { header: sent, body: `the body carries no value for arguments.${argument}, but the ${label} header is present` };
      continue;
    }
    if (sent === undefined) return { header: "(missing)", body: `the body carries arguments.${argument}=${showValue(expected, SHOWN)} but the required ${label} header is absent` };
    const decoded = decodeParamValue(sent);
    if (decoded === undefined) return { header: sent, body: `the ${label} header is not valid =?base64?...?= text` };
    if (decoded !== expected) return { header: sent, body: `the body carries arguments.${argument}=${showValue(expected, SHOWN)} but the ${label} header says ${showValue(decoded, SHOWN)}` };
  }
  return undefined;
}
