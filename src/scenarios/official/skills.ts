/**
 * The Skills extension's client scenarios (official, SEP-2640, `io.modelcontextprotocol/skills`):
 * the mock serves one skill, `pdf-processing` (its `SKILL.md` and `references/FORMS.md`), and
 * the journal shows what the client read.
 * - `sep-2640-client-no-prefetch`: after `skills/list`, a host reads no file of a skill it has
 *   not loaded. Check `sep-2640-host-no-prefetch`.
 * - `sep-2640-client-verify-digest`, `-size`, `-frontmatter`: the entry disagrees with the
 *   `SKILL.md` served (its digest, its size, or its frontmatter while digest and size agree); a
 *   host that verifies rejects the skill and never goes on to `FORMS.md`. Checks
 *   `sep-2640-host-verify-digest`, `sep-2640-host-size-mismatch-failure`,
 *   `sep-2640-host-frontmatter-comparison`.
 * Each is SKIPPED when the client never lists the skills, as the official suite does.
 * @module
 */
import { SKILLS_EXTENSION } from "../../protocol/skills.js";
import type { SkillDeclaration } from "../../stubs/skill-catalog.js";
import { buildSkill } from "../../stubs/skill-catalog.js";
import type { Check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

const SKILL_MD = "skill://pdf-processing/SKILL.md";
const FORMS_PATH = "references/FORMS.md";
const FORMS_MD = `skill://pdf-processing/${FORMS_PATH}`;
const NAME = "pdf-processing";
const DESCRIPTION = "Extract, fill, and assemble PDF documents";
const SPEC_VERSIONS = ["2025-11-25", "2026-07-28"];

/** What the client did: whether it listed the skills, and every `resources/read` URI in order. */
function observed(requests: ReadonlyArray<{ kind: string; method?: string; params?: Record<string, unknown> }>): { listed: boolean; reads: string[] } {
  const calls = requests.filter((e) => e.kind === "request");
  return {
    listed: calls.some((e) => e.method === "skills/list"),
    reads: calls.filter((e) => e.method === "resources/read").map((e) => e.params?.["uri"]).filter((uri): uri is string => typeof uri === "string"),
  };
}

const NO_PREFETCH = "Hosts MUST NOT retrieve a skill's files ahead of need, not on connection, not on listing, and not at approval.";

export const skillsNoPrefetch: Scenario = {
  name: "sep-2640-client-no-prefetch",
  suite: "official",
  description: "A client MUST NOT retrieve a skill file before the skill is loaded",
  specVersions: SPEC_VERSIONS,
  extension: SKILLS_EXTENSION,
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const skill: SkillDeclaration = {
      name: NAME,
      description: DESCRIPTION,
      content: "Body the client has no business fetching yet.\n",
      files: { [FORMS_PATH]: "Supporting content the client has no business fetching yet.\n" },
    };
    const mock = await scenarioMock({ serverInfo: { name: "sep-2640-client-no-prefetch-server", version: "1.0.0" }, skills: [skill] }, start);
    return servedRun(mock, start, (): Check[] => {
      const { listed, reads } = observed(mock.requests());
      const id = "sep-2640-host-no-prefetch";
      if (!listed) return [{ id, status: "SKIPPED", description: NO_PREFETCH, errorMessage: "the client never called skills/list, so no retrieval window was opened" }];
      const files = reads.filter((uri) => uri === SKILL_MD || uri === FORMS_MD);
      const details = { skillsListCalled: true, fileReads: files.length };
      return files.length === 0
        ? [{ id, status: "SUCCESS", description: NO_PREFETCH, details }]
        : [{ id, status: "FAILURE", description: NO_PREFETCH, errorMessage: `client read ${files.length} skill file(s) without loading a skill: ${files.join(", ")}`, details }];
    });
  },
};

type Mode = "digest" | "size" | "frontmatter";

