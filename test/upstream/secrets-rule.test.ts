/**
 * The one credentials rule (src/upstream/secrets.ts): which values given for an upstream are
 * secrets, by name and shape, and how they are replaced in what the mock shows; and the
 * command line's `--header` / `--env` forms with their mistakes.
 */
import { describe, expect, it } from "vitest";
import { envSecrets, headerSecrets, isSecret, redactText, scrubbed, secretsOf, shortCredentialNames, urlSecrets } from "../../src/upstream/secrets.js";
import { credentialProblems } from "../../src/upstream/credentials.js";
import { envOptions, headerOptions, credentialOptions } from "../../src/cli/credentials.js";
import { runCli } from "../support/cli-run.js";
import { httpUpstream, upstreamEnvironment } from "../../src/upstream/target.js";
import { UsageError } from "../../src/cli/command.js";

describe("which values are secrets", () => {
  it("a value under a credential-like name is one; booleans, numbers, paths and short values never are", () => {
    for (const [name, value] of [["API_KEY", "abcd"], ["GITHUB_TOKEN", "ghp_x1"], ["Authorization", "Bearer t0k"], ["DB_PASSWORD", "hunter2!"], ["Cookie", "sid=abc123"], ["x-api-key", "k-1234"], ["CLIENT_SECRET", "shh-it-is"]] as const) {
      expect(isSecret(name, value), `${name}=${value}`).toBe(true);
    }
    for (const [name, value] of [["API_KEY", "true"], ["TOKEN_TTL", "3600"], ["AUTH_FILE", "/etc/app/auth.json"], ["KEY_PATH", "./keys/dev.pem"], ["SECRET", "abc"], ["AUTH_ENABLED", "off"], ["PRIVATE_DIR", "~/private"]] as const) {
      expect(isSecret(name, value), `${name}=${value}`).toBe(false);
    }
  });

  it("a key that starts with a slash (base64, 1 in 64) is one under a credential-like name; a path of names is not", () => {
    for (const value of ["/K7MDENG/bPxRfiCYEXAMPLEKEY", "/Zx9kq2LmN8pQ4rT6vW1", "/9j4AAQSkZJRg+ABAQ==", "~/QmFzZTY0IGtleQ=="]) expect(isSecret("AWS_SECRET_ACCESS_KEY", value), value).toBe(true);
    for (const value of ["/etc/app/auth.json", "/home/me/.config/sa.json", "./keys/dev.pem", "~/private", "C:\\keys\\dev.pem", "/tmp"]) expect(isSecret("AUTH_FILE", value), value).toBe(false);
  });

  it("under any other name, only a token-shaped value is one: X-Tenant: acme stays visible", () => {
    expect(isSecret("X-Tenant", "acme")).toBe(false);
    expect(isSecret("LOG_LEVEL", "debug")).toBe(false);
    expect(isSecret("DISABLE_THOUGHT_LOGGING", "true")).toBe(false);
    expect(isSecret("MEMORY_FILE_PATH", "/tmp/memory.json")).toBe(false);
    expect(isSecret("X-Api-Version", "2025-06-18")).toBe(false);
    expect(isSecret("X-Upstream", "sk0123456789abcdefXYZ")).toBe(true);
  });

  it("an Authorization value gives the whole value and its token; a Basic one its password too", () => {
    expect(headerSecrets({ authorization: "Bearer tok-0123456789" })).toEqual(expect.arrayContaining(["Bearer tok-0123456789", "tok-0123456789"]));
    const basic = `Basic ${Buffer.from("alice:pa55word").toString("base64")}`;
    expect(headerSecrets({ Authorization: basic })).toEqual(expect.arrayContaining([basic, "alice:pa55word", "pa55word"]));
    expect(headerSecrets({ authorization: basic })).not.toContain("alice");
    expect(headerSecrets({ cookie: "sid=abcdef12; theme=dark" })).toEqual(expect.arrayContaining(["abcdef12"]));
    expect(headerSecrets({ "mcp-session-id": "0123456789abcdef0123" })).toEqual([]);
  });

  it("a URL's password, the Basic value made from it, and a secret query parameter are secrets; a plain user name is not", () => {
    const url = new URL("http://alice:p%40ss-word@127.0.0.1:1/mcp?api_key=qk-123456&page=2");
    const found = urlSecrets(url);
    const basic = Buffer.from("alice:p@ss-word").toString("base64");
    expect(found).toEqual(expect.arrayContaining(["p@ss-word", "p%40ss-word", `Basic ${basic}`, basic, "qk-123456"]));
    expect(found).not.toContain("alice");
    expect(found).not.toContain("2");
    // A token given as the user name (https://TOKEN@host) is one.
    expect(urlSecrets(new URL("https://ghp_abcdef0123456789@example.test/mcp"))).toContain("ghp_abcdef0123456789");
  });

  it("secretsOf: a target's headers and URL, or a command's env (only its secret-looking values), longest first", () => {
    const http = secretsOf({ target: "http://u:pw-12345@127.0.0.1:1/mcp", headers: { "x-tenant": "acme", "x-api-key": "key-0001" } });
    expect(http).toEqual(expect.arrayContaining(["pw-12345", "key-0001"]));
    expect(http).not.toContain("acme");
    expect([...http].sort((a, b) => b.length - a.length)).toEqual(http);
    expect(secretsOf({ command: "node", env: { API_KEY: "sk-0001", DEBUG: "true", PORT: "8080", DATA: "/tmp/x" } })).toEqual(["sk-0001"]);
    expect(envSecrets(undefined)).toEqual([]);
  });
});

