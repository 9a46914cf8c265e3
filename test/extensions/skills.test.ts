/**
 * The Skills extension through real clients: declared skills advertised (2025-11-25's
 * initialize through the v1 client, 2026-07-28's server/discover through the v2 client), their
 * entries from skills/list (paged) and skills/get with digests a client can check against the
 * bytes resources/read gives, directories read, stubs over the built-in answers, the journal,
 * and bad input answered with -32602 naming it.
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { McpMock, McpMockError, type SkillDeclaration } from "../../src/index.js";

const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
const ResourceEntry = z.object({ uri: z.string(), digest: z.string().regex(/^sha256:[0-9a-f]{64}$/), size: z.number().int() });
const Skill = z.object({ uri: z.string(), frontmatter: z.looseObject({ name: z.string(), description: z.string() }), resources: z.union([z.array(ResourceEntry), z.literal("dynamic")]) });
const ListSkills = z.looseObject({ skills: z.array(Skill), nextCursor: z.string().optional() });
const GetSkill = z.looseObject({ skill: Skill });
const DirectoryRead = z.looseObject({ resources: z.array(z.looseObject({ uri: z.string(), name: z.string(), mimeType: z.string().optional() })), nextCursor: z.string().optional() });

const PDF: SkillDeclaration = {
  name: "pdf-processing",
  description: "Extract, fill, and assemble PDF documents",
  frontmatter: { license: "Apache-2.0", metadata: { version: "2.1.0" } },
  content: "# PDF processing\n\nChoose the matching template from `templates/`. Literal {{braces}} stay.",
  files: {
    "templates/invoice.md": "# Invoice",
    "templates/regional/eu-invoice.md": "# EU invoice",
    "scripts/extract.py": { text: "print('extract')" },
    "assets/logo.png": { blob: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]).toString("base64"), mimeType: "image/png" },
  },
};
const REFUNDS: SkillDeclaration = { name: "refunds", description: "Process refunds per policy", uri: "skill://acme/billing/refunds/SKILL.md", content: "Refund within 30 days." };

async function v1(mock: McpMock): Promise<Client> {
  const client = new Client({ name: "v1", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  return client;
}

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** The JSON-RPC error a request got, as the v1 client throws it. */
async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = (await promise.then(() => undefined, (e: unknown) => e)) as { code: number; message: string } | undefined;
  expect(error, "the request should have failed").toBeDefined();
  return error as { code: number; message: string };
}

