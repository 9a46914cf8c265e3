/**
 * schema.json is the source of the definition format; the exported TypeScript types
 * (src/definition/format.ts, with a doc comment per field for editors) must say the same.
 * The TypeScript compiler reads `MockDefinition`, and the test walks it beside the schema:
 * at every place the schema lists the fields of a closed object, the types have exactly
 * those fields, equally required; enums and consts are the same literal types; the kinds
 * (string, number, boolean, object, array) agree. Where the schema leaves an object open
 * (tool annotations, `_meta`, JSON Schemas), the types may say more.
 *
 * The examples that error messages show come from the schema's `examples` keywords; each
 * is checked to be valid where it stands.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { schemaErrors } from "../src/definition/schema.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** A node of the schema, as far as the walk reads it. */
interface Node {
  $ref?: string;
  allOf?: Node[];
  oneOf?: Node[];
  anyOf?: Node[];
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: Node | boolean;
  unevaluatedProperties?: boolean;
  items?: Node;
  enum?: unknown[];
  const?: unknown;
  type?: string | string[];
  examples?: unknown[];
  $defs?: Record<string, Node>;
}

/** What one place of the schema allows, its combinators merged. */
interface Place {
  props: Map<string, Node[]>;
  required: Set<string>;
  closed: boolean;
  objectLike: boolean;
  items: Node[];
  literals: unknown[] | undefined;
  kinds: Set<string>;
}

function place(schema: Node, nodes: readonly Node[]): Place {
  const p: Place = { props: new Map(), required: new Set(), closed: false, objectLike: false, items: [], literals: undefined, kinds: new Set() };
  const add = (node: Node, depth = 0): Place => {
    const own: Place = { props: new Map(), required: new Set(), closed: false, objectLike: false, items: [], literals: undefined, kinds: new Set() };
    const merge = (into: Place, from: Place, requiredToo: boolean): void => {
      for (const [k, v] of from.props) into.props.set(k, [...(into.props.get(k) ?? []), ...v]);
      if (requiredToo) for (const r of from.required) into.required.add(r);
      into.closed ||= from.closed;
      into.objectLike ||= from.objectLike;
      into.items.push(...from.items);
      if (from.literals) into.literals = [...(into.literals ?? []), ...from.literals];
      for (const k of from.kinds) into.kinds.add(k);
    };
    if (node.$ref) merge(own, add(schema.$defs![node.$ref.replace("#/$defs/", "")]!, depth + 1), true);
    for (const [k, v] of Object.entries(node.properties ?? {})) own.props.set(k, [...(own.props.get(k) ?? []), v]);
    for (const r of node.required ?? []) own.required.add(r);
    if (node.additionalProperties === false || node.unevaluatedProperties === false) own.closed = true;
    if (node.properties || node.type === "object") own.objectLike = true;
    if (node.items) own.items.push(node.items);
    if (node.enum) own.literals = [...node.enum];
    if ("const" in node) own.literals = [node.const];
    for (const t of [node.type ?? []].flat()) own.kinds.add(t === "integer" ? "number" : t);
    for (const part of node.allOf ?? []) merge(own, add(part, depth + 1), true);
    const branches = [...(node.oneOf ?? []), ...(node.anyOf ?? [])].map((b) => add(b, depth + 1));
    if (branches.length) {
      const objects = branches.filter((b) => b.objectLike);
      for (const b of branches) merge(own, { ...b, closed: false }, false);
      // Required in every object branch means required; closed when every branch is.
      if (objects.length) for (const r of objects[0]!.required) if (objects.every((b) => b.required.has(r))) own.required.add(r);
      if (branches.every((b) => b.closed)) own.closed = true;
    }
    return own;
  };
  for (const node of nodes) {
    const one = add(node);
    for (const [k, v] of one.props) p.props.set(k, [...(p.props.get(k) ?? []), ...v]);
    for (const r of one.required) p.required.add(r);
    p.closed ||= one.closed;
    p.objectLike ||= one.objectLike;
    p.items.push(...one.items);
    if (one.literals) p.literals = [...(p.literals ?? []), ...one.literals];
    for (const k of one.kinds) p.kinds.add(k);
  }
  return p;
}

/** What a TypeScript type allows at one place, its union members merged. */
interface TypePlace {
  props: Map<string, ts.Type[]>;
  required: Set<string>;
  elements: ts.Type[];
  literals: unknown[];
  kinds: Set<string>;
  opaque: boolean;
}