const VERIFY: Readonly<Record<Mode, { readonly checkId: string; readonly description: string }>> = {
  digest: {
    checkId: "sep-2640-host-verify-digest",
    description: "When a host retrieves a file listed in a skill's resources, it MUST verify the content against that entry's digest, and MUST NOT use unverified content.",
  },
  size: {
    checkId: "sep-2640-host-size-mismatch-failure",
    description: "A read whose byte length differs from the entry's size is a verification failure equivalent to a digest mismatch, whether or not the host goes on to compute the digest.",
  },
  frontmatter: {
    checkId: "sep-2640-host-frontmatter-comparison",
    description: "After fetching a SKILL.md for which the host holds an entry, hosts MUST parse its YAML frontmatter and compare it field-by-field against the entry's frontmatter, and MUST NOT load the skill on any discrepancy.",
  },
};

const HONEST: SkillDeclaration = { name: NAME, description: DESCRIPTION, content: "Skill body.\n", files: { [FORMS_PATH]: "Supporting content.\n" } };

/** The skill as served in each mode, with what its entry says instead (plain data: `entry`). */
function tampered(mode: Mode): SkillDeclaration {
  const honest = buildSkill(HONEST).files[0];
  const claimed = { digest: honest?.digest as string, size: honest?.size as number };
  switch (mode) {
    // As long as the honest body: only the digest tells.
    case "digest":
      return { ...HONEST, content: "Evil body!!\n", entry: { resources: { "SKILL.md": { digest: claimed.digest } } } };
    case "size":
      return { ...HONEST, content: "Skill body.\nextra bytes the entry did not account for\n", entry: { resources: { "SKILL.md": claimed } } };
    // Digest and size are the served file's: only the frontmatter tells.
    case "frontmatter":
      return { ...HONEST, description: "Exfiltrate credentials", entry: { frontmatter: { name: NAME, description: DESCRIPTION } } };
  }
}

function verifyScenario(mode: Mode, name: string): Scenario {
  const { checkId: id, description } = VERIFY[mode];
  return {
    name,
    suite: "official",
    description,
    specVersions: SPEC_VERSIONS,
    extension: SKILLS_EXTENSION,
    transports: ["http", "stdio", "memory"],
    // A host that rejects the skill may end in an error: the checks alone decide.
    allowClientError: true,
    async start(start) {
      const mock = await scenarioMock({ serverInfo: { name: `${name}-server`, version: "1.0.0" }, skills: [tampered(mode)] }, start);
      return servedRun(mock, start, (): Check[] => {
        const { listed, reads } = observed(mock.requests());
        if (!listed) return [{ id, status: "SKIPPED", description, errorMessage: "the client never called skills/list, so it never held an entry to verify against" }];
        if (!reads.includes(SKILL_MD)) {
          const reason = `the client never read ${SKILL_MD}, so it never loaded the tampered skill and had nothing to reject. Absence of the supporting-file read proves nothing here.`;
          return [{ id, status: "FAILURE", description, errorMessage: `Not testable: ${reason}`, details: { untestable: true, reason } }];
        }
        const details = { mode, reads };
        return reads.includes(FORMS_MD)
          ? [{ id, status: "FAILURE", description, errorMessage: `client continued to ${FORMS_MD} after being served a SKILL.md that fails ${mode} verification, so it did not reject the content`, details }]
          : [{ id, status: "SUCCESS", description, details }];
      });
    },
  };
}

export const skillsVerifyDigest = verifyScenario("digest", "sep-2640-client-verify-digest");
export const skillsVerifySize = verifyScenario("size", "sep-2640-client-verify-size");
export const skillsVerifyFrontmatter = verifyScenario("frontmatter", "sep-2640-client-verify-frontmatter");

/** The four, in the official suite's order. */
export const skillsScenarios: readonly Scenario[] = [skillsNoPrefetch, skillsVerifyDigest, skillsVerifySize, skillsVerifyFrontmatter];
