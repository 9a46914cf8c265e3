/**
 * Declaring a mock's tools, resources and prompts from its options, each name once.
 * @module
 */
import { McpMockError } from "../values/errors.js";

/** Names declarations must not repeat, with the list they come from. */
export function declareAll<T>(items: readonly T[] | undefined, list: string, nameOf: (item: T) => unknown, declare: (item: T, where: string) => void): void {
  const seen = new Set<unknown>();
  (items ?? []).forEach((item, i) => {
    const name = nameOf(item);
    if (seen.has(name)) throw new McpMockError(`${list}[${i}]: ${JSON.stringify(name)} is declared twice. Give each one declaration.`);
    seen.add(name);
    declare(item, `${list}[${i}]`);
  });
}
