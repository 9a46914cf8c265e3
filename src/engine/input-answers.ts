/**
 * Whether a client's answer to an input request is one that request can take: the result of
 * its method (an `ElicitResult`, a `CreateMessageResult`, a `ListRootsResult`), and for an
 * accepted elicitation, content that matches its `requestedSchema`. 2026-07-28 retries and
 * `tasks/update` refuse a wrong answer with -32602 naming its key.
 * @module
 */
import { JsonRpcFailure } from "../protocol/jsonrpc.js";
import { ErrorCodes } from "../protocol/revisions.js";
import { compileArgumentCheck, type ArgumentCheck } from "../stubs/schema-check.js";
import { showValue } from "../values/errors.js";
import { isJsonObject } from "../values/json-value.js";
import { answerSchemaFor } from "../protocol/result-schemas.js";
import { toolUseAnswerProblem } from "../protocol/sampling-tools.js";

/** Compiled `requestedSchema`s, by their JSON (a script usually asks the same few). */
const checks = new Map<string, ArgumentCheck>();
const MAX_CHECKS = 100;

function contentCheck(schema: Record<string, unknown>): ArgumentCheck | undefined {
  const text = JSON.stringify(schema);
  let check = checks.get(text);
  if (!check) {
    try {
      check = compileArgumentCheck(schema, "the requestedSchema");
    } catch {
      return undefined; // a broken schema is the stub's business, not the client's
    }
    if (checks.size >= MAX_CHECKS) checks.delete(checks.keys().next().value as string);
    checks.set(text, check);
  }
  return check;
}

/** Why `answer` cannot answer the request `method`/`params` asked under `key`, or `undefined` when it can. */
function inputAnswerProblem(key: string, method: string, params: unknown, answer: unknown): string | undefined {
  const schema = answerSchemaFor(method);
  const parsed = schema?.safeParse(answer);
  if (parsed && !parsed.success) {
    const issue = parsed.error?.issues[0];
    const where = issue ? [key, ...issue.path.map(String)].join(".") : key;
    return `the answer under "${key}" is not a ${method} result (${where}: ${issue?.message ?? "invalid"}); received ${showValue(answer, 120)}.`;
  }
  if (method === "sampling/createMessage") {
    const toolUse = toolUseAnswerProblem(params, answer);
    return toolUse === undefined ? undefined : `the answer under "${key}": ${toolUse}`;
  }
  if (method !== "elicitation/create" || !isJsonObject(answer) || answer["action"] !== "accept") return undefined;
  const requested = isJsonObject(params) ? params["requestedSchema"] : undefined;
  if (!isJsonObject(requested)) return undefined;
  const violations = contentCheck(requested)?.(answer["content"] ?? {}) ?? [];
  const first = violations[0];
  if (!first) return undefined;
  return `the answer under "${key}" accepts content that does not match its requestedSchema: ${first.path.replace(/^args/, `${key}.content`)} ${first.expectation}.`;
}

/** Throws the -32602 answer when `answer` cannot answer the request asked under `key`. */
export function assertInputAnswer(key: string, method: string, params: unknown, answer: unknown): void {
  const problem = inputAnswerProblem(key, method, params, answer);
  if (problem !== undefined) throw new JsonRpcFailure(ErrorCodes.InvalidParams, `Invalid params: ${problem}`, { key });
}