describe("a credential too short to redact is told of when given", () => {
  it("shortCredentialNames: a credential-like name whose value (or token after a scheme) is under 4 characters; not a number, on/off, a path or another name's value", () => {
    expect(shortCredentialNames({ API_KEY: "abc", Authorization: "Bearer ab", "X-Tenant": "ab", TOKEN_TTL: "60", USE_AUTH: "on", GOOGLE_APPLICATION_CREDENTIALS: "/k/a.json", SECRET: "s3cr3t-long" })).toEqual(["API_KEY", "Authorization"]);
  });

  it("mcpmock check --env API_KEY=abc: a warning on stderr naming the option, never the value", async () => {
    const run = await runCli(["check", "examples/weather.mock.json", "--env", "API_KEY=zq9", "--env", "OTHER=zq8", "--", process.execPath, "-e", "process.exit(3)"]);
    expect(run.stderr).toContain("mcpmock: warning: the value of --env API_KEY=... is shorter than 4 characters, which mcpmock never redacts");
    expect(run.stderr).not.toContain("OTHER=...");
    expect(run.stderr).not.toContain("zq9");
  });
});

describe("how secrets are replaced", () => {
  it("in texts and in every string and key of a value; booleans and numbers untouched", () => {
    const secrets = secretsOf({ command: "x", env: { API_KEY: "sk-0001", ON: "true" } });
    expect(redactText("key sk-0001 twice sk-0001", secrets)).toBe("key [redacted] twice [redacted]");
    expect(scrubbed({ a: ["sk-0001"], "sk-0001": 1, flag: true, n: 1234, s: "true" }, secrets)).toEqual({ a: ["[redacted]"], "[redacted]": 1, flag: true, n: 1234, s: "true" });
  });

  it("a secret with a quote or a backslash is found as JSON writes it, and URL-encoded", () => {
    const secrets = secretsOf({ command: "x", env: { API_KEY: 'a"b\\c-1' } });
    expect(redactText(JSON.stringify({ k: 'a"b\\c-1' }), secrets)).toBe('{"k":"[redacted]"}');
    expect(redactText(`?k=${encodeURIComponent('a"b\\c-1')}`, secrets)).toBe("?k=[redacted]");
  });

  it("a secret is found as PHP, Python, Go and .NET write it inside a JSON string, and form-encoded", () => {
    const password = "pä/ss+w<o>rd&1 x";
    const secrets = secretsOf({ command: "x", env: { DB_PASSWORD: password } });
    for (const written of [
      String.raw`p\u00e4\/ss+w<o>rd&1 x`, // PHP: json_encode escapes / and non-ASCII
      String.raw`p\u00e4/ss+w<o>rd&1 x`, // Python: json.dumps escapes non-ASCII
      String.raw`pä/ss+w\u003co\u003erd\u00261 x`, // Go: encoding/json escapes <, > and &
      String.raw`p\u00E4/ss\u002Bw\u003Co\u003Erd\u00261 x`, // .NET: System.Text.Json, upper-case hex, + too
      "p%C3%A4%2Fss%2Bw%3Co%3Erd%261+x", // a form (a space as +)
    ]) expect(redactText(`{"k":"${written}"}`, secrets), written).toBe('{"k":"[redacted]"}');
  });
});

