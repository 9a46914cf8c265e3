/**
 * Skills in definition files and admin fragments: `"skills"` at the top level, a body and
 * supporting files read beside the definition; served by `McpMock.fromDefinition` and
 * `mcpmock stdio`; every mistake refused at its JSON path; recorded from a real session and
 * replayed from the recording, answer for answer.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpMock, assertMockDefinition, type MockDefinition } from "../../src/index.js";
import { record } from "../../src/recording/index.js";
import { CLI, ROOT } from "../support/build.js";

const Entry = z.looseObject({ uri: z.string(), frontmatter: z.record(z.string(), z.unknown()), resources: z.union([z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })), z.literal("dynamic")]) });
const ListSkills = z.looseObject({ skills: z.array(Entry) });
const GetSkill = z.looseObject({ skill: Entry });
const Directory = z.looseObject({ resources: z.array(z.looseObject({ uri: z.string() })) });

const dir = mkdtempSync(join(tmpdir(), "mcpmock-skill-defs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "skills"));
writeFileSync(join(dir, "skills", "refunds.md"), "# Refunds\n\nSee examples/email.md.\n");
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
writeFileSync(join(dir, "skills", "logo.png"), LOGO);
const definition: MockDefinition = {
  skills: [
    {
      name: "refunds",
      description: "Process refunds per company policy",
      uri: "skill://acme/billing/refunds/SKILL.md",
      frontmatter: { license: "MIT" },
      file: "skills/refunds.md",
      files: { "examples/email.md": "Dear customer,", "assets/logo.png": { file: "skills/logo.png" } },
    },
  ],
};
const file = join(dir, "skills.mock.json");
writeFileSync(file, JSON.stringify(definition));

async function listed(client: Client): Promise<z.infer<typeof Entry>[]> {
  return (await client.request({ method: "skills/list", params: {} }, ListSkills)).skills;
}

describe("skills in definition files", () => {
  test("fromDefinition reads the body and the files beside the definition, bytes and digests intact", async () => {
    await using mock = await McpMock.fromDefinition(file);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(mock.clientTransport());
    const [skill] = await listed(client);
    expect(skill?.frontmatter).toEqual({ name: "refunds", description: "Process refunds per company policy", license: "MIT" });
    const logo = (skill?.resources as Array<{ uri: string; digest: string; size: number }>).find((r) => r.uri.endsWith("logo.png"));
    expect(logo).toEqual({ uri: "skill://acme/billing/refunds/assets/logo.png", digest: `sha256:${createHash("sha256").update(LOGO).digest("hex")}`, size: LOGO.length });
    expect((await client.readResource({ uri: logo!.uri })).contents[0]).toEqual({ uri: logo!.uri, mimeType: "image/png", blob: LOGO.toString("base64") });
    expect(((await client.readResource({ uri: "skill://acme/billing/refunds/SKILL.md" })).contents[0] as { text: string }).text).toMatch(/\n---\n\n# Refunds\n\nSee examples\/email\.md\.\n$/);
    await client.close();
  });

  test("mcpmock stdio serves the same skills", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "stdio", file], cwd: ROOT, stderr: "pipe" });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(transport);
    expect((client.getServerCapabilities() as { extensions?: object }).extensions).toEqual({ "io.modelcontextprotocol/skills": { directoryRead: true } });
    expect((await client.request({ method: "resources/directory/read", params: { uri: "skill://acme/billing/refunds/examples" } }, Directory)).resources.map((r) => r.uri)).toEqual(["skill://acme/billing/refunds/examples/email.md"]);
    await client.close();
  });

  test("every mistake at its JSON path, with the fix", () => {
    const broken = {
      skills: [
        { name: "Refunds", description: "d", content: "x" },
        { name: "ok", description: "d", uri: "file:///ok/SKILL.md", content: "x" },
        { name: "twice", description: "d", content: "x" },
        { name: "twice", description: "d", content: "y" },
        { name: "nobody", description: "d" },
        { name: "lost", description: "d", file: join(dir, "missing.md"), files: { "a/b.md": { file: join(dir, "gone.md") }, a: "clash" } },
      ],
    };
    let message = "";
    try {
      assertMockDefinition(broken, "skills.json");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("Invalid mock definition — skills.json");
    expect(message).toContain("skills[0].name");
    expect(message).toContain("skills[1].uri");
    expect(message).toContain('"skill://twice/SKILL.md" is declared twice');
    expect(message).toContain("skills[4]");
    expect(message).toContain("needs exactly one of content (the body of SKILL.md) or file");
    expect(message).toContain("skills[5].file: cannot read");
    expect(message).toContain("gone.md");
    expect(message).toContain('"a" is a file, and also the directory of "a/b.md"');
  });

  test("the admin API declares skills from a fragment, and refuses a broken one with 400", async () => {
    await using mock = await McpMock.start({ admin: true });
    const post = (body: unknown) => fetch(new URL("/__admin/stubs", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await post({ skills: [{ name: "admin-skill", description: "From the admin API", content: "Hi." }] })).status).toBeLessThan(300);
    const refused = await post({ skills: [{ name: "Bad Name", description: "x", content: "y" }] });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("skills[0].name");
    const client = new Client({ name: "t", version: "1" });
    await client.connect(mock.clientTransport());
    expect((await listed(client)).map((s) => s.uri)).toEqual(["skill://admin-skill/SKILL.md"]);
    await client.close();
  });
});

describe("record → replay", () => {
  test("a session's skills/list, skills/get, directory read and file reads replay byte for byte from the recording", async () => {
    await using real = await McpMock.fromDefinition(file);
    const session = async (client: Client): Promise<unknown[]> => [
      (await client.request({ method: "skills/get", params: { uri: "skill://acme/billing/refunds/SKILL.md" } }, GetSkill)).skill,
      (await client.request({ method: "resources/directory/read", params: { uri: "skill://acme/billing/refunds" } }, Directory)).resources,
      (await client.readResource({ uri: "skill://acme/billing/refunds/SKILL.md" })).contents,
      (await client.readResource({ uri: "skill://acme/billing/refunds/assets/logo.png" })).contents,
    ];
    let seen: unknown[] = [];
    const { definition: recorded } = await record({ target: real.url, out: join(dir, "recorded.mock.json"), session: async (client) => void (seen = await session(client)) });
    // The recorder lists skills by itself, as it lists tools, when the server offers the extension.
    expect(recorded.responses?.find((r) => (r as { method?: string }).method === "skills/list")).toMatchObject({ result: { skills: [{ uri: "skill://acme/billing/refunds/SKILL.md" }] } });
    await using replay = await McpMock.fromDefinition(recorded, { onUnmatched: "error" });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(replay.clientTransport());
    expect((client.getServerCapabilities() as { extensions?: object }).extensions).toEqual({ "io.modelcontextprotocol/skills": { directoryRead: true } });
    expect(await session(client)).toEqual(seen);
    expect(await listed(client)).toEqual([seen[0]]);
    await client.close();
    expect(replay.unmatched()).toEqual([]);
  });
});