describe("declared skills through the v1 client (2025-11-25)", () => {
  test("advertised with directoryRead and the resources capability; entries whose digests and sizes match the bytes read", async () => {
    await using mock = await McpMock.start({ skills: [PDF, REFUNDS] });
    const client = await v1(mock);
    const caps = client.getServerCapabilities() as { extensions?: Record<string, unknown>; resources?: unknown };
    expect(caps.extensions?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
    expect(caps.resources).toBeDefined();

    const { skills } = await client.request({ method: "skills/list", params: {} }, ListSkills);
    expect(skills.map((s) => s.uri)).toEqual(["skill://pdf-processing/SKILL.md", "skill://acme/billing/refunds/SKILL.md"]);
    const pdf = skills[0]!;
    expect(pdf.frontmatter).toEqual({ name: "pdf-processing", description: PDF.description, license: "Apache-2.0", metadata: { version: "2.1.0" } });
    const files = pdf.resources as z.infer<typeof ResourceEntry>[];
    expect(files.map((f) => f.uri)).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/templates/invoice.md",
      "skill://pdf-processing/templates/regional/eu-invoice.md",
      "skill://pdf-processing/scripts/extract.py",
      "skill://pdf-processing/assets/logo.png",
    ]);
    // What a host does: read each file and check it against the entry.
    for (const file of files) {
      const { contents } = await client.readResource({ uri: file.uri });
      const content = contents[0] as { text?: string; blob?: string };
      const bytes = content.text !== undefined ? Buffer.from(content.text, "utf8") : Buffer.from(content.blob as string, "base64");
      expect(sha256(bytes), file.uri).toBe(file.digest);
      expect(bytes.byteLength, file.uri).toBe(file.size);
    }
    const skillMd = (await client.readResource({ uri: pdf.uri })).contents[0] as { text: string; mimeType: string };
    expect(skillMd.mimeType).toBe("text/markdown");
    expect(skillMd.text).toBe(`---\nname: "pdf-processing"\ndescription: "${PDF.description}"\nlicense: "Apache-2.0"\nmetadata: {"version":"2.1.0"}\n---\n\n${PDF.content}`);

    const got = await client.request({ method: "skills/get", params: { uri: "skill://acme/billing/refunds/SKILL.md" } }, GetSkill);
    expect(got.skill).toEqual(skills[1]);
    // Every file is a resource: SKILL.md named and described from its frontmatter.
    const listed = (await client.listResources()).resources;
    expect(listed.find((r) => r.uri === pdf.uri)).toMatchObject({ name: "pdf-processing", description: PDF.description, mimeType: "text/markdown", size: files[0]!.size });
    await client.close();
  });

  test("directories: the skill's root, a subdirectory, a prefix; files with their metadata, directories as inode/directory", async () => {
    await using mock = await McpMock.start({ skills: [PDF, REFUNDS] });
    const client = await v1(mock);
    const read = (uri: string) => client.request({ method: "resources/directory/read", params: { uri } }, DirectoryRead);
    expect((await read("skill://pdf-processing")).resources.map((r) => [r.name, r.mimeType])).toEqual([
      ["pdf-processing", "text/markdown"],
      ["templates", "inode/directory"],
      ["scripts", "inode/directory"],
      ["assets", "inode/directory"],
    ]);
    expect((await read("skill://pdf-processing/templates")).resources).toEqual([
      { uri: "skill://pdf-processing/templates/invoice.md", name: "invoice.md", mimeType: "text/markdown", size: 9 },
      { uri: "skill://pdf-processing/templates/regional", name: "regional", mimeType: "inode/directory" },
    ]);
    expect((await read("skill://acme")).resources).toEqual([{ uri: "skill://acme/billing", name: "billing", mimeType: "inode/directory" }]);
    await client.close();
  });

  test("skills/list is paged like the other lists; a cursor from elsewhere is -32602", async () => {
    const many = ["alpha", "beta", "gamma"].map((name) => ({ name, description: `The ${name} skill`, content: name }));
    await using mock = await McpMock.start({ skills: [...many, { name: "hidden", description: "Not listed", content: "x", listed: false }], pageSize: 2 });
    const client = await v1(mock);
    const first = await client.request({ method: "skills/list", params: {} }, ListSkills);
    expect(first.skills.map((s) => s.frontmatter.name)).toEqual(["alpha", "beta"]);
    const second = await client.request({ method: "skills/list", params: { cursor: first.nextCursor } }, ListSkills);
    expect(second.skills.map((s) => s.frontmatter.name)).toEqual(["gamma"]);
    expect(second.nextCursor).toBeUndefined();
    // Unlisted, still served by skills/get.
    expect((await client.request({ method: "skills/get", params: { uri: "skill://hidden/SKILL.md" } }, GetSkill)).skill.frontmatter.name).toBe("hidden");
    const bad = await failure(client.request({ method: "skills/list", params: { cursor: "not-a-cursor" } }, ListSkills));
    expect(bad.code).toBe(-32602);
    await client.close();
  });

  test("a dynamic skill's entry says \"dynamic\"; its files are still read", async () => {
    await using mock = await McpMock.start({ skills: [{ name: "daily", description: "Today's report", content: "Generated.", dynamic: true }] });
    const client = await v1(mock);
    const { skill } = await client.request({ method: "skills/get", params: { uri: "skill://daily/SKILL.md" } }, GetSkill);
    expect(skill.resources).toBe("dynamic");
    expect(((await client.readResource({ uri: skill.uri })).contents[0] as { text: string }).text).toContain("Generated.");
    await client.close();
  });
});