describe("where an upstream's credentials go", () => {
  it("a stdio upstream: the SDK's default environment plus env, never the whole of the mock's", () => {
    process.env["MCPMOCK_RULE_TEST_TOKEN"] = "not-passed-0123";
    try {
      const env = upstreamEnvironment({ API_KEY: "k-1" });
      expect(env["API_KEY"]).toBe("k-1");
      expect(env["PATH"]).toBe(process.env["PATH"]);
      expect(env["MCPMOCK_RULE_TEST_TOKEN"]).toBeUndefined();
    } finally {
      delete process.env["MCPMOCK_RULE_TEST_TOKEN"];
    }
  });

  it("an HTTP upstream: a URL's user and password become a Basic header (a given Authorization wins), the URL loses them", () => {
    const { url, headers } = httpUpstream("http://alice:pw@127.0.0.1:1/mcp", { "x-tenant": "acme" });
    expect(url.href).toBe("http://127.0.0.1:1/mcp");
    expect(headers).toEqual({ "x-tenant": "acme", authorization: `Basic ${Buffer.from("alice:pw").toString("base64")}` });
    expect(httpUpstream("http://alice:pw@127.0.0.1:1/mcp", { Authorization: "Bearer t" }).headers).toEqual({ Authorization: "Bearer t" });
  });

  it("headers and env of the wrong shape are named, all at once, with the fix", () => {
    expect(credentialProblems({ headers: { "bad name": "x", Connection: "close", ok: 5, nl: "a\nb" }, env: { "1X": "y", N: true } }, "record")).toEqual([
      'record({ headers }): "bad name" is not a header name (letters, digits and -, no spaces or colon), like "authorization".',
      'record({ headers }): "Connection" belongs to the connection to the upstream, which mcpmock opens and frames itself; leave it out.',
      "record({ headers }): the value of \"ok\" must be a string, received number.",
      'record({ headers }): the value of "nl" holds a line break or NUL, which no header may; give it on one line.',
      'record({ env }): "1X" is not an environment variable name (letters, digits and _, not starting with a digit), like "API_KEY".',
      'record({ env }): the value of N must be a string, received boolean (write "true").',
    ]);
    expect(credentialProblems({ headers: ["a"] }, "checkDefinition")).toEqual(['checkDefinition({ headers }) takes an object of strings, like { authorization: "Bearer ..." }; received an array.']);
  });
});

describe("--header and --env", () => {
  it("parse into headers and variables; --env NAME alone passes on mcpmock's own", () => {
    expect(headerOptions(["Authorization: Bearer a:b", "X-Tenant:acme"])).toEqual({ Authorization: "Bearer a:b", "X-Tenant": "acme" });
    expect(envOptions(["API_KEY=a=b", "EMPTY=", "HOME_DIR"], { HOME_DIR: "/home/x" })).toEqual({ API_KEY: "a=b", EMPTY: "", HOME_DIR: "/home/x" });
    expect(headerOptions(undefined)).toBeUndefined();
  });

  it("a malformed flag is a usage error that shows the form, never the value", () => {
    const message = (f: () => unknown): string => {
      try {
        f();
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error("no error");
    };
    expect(message(() => headerOptions(["Bearer sk-secret-1"]))).toBe('--header takes "Name: value" with a colon, like --header "Authorization: Bearer <token>"; received one without a colon.');
    expect(message(() => headerOptions(["API_KEY=sk-secret-1"]))).toContain("API_KEY=... is the form of --env");
    expect(message(() => headerOptions(["X Bad: v"]))).toBe('--header: "X Bad" is not a header name (letters, digits and -), like --header "X-Api-Key: <key>".');
    expect(message(() => headerOptions(["Authorization:"]))).toContain('--header "Authorization:" has no value');
    expect(message(() => envOptions(["1KEY=v"]))).toContain('"1KEY" is not a variable name');
    expect(message(() => envOptions(["Authorization: Bearer x"]))).toContain('"Name: value" is the form of --header');
    expect(message(() => envOptions(["NOT_SET_ANYWHERE"], {}))).toBe("--env NOT_SET_ANYWHERE passes on mcpmock's own NOT_SET_ANYWHERE, but it is not set: set it, or give the value as --env NOT_SET_ANYWHERE=<value>.");
    expect(message(() => credentialOptions({ env: ["A=b"] }, true, "record"))).toBe('mcpmock record: --env sets a stdio server\'s environment; an HTTP server takes --header "Name: value".');
    expect(message(() => credentialOptions({ header: ["A: b"] }, false, "check"))).toBe("mcpmock check: --header is sent to an HTTP server; a stdio server takes --env NAME=value.");
    for (const m of [message(() => headerOptions(["Bearer sk-secret-1"])), message(() => headerOptions(["API_KEY=sk-secret-1"]))]) expect(m).not.toContain("sk-secret-1");
  });
});