function typePlace(checker: ts.TypeChecker, type: ts.Type): TypePlace {
  const p: TypePlace = { props: new Map(), required: new Set(), elements: [], literals: [], kinds: new Set(), opaque: false };
  const members = (type.isUnion() ? type.types : [type]).filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Never)));
  const objects: Array<Set<string>> = [];
  for (const member of members) {
    // A primitive intersected with an object (`string & Uint8Array`) only takes the primitive.
    const t = member.isIntersection() ? (member.types.find((x) => x.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike)) ?? member) : member;
    if (t.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) p.opaque = true;
    else if (t.isStringLiteral()) (p.literals.push(t.value), p.kinds.add("string"));
    else if (t.flags & ts.TypeFlags.String) p.kinds.add("string");
    else if (t.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) p.kinds.add("number");
    else if (t.flags & ts.TypeFlags.BooleanLike) p.kinds.add("boolean");
    else if (checker.isArrayType(t) || checker.isTupleType(t)) (p.kinds.add("array"), p.elements.push(...checker.getTypeArguments(t as ts.TypeReference)));
    else if (t.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) {
      p.kinds.add("object");
      const required = new Set<string>();
      for (const prop of checker.getPropertiesOfType(t)) {
        const propType = checker.getTypeOfSymbol(prop);
        p.props.set(prop.name, [...(p.props.get(prop.name) ?? []), propType]);
        if (!(prop.flags & ts.SymbolFlags.Optional)) required.add(prop.name);
      }
      objects.push(required);
    }
  }
  if (objects.length) for (const r of objects[0]!) if (objects.every((o) => o.has(r))) p.required.add(r);
  return p;
}

/** Every place where the types and the schema say different things. */
function differences(schema: Node, checker: ts.TypeChecker, type: ts.Type): string[] {
  const found: string[] = [];
  const walk = (nodes: readonly Node[], types: readonly ts.Type[], path: string, depth: number): void => {
    if (depth > 12) return;
    const s = place(schema, nodes);
    const t = types.map((x) => typePlace(checker, x)).reduce((a, b) => {
      for (const [k, v] of b.props) a.props.set(k, [...(a.props.get(k) ?? []), ...v]);
      for (const r of b.required) a.required.add(r);
      return { ...a, elements: [...a.elements, ...b.elements], literals: [...a.literals, ...b.literals], kinds: new Set([...a.kinds, ...b.kinds]), opaque: a.opaque || b.opaque };
    });
    if (t.opaque) return; // unknown: any JSON, as the schema's {} says
    if (s.kinds.size && [...t.kinds].some((k) => !s.kinds.has(k))) found.push(`${path}: the types allow ${[...t.kinds].join("|")}, the schema ${[...s.kinds].join("|")}`);
    if (s.kinds.size && [...s.kinds].some((k) => !t.kinds.has(k))) found.push(`${path}: the schema allows ${[...s.kinds].join("|")}, the types ${[...t.kinds].join("|")}`);
    if (s.literals?.every((l) => typeof l === "string")) {
      const a = [...new Set(s.literals)].sort().join(", ");
      const b = [...new Set(t.literals)].sort().join(", ");
      if (a !== b || t.kinds.size !== 1) found.push(`${path}: the schema allows ${a}, the types ${b || [...t.kinds].join("|")}`);
    }
    for (const name of s.props.keys()) if (!t.props.has(name)) found.push(`${path}.${name}: in the schema, not in the types`);
    if (s.closed) for (const name of t.props.keys()) if (!s.props.has(name)) found.push(`${path}.${name}: in the types, not in the schema`);
    for (const [name, subNodes] of s.props) {
      const subTypes = t.props.get(name);
      if (!subTypes) continue;
      if (s.required.has(name) !== t.required.has(name)) found.push(`${path}.${name}: ${s.required.has(name) ? "required" : "optional"} in the schema, ${t.required.has(name) ? "required" : "optional"} in the types`);
      walk(subNodes, subTypes, `${path}.${name}`, depth + 1);
    }
    if (s.items.length && t.elements.length) walk(s.items, t.elements, `${path}[]`, depth + 1);
  };
  walk([schema], [type], "(root)", 0);
  return found;
}

