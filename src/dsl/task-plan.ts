/**
 * `asTask(...)`: checking what a stub says about the task a task-augmented call runs as, so
 * that a mistake fails at the DSL call (or the definition entry), with the fix.
 * @module
 */
import { showValue } from "../values/errors.js";
import type { TaskPlan, TaskStep } from "../stubs/stub.js";

const KNOWN = ["ttl", "pollInterval", "afterPolls", "statuses", "statusMessage"];
const STEP_STATUSES = ["working", "input_required"];

function isMs(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0;
}

function checkStep(step: unknown, i: number, fail: (m: string) => never): TaskStep {
  if (typeof step === "string" && STEP_STATUSES.includes(step)) return step as TaskStep;
  const s = step as { status?: unknown; message?: unknown } | null;
  if (s !== null && typeof s === "object" && !Array.isArray(s) && STEP_STATUSES.includes(s.status as string) && (s.message === undefined || typeof s.message === "string")) {
    const extra = Object.keys(s).filter((k) => k !== "status" && k !== "message");
    if (extra.length === 0) return s.message === undefined ? { status: s.status as "working" } : { status: s.status as "working", message: s.message as string };
  }
  fail(
    `asTask: statuses[${i}] must be "working", "input_required" or { status, message? } of either, received ${showValue(step)}. ` +
      `A poll reports a final status only once the stub's answer is the task's result (an error or isError: true makes it "failed").`,
  );
}

/** The plan, checked and copied; `fail` throws the message in the chain's words. */
export function checkTaskPlan(options: unknown, fail: (m: string) => never): TaskPlan {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) fail(`asTask takes an object like { afterPolls: 2, pollInterval: 10 }, received ${showValue(options)}.`);
  const o = options as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KNOWN.includes(k));
  if (unknown.length) fail(`asTask: unknown option ${unknown.map((k) => JSON.stringify(k)).join(", ")}; the options are ${KNOWN.join(", ")}.`);
  if (o["ttl"] !== undefined && o["ttl"] !== null && !isMs(o["ttl"])) fail(`asTask: ttl takes milliseconds (0 or more) or null (kept until the mock closes), received ${showValue(o["ttl"])}.`);
  if (o["pollInterval"] !== undefined && !isMs(o["pollInterval"])) fail(`asTask: pollInterval takes milliseconds (0 or more), received ${showValue(o["pollInterval"])}.`);
  if (o["afterPolls"] !== undefined && !(Number.isSafeInteger(o["afterPolls"]) && (o["afterPolls"] as number) >= 0)) fail(`asTask: afterPolls takes a count of tasks/get polls (0 or more), received ${showValue(o["afterPolls"])}.`);
  if (o["statusMessage"] !== undefined && typeof o["statusMessage"] !== "string") fail(`asTask: statusMessage takes a string, received ${showValue(o["statusMessage"])}.`);
  let statuses: TaskStep[] | undefined;
  if (o["statuses"] !== undefined) {
    if (!Array.isArray(o["statuses"])) fail(`asTask: statuses takes a list like ["working", "input_required"], received ${showValue(o["statuses"])}.`);
    statuses = (o["statuses"] as unknown[]).map((s, i) => checkStep(s, i, fail));
  }
  return {
    ...(o["ttl"] === undefined ? {} : { ttl: o["ttl"] as number | null }),
    ...(o["pollInterval"] === undefined ? {} : { pollInterval: o["pollInterval"] as number }),
    ...(o["afterPolls"] === undefined ? {} : { afterPolls: o["afterPolls"] as number }),
    ...(statuses === undefined ? {} : { statuses }),
    ...(o["statusMessage"] === undefined ? {} : { statusMessage: o["statusMessage"] as string }),
  };
}
