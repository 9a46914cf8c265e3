/**
 * Icons (SEP-973, 2025-11-25): the shape of an `Icon` on `serverInfo`, tools, prompts,
 * resources and resource templates, checked where it is declared.
 * @module
 */
import { isJsonObject } from "../values/json-value.js";
import { McpMockError } from "../values/errors.js";

/**
 * An icon a client may show for a server, tool, prompt, resource or template (2025-11-25).
 *
 * @example
 * ```ts
 * import { McpMock, type Icon } from "mcpmock";
 * const icon: Icon = { src: "https://example.com/add.png", mimeType: "image/png", sizes: ["48x48"], theme: "light" };
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" }, icons: [icon] }] });
 * ```
 * @category Starting
 */
export interface Icon {
  /** An `http(s):` URL or a `data:` URI of the image. */
  readonly src: string;
  /** Its MIME type, when the source does not say it, e.g. `"image/png"`. */
  readonly mimeType?: string;
  /** Sizes it may be shown at: `"48x48"`, or `"any"` for a scalable one. */
  readonly sizes?: readonly string[];
  /** The background it is drawn for: `"light"` or `"dark"`. */
  readonly theme?: "light" | "dark";
}

const ICON_FIELDS = ["src", "mimeType", "sizes", "theme"];
const SIZE = /^(?:\d+x\d+|any)$/;
const EXAMPLE = '[{ "src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"] }]';

/** What is wrong with an `icons` value, one sentence each with the fix; none when it is right. */
export function iconProblems(icons: unknown, where: string): string[] {
  if (!Array.isArray(icons)) return [`${where}.icons must be an array of icons, like ${EXAMPLE}.`];
  const problems: string[] = [];
  icons.forEach((icon: unknown, i) => {
    const at = `${where}.icons[${i}]`;
    if (!isJsonObject(icon)) {
      problems.push(`${at} must be an object with "src", like ${EXAMPLE}.`);
      return;
    }
    const src = icon["src"];
    if (typeof src !== "string" || !/^(?:https?:|data:)/i.test(src)) problems.push(`${at}.src must be an http(s) URL or a data: URI, received ${JSON.stringify(src) ?? "nothing"}.`);
    const mime = icon["mimeType"];
    if (mime !== undefined && (typeof mime !== "string" || !/^[\w.+-]+\/[\w.+-]+$/.test(mime))) problems.push(`${at}.mimeType must be a MIME type like "image/png", received ${JSON.stringify(mime)}.`);
    const sizes = icon["sizes"];
    if (sizes !== undefined && !(Array.isArray(sizes) && sizes.every((s) => typeof s === "string" && SIZE.test(s)))) problems.push(`${at}.sizes must be a list of "WxH" sizes or "any", like ["48x48", "96x96"], received ${JSON.stringify(sizes)}.`);
    const theme = icon["theme"];
    if (theme !== undefined && theme !== "light" && theme !== "dark") problems.push(`${at}.theme must be "light" or "dark", received ${JSON.stringify(theme)}.`);
    const unknown = Object.keys(icon).filter((k) => !ICON_FIELDS.includes(k));
    if (unknown.length > 0) problems.push(`${at} has ${unknown.map((k) => JSON.stringify(k)).join(", ")}, which an icon does not: its fields are ${ICON_FIELDS.join(", ")}.`);
  });
  return problems;
}

/** Throws at the declaration when its `icons` are not icons, every problem at once with the fix. */
export function assertIcons(icons: unknown, where: string): void {
  if (icons === undefined) return;
  const problems = iconProblems(icons, where);
  if (problems.length > 0) throw new McpMockError(problems.join(" "));
}