function mockDefinitionType(): { checker: ts.TypeChecker; type: ts.Type } {
  const config = ts.getParsedCommandLineOfConfigFile(`${root}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const program = ts.createProgram([`${root}src/definition/format.ts`], { ...config!.options, noEmit: true });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(`${root}src/definition/format.ts`)!;
  const symbol = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).find((s) => s.name === "MockDefinition")!;
  return { checker, type: checker.getDeclaredTypeOfSymbol(symbol) };
}

const schema = JSON.parse(readFileSync(`${root}schema.json`, "utf8")) as Node;

describe("the TypeScript types say what schema.json says", () => {
  const { checker, type } = mockDefinitionType();

  test("field by field: the same names, the same required ones, the same literals and kinds", () => {
    expect(differences(schema, checker, type)).toEqual([]);
  });

  test("the walk would notice a field the types lack, a field the schema lacks, a wider enum and a required field, at any depth", () => {
    const changed = structuredClone(schema);
    changed.$defs!["answer"]!.properties!["retryAfter"] = { type: "integer" };
    delete changed.$defs!["matching"]!.properties!["bodyContains"];
    changed.$defs!["fault"]!.properties!["kind"]!.enum!.push("slow-loris");
    changed.$defs!["error"]!.required = ["code"];
    delete changed.$defs!["step"]!.oneOf![1]!.properties!["logger"];
    changed.properties!["options"]!.properties!["sessions"]!.enum!.push("hybrid");
    changed.$defs!["completion"]!.required = [];
    changed.$defs!["promptResponse"]!.properties!["title"] = { type: "string" };
    expect(differences(changed, checker, type)).toEqual(
      expect.arrayContaining([
        "(root).responses[].retryAfter: in the schema, not in the types",
        "(root).responses[].bodyContains: in the types, not in the schema",
        expect.stringMatching(/^\(root\)\.responses\[\]\.fault\.kind: the schema allows .*slow-loris/),
        "(root).responses[].error.message: optional in the schema, required in the types",
        "(root).responses[].stream[].logger: in the types, not in the schema",
        expect.stringMatching(/^\(root\)\.options\.sessions: the schema allows .*hybrid/),
        "(root).completions[].values: optional in the schema, required in the types",
        "(root).prompts[].responses[].title: in the schema, not in the types",
      ]),
    );
  });
});

describe("the examples error messages show are the schema's, and valid where they stand", () => {
  /** A definition that puts `example` at a place of the schema. */
  const at: Record<string, (example: unknown) => unknown> = {
    "properties.server": (e) => ({ server: e }),
    "properties.tools": (e) => ({ tools: e }),
    "properties.responses": (e) => ({ tools: [{ name: "add" }], responses: e }),
    "properties.resources": (e) => ({ resources: e }),
    "properties.prompts": (e) => ({ prompts: e }),
    "properties.completions": (e) => ({ completions: e }),
    "properties.openStream": (e) => ({ openStream: e }),
    "properties.proxy": (e) => ({ proxy: e }),
    "properties.recorded": (e) => ({ recorded: e }),
    "properties.options": (e) => ({ options: e }),
    "properties.auth": (e) => ({ auth: e }),
    "properties.extensions": (e) => ({ extensions: e }),
    "properties.serverCard": (e) => ({ serverCard: e }),
    "$defs.icon": (e) => ({ tools: [{ name: "t", icons: [e] }] }),
    "$defs.matching.properties.clientExtension": (e) => ({ tools: [{ name: "t" }], responses: [{ tool: "t", clientExtension: e, result: "x" }] }),
    "$defs.delay": (e) => ({ tools: [{ name: "t" }], responses: [{ tool: "t", result: "x", delay: e }] }),
    "$defs.answer.properties.stream": (e) => ({ responses: [{ method: "x", stream: e }] }),
    "$defs.response.properties.error": (e) => ({ responses: [{ method: "x", error: e }] }),
    "$defs.response.properties.fault": (e) => ({ responses: [{ method: "x", fault: e }] }),
    "$defs.prompt.properties.responses": (e) => ({ prompts: [{ name: "greet", responses: e }] }),
    "properties.apps": (e) => ({ apps: e }),
    "$defs.app": (e) => ({ apps: [e] }),
    "$defs.toolUi": (e) => ({ tools: [{ name: "t", ui: e }], apps: [{ uri: "ui://weather/view.html", html: "<p>x</p>" }] }),
    "properties.skills": (e) => ({ skills: e }),
    "$defs.skill": (e) => ({ skills: [e] }),
    "$defs.skillFile": (e) => ({ skills: [{ name: "s", description: "d", content: "x", files: { "f.txt": e } }] }),
  };

  /** Every place in the schema that has examples, as a dotted path. */
  function placesWithExamples(node: unknown, path: string[] = []): string[] {
    if (node === null || typeof node !== "object") return [];
    const here = "examples" in node && path.length ? [path.join(".")] : [];
    return [...here, ...Object.entries(node).flatMap(([k, v]) => (k === "examples" ? [] : placesWithExamples(v, [...path, k])))];
  }

  test("each place with examples is one this test knows", () => {
    expect(placesWithExamples(schema).sort()).toEqual(Object.keys(at).sort());
  });

  test.each(Object.keys(at))("%s", (where) => {
    const node = where.split(".").reduce<Record<string, unknown>>((n, k) => n[k] as Record<string, unknown>, schema as unknown as Record<string, unknown>);
    for (const example of node["examples"] as unknown[]) expect(schemaErrors(at[where]!(example))).toEqual([]);
  });
});