describe("the v2 client at 2026-07-28", () => {
  test("server/discover advertises the extension; skills/list and skills/get are complete, cacheable results", async () => {
    await using mock = await McpMock.start({ skills: [PDF] });
    const client = new ClientV2({ name: "v2", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
    await client.connect(new TransportV2(new URL(mock.url)));
    expect((client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
    const list = await client.request({ method: "skills/list", params: {} } as never, ListSkills);
    expect(list.skills[0]?.uri).toBe("skill://pdf-processing/SKILL.md");
    const got = await client.request({ method: "skills/get", params: { uri: "skill://pdf-processing/SKILL.md" } } as never, GetSkill);
    expect(got.skill).toEqual(list.skills[0]);
    await client.close();
    const answers = mock.requests().filter((e) => e.method?.startsWith("skills/"));
    expect(answers.map((e) => e.method)).toEqual(["skills/list", "skills/get"]);
    for (const e of answers) expect(e.answer).toMatchObject({ result: { resultType: "complete", ttlMs: 0, cacheScope: "private" } });
  });
});

describe("bad input: -32602 naming it, nothing else", () => {
  test("an unknown skill, a huge URI, no URI; a directory that does not exist, a file read as a directory", async () => {
    await using mock = await McpMock.start({ skills: [PDF], onUnmatched: "silent" });
    const client = await v1(mock);
    const get = (params: Record<string, unknown>) => failure(client.request({ method: "skills/get", params }, GetSkill));
    expect(await get({ uri: "skill://chargebacks/SKILL.md" })).toMatchObject({ code: -32602, message: expect.stringContaining("No skill is served at skill://chargebacks/SKILL.md") });
    const huge = await get({ uri: `skill://${"x".repeat(200_000)}/SKILL.md` });
    expect(huge.code).toBe(-32602);
    expect(huge.message).toContain("(200017 characters)");
    expect(huge.message.length).toBeLessThan(400);
    expect(await get({})).toMatchObject({ code: -32602, message: expect.stringContaining("needs params.uri") });
    const dir = (uri: unknown) => failure(client.request({ method: "resources/directory/read", params: { uri } }, DirectoryRead));
    expect(await dir("skill://pdf-processing/nope")).toMatchObject({ code: -32602, message: expect.stringContaining("No directory resource at skill://pdf-processing/nope") });
    expect(await dir("skill://pdf-processing/SKILL.md")).toMatchObject({ code: -32602, message: expect.stringContaining("skill://pdf-processing/SKILL.md is not a directory resource") });
    expect(await dir(42)).toMatchObject({ code: -32602 });
    // The report says what is declared.
    const miss = mock.requests().find((e) => e.method === "skills/get");
    expect(JSON.stringify(miss?.answer)).toContain("Declared skills: skill://pdf-processing/SKILL.md");
    await client.close();
  });
});

describe("stubs, the journal, declarations at run time", () => {
  test("a method stub answers over the built-in answer; calls are journaled and verifiable", async () => {
    await using mock = await McpMock.start({ skills: [PDF] });
    mock.method("skills/get").withParams({ uri: "skill://pdf-processing/SKILL.md" }).respondsWith({ skill: { uri: "skill://pdf-processing/SKILL.md", frontmatter: { name: "pdf-processing", description: "Tampered" }, resources: "dynamic" } });
    const client = await v1(mock);
    const got = await client.request({ method: "skills/get", params: { uri: "skill://pdf-processing/SKILL.md" } }, GetSkill);
    expect(got.skill.frontmatter.description).toBe("Tampered");
    // The built-in answer still lists the declared truth: a host should notice the difference.
    expect((await client.request({ method: "skills/list", params: {} }, ListSkills)).skills[0]?.frontmatter.description).toBe(PDF.description);
    mock.verify(mock.method("skills/get"), 1);
    await client.close();
  });

  test("entry: an entry that disagrees with the files on purpose; a bad override is refused, with the fix", async () => {
    const claimed = `sha256:${"0".repeat(64)}`;
    await using mock = await McpMock.start({ skills: [{ ...REFUNDS, files: { "notes.md": "n" }, entry: { frontmatter: { name: "refunds", description: "Something else" }, resources: { "SKILL.md": { digest: claimed, size: 1 } } } }] });
    const client = await v1(mock);
    const [entry] = (await client.request({ method: "skills/list", params: {} }, ListSkills)).skills;
    expect(entry?.frontmatter).toEqual({ name: "refunds", description: "Something else" });
    const [own, notes] = entry?.resources as Array<{ uri: string; digest: string; size: number }>;
    expect(own).toEqual({ uri: REFUNDS.uri, digest: claimed, size: 1 });
    const text = ((await client.readResource({ uri: REFUNDS.uri as string })).contents[0] as { text: string }).text;
    expect(text).toContain('description: "Process refunds per policy"');
    expect(sha256(Buffer.from(text))).not.toBe(claimed);
    expect(notes).toEqual({ uri: "skill://acme/billing/refunds/notes.md", digest: sha256(Buffer.from("n")), size: 1 });
    await client.close();
    expect(() => mock.declareSkill({ ...REFUNDS, entry: { resources: { "missing.md": { size: -1, mode: 1 } } } } as unknown as SkillDeclaration)).toThrow(
      /entry\.resources\["missing\.md"\]: the skill has no file "missing\.md"; its files are "SKILL\.md"[\s\S]*only digest and size can be overridden[\s\S]*size must be a whole number of bytes/,
    );
  });

  test("declareSkill: served and advertised from then on; every problem at once, with the fix", async () => {
    await using mock = await McpMock.start({});
    const before = await v1(mock);
    expect(before.getServerCapabilities()).not.toHaveProperty("extensions");
    await before.close();
    mock.declareSkill(REFUNDS);
    const after = await v1(mock);
    expect((after.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions).toEqual({ [SKILLS_EXTENSION]: { directoryRead: true } });
    expect((await after.request({ method: "skills/list", params: {} }, ListSkills)).skills).toHaveLength(1);
    await after.close();

    const thrown = (() => {
      try {
        mock.declareSkill({ name: "Bad_Name", description: "", uri: "https://example.com/SKILL.md", files: { "../x": "y", "SKILL.md": "z" } } as unknown as SkillDeclaration);
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(McpMockError);
    const message = thrown!.message;
    expect(message).toContain('declareSkill("Bad_Name").name must be a skill name');
    expect(message).toContain(".description must say what the skill does");
    expect(message).toContain(".uri must be a skill:// URI");
    expect(message).toContain("needs exactly one of content (the body of SKILL.md) or file");
    expect(message).toContain('files["../x"]: a file\'s path is relative');
    expect(message).toContain('files["SKILL.md"]: SKILL.md is the skill\'s own file');
  });

  test("at start: a duplicate URI, a name the URI does not end in, a file not found, frontmatter in content", async () => {
    const start = McpMock.start({
      transport: "none",
      skills: [
        { name: "one", description: "d", content: "a" },
        { name: "one", description: "d", content: "b" },
        { name: "two", description: "d", uri: "skill://acme/three/SKILL.md", content: "---\nname: two\n---\n" },
        { name: "four", description: "d", file: "./no/such/body.md" },
      ],
    });
    const error = (await start.then(() => undefined, (e: unknown) => e)) as Error;
    expect(error.message).toContain("4 problems in the skills");
    expect(error.message).toContain('skills[1]: "skill://one/SKILL.md" is declared twice');
    expect(error.message).toContain('skills[2].uri "skill://acme/three/SKILL.md" ends in "three"/SKILL.md, but the skill path\'s last segment must be the skill\'s name, "two"');
    expect(error.message).toContain('skills[2].content starts with a "---" frontmatter block');
    expect(error.message).toContain('skills[3].file: cannot read "./no/such/body.md"');
  });
});
