/**
 * The expected | received table of near-miss reports (WireMock's), and the rows that JSON
 * values make in it: one per field, nested fields as paths (`args.city`).
 * @module
 */
import { isValuePattern } from "./value-patterns.js";
import { showValue } from "./errors.js";
import { propertyPath, type FieldDiff } from "./json-value.js";

/** One line of the table; `mismatch` names what differs (`arguments`, `session`, ...). */
export interface TableRow {
  readonly expected: string;
  readonly actual: string;
  readonly mismatch?: string;
  /** A line of its own below the table's row (not cut to a cell), such as what a predicate threw. */
  readonly note?: string;
}

const CELL = 56;
const MAX_FIELD_ROWS = 24;
/** The longest note line (a predicate's error message can be long). */
const NOTE = 200;

function cell(text: string, width: number): string {
  const cut = text.length > width ? `${text.slice(0, width - 1)}…` : text;
  return cut.padEnd(width);
}

/** Renders rows as a two-column table with `<<<<< X does not match` markers. */
export function renderTable(rows: readonly TableRow[], indent = "  "): string[] {
  const left = Math.min(CELL, Math.max(8, ...rows.map((r) => r.expected.length)));
  const right = Math.min(CELL, Math.max(8, ...rows.map((r) => r.actual.length)));
  const lines = [`${indent}${cell("Expected", left)} | Received`, `${indent}${"-".repeat(left)} | ${"-".repeat(right)}`];
  for (const row of rows) {
    if (row.note !== undefined) {
      lines.push(`${indent}  ^ ${row.note.length > NOTE ? `${row.note.slice(0, NOTE - 1)}…` : row.note}`);
      continue;
    }
    const marker = row.mismatch ? `  <<<<< ${row.mismatch} ${row.mismatch.endsWith("s") ? "do" : "does"} not match` : "";
    lines.push(`${indent}${cell(row.expected, left)} | ${marker ? cell(row.actual, right) + marker : cell(row.actual, CELL).trimEnd()}`);
  }
  return lines;
}

type Leaf = [path: string, value: unknown];

function leaves(value: unknown, path: string, out: Leaf[]): Leaf[] {
  if (isValuePattern(value) || value === null || typeof value !== "object") {
    out.push([path, value]);
    return out;
  }
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [`${path}[${i}]`, v])
    : Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [path + propertyPath(k), v]);
  if (entries.length === 0) out.push([path, value]);
  for (const [p, v] of entries) leaves(v, p, out);
  return out;
}

function show(value: unknown): string {
  return isValuePattern(value) ? String(value) : showValue(value, 60);
}

function related(path: string, diffPath: string): boolean {
  return path === diffPath || path.startsWith(`${diffPath}.`) || path.startsWith(`${diffPath}[`) || diffPath.startsWith(`${path}.`) || diffPath.startsWith(`${path}[`);
}

/**
 * Rows comparing an expected JSON value with a received one, field by field. With
 * `partial`, only the fields `expected` names appear.
 */
export function valueRows(expected: unknown, actual: unknown, root: string, partial: boolean, diffs: readonly FieldDiff[], what: string): TableRow[] {
  const expectedLeaves = leaves(expected, root, []);
  const actualLeaves = new Map(leaves(actual ?? {}, root, []));
  const paths = expectedLeaves.map(([p]) => p);
  if (!partial) {
    // A Set, not paths.includes: a received object of 100,000 fields made this quadratic (a
    // miss report that held the server for minutes).
    const named = new Set(paths);
    for (const p of actualLeaves.keys()) if (!named.has(p)) paths.push(p);
  }
  const expectedMap = new Map(expectedLeaves);
  const rows: TableRow[] = [];
  for (const path of paths.slice(0, MAX_FIELD_ROWS)) {
    const mismatch = diffs.some((d) => related(path, d.path));
    const e = expectedMap.has(path) ? `${path}: ${show(expectedMap.get(path))}` : "";
    const a = actualLeaves.has(path) ? `${path}: ${show(actualLeaves.get(path))}` : `${path}: (missing)`;
    rows.push(mismatch ? { expected: e, actual: a, mismatch: what } : { expected: e, actual: a });
  }
  if (paths.length > MAX_FIELD_ROWS) rows.push({ expected: `… ${paths.length - MAX_FIELD_ROWS} more fields`, actual: "" });
  return rows;
}
