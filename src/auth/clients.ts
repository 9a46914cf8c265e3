/**
 * The clients the mock authorization server knows: those registered at `/register` (RFC 7591
 * dynamic client registration) and those named by a client ID metadata document URL, fetched
 * from loopback only: the mock never reaches beyond the machine.
 * @module
 */
import { defaultAuthMethod, type AuthOptions, type TokenEndpointAuthMethod } from "./auth-options.js";
import { publicJwkProblem } from "./jwk.js";
import { randomToken } from "./tokens.js";
import { BoundedMap } from "../values/bounded-map.js";
import { readStreamCapped } from "../values/capped-stream.js";

/** A client the authorization server knows. */
export interface KnownClient {
  readonly clientId: string;
  /** Set for `client_secret_basic` / `client_secret_post` clients. */
  readonly clientSecret: string | undefined;
  /** Empty for a pre-registered client that named none: any loopback redirect URI will do. */
  readonly redirectUris: readonly string[];
  readonly authMethod: TokenEndpointAuthMethod;
  /** For `private_key_jwt` clients: the public keys its client assertions are checked against. */
  readonly jwks?: { readonly keys: readonly JsonWebKey[] };
  /** The metadata as registered (or as the document said). */
  readonly metadata: Record<string, unknown>;
}

/** An OAuth error: the `error` code and a description that says the fix. */
export interface OAuthProblem {
  readonly error: string;
  readonly description: string;
}

const AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"] as const;
/** What the registration response alone says (RFC 7591 section 3.2.1): a request's own values are never echoed back as issued. */
const ISSUED_FIELDS = ["client_id", "client_secret", "client_id_issued_at", "client_secret_expires_at", "registration_access_token", "registration_client_uri"];

/** The most registered clients kept: past it the oldest registration is dropped (and the auth events say so). */
export const MAX_CLIENTS = 1000;
/** Bytes of registered clients kept at most (a registration's metadata may take the body's 64 KiB): past it, as past the count. */
const MAX_CLIENT_BYTES = 16 * 1024 * 1024;
/** How many registered clients are kept, for messages. */
export const KEPT_CLIENTS = `the latest ${MAX_CLIENTS} registered clients (at most ${MAX_CLIENT_BYTES / 1024 / 1024} MiB of their metadata)`;

/**
 * The client id and secret of an HTTP Basic `Authorization` header (RFC 6749 section 2.3.1: each
 * form-encoded, then joined by the first colon); `undefined` for another scheme, `"malformed"`
 * when they are not valid percent-encoding.
 */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | "malformed" | undefined {
  const basic = /^Basic +(.+)$/i.exec(header ?? "");
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1] as string, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  try {
    return { id: decodeURIComponent((colon < 0 ? decoded : decoded.slice(0, colon)).replace(/\+/g, " ")), secret: colon < 0 ? "" : decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")) };
  } catch {
    return "malformed";
  }
}
/** Bytes of a client ID metadata document read at most. */
const MAX_DOCUMENT_BYTES = 64 * 1024;
/** Milliseconds a client ID metadata document fetch may take. */
const DOCUMENT_TIMEOUT_MS = 2000;

/**
 * The body of `res` as text, or `undefined` past `max` bytes: the read stops there and the rest
 * is never taken (a document that streams without end would otherwise grow the mock's memory
 * for as long as it sends).
 */
async function cappedText(res: Response, max: number): Promise<string | undefined> {
  if (Number(res.headers.get("content-length")) > max) {
    await res.body?.cancel();
    return undefined;
  }
  const read = res.body ? await readStreamCapped(res.body, max) : new Uint8Array(0);
  return read === "cut" ? undefined : Buffer.from(read).toString("utf8");
}

function isLoopbackName(name: string): boolean {
  return name === "localhost" || name === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** A client_id that is a URL: a client ID metadata document. */
export function isUrlClientId(clientId: string): boolean {
  return /^https?:\/\//.test(clientId);
}

function redirectProblem(uris: unknown): OAuthProblem | undefined {
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === "string")) {
    return { error: "invalid_redirect_uri", description: 'redirect_uris must be a non-empty list of URLs, like ["http://127.0.0.1:3000/callback"].' };
  }
  for (const u of uris as string[]) {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      return { error: "invalid_redirect_uri", description: `redirect_uris holds ${JSON.stringify(u)}, which is not an absolute URL.` };
    }
    // RFC 6749 section 3.1.2 and the MCP authorization pages: no fragment; HTTPS, or http on a loopback host.
    const why = u.includes("#") ? "has a fragment" : url.protocol === "https:" || (url.protocol === "http:" && isLoopbackName(url.hostname)) ? undefined : url.protocol === "http:" ? "is plain http beyond loopback" : `has the scheme ${url.protocol}`;
    if (why !== undefined) {
      return { error: "invalid_redirect_uri", description: `redirect_uris holds ${JSON.stringify(u)}, which ${why}: a redirect URI must be https, or http on a loopback host (localhost, 127.0.0.1, [::1]), without a #fragment.` };
    }
  }
  return undefined;
}

/** Whether `client` may be sent back to `redirectUri`: one it registered, or (having named none) any on a loopback host. */
export function redirectAllowed(client: KnownClient, redirectUri: string): boolean {
  if (client.redirectUris.length > 0) return client.redirectUris.includes(redirectUri);
  return redirectProblem([redirectUri]) === undefined && isLoopbackName(new URL(redirectUri).hostname);
}

/** Registered, pre-registered and fetched clients. */
export class ClientRegistry {
  /** The methods a registration may be given (`auth.tokenEndpointAuthMethods`). */
  readonly #methods: readonly KnownClient["authMethod"][];
  /** Whether client ID metadata document URLs are taken. */
  readonly #documents: boolean;
  /** The clients known in advance (`auth.clients`): never dropped. */
  readonly #known = new Map<string, KnownClient>();

  constructor(options: Pick<AuthOptions, "clients" | "tokenEndpointAuthMethods" | "clientIdMetadataDocuments"> = {}) {
    this.#methods = options.tokenEndpointAuthMethods ?? AUTH_METHODS;
    this.#documents = options.clientIdMetadataDocuments !== false;
    for (const c of options.clients ?? []) {
      const authMethod = c.tokenEndpointAuthMethod ?? defaultAuthMethod(c);
      this.#known.set(c.clientId, { clientId: c.clientId, clientSecret: c.clientSecret, redirectUris: c.redirectUris ?? [], authMethod, ...(c.jwks ? { jwks: c.jwks } : {}), metadata: { client_id: c.clientId, ...(c.redirectUris ? { redirect_uris: c.redirectUris } : {}), token_endpoint_auth_method: authMethod } });
    }
  }

  readonly #clients = new BoundedMap<string, KnownClient>(MAX_CLIENTS, MAX_CLIENT_BYTES);
  /** Ids dropped past the cap (as many again remembered), so their use says why they are unknown. */
  readonly #dropped = new BoundedMap<string, true>(MAX_CLIENTS, MAX_CLIENT_BYTES);
  readonly #droppedListeners = new Set<(dropped: string, by: string) => void>();

  /**
   * Calls `listener` whenever a registration drops the oldest client past the cap, with the
   * dropped client's id and the new one's; returns the unsubscribe function.
   */
  onDropped(listener: (dropped: string, by: string) => void): () => void {
    this.#droppedListeners.add(listener);
    return () => this.#droppedListeners.delete(listener);
  }

  /** Registers a client (RFC 7591): its information, or the problem with its metadata. */
  register(body: unknown): KnownClient | OAuthProblem {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return { error: "invalid_client_metadata", description: 'The registration body must be a JSON object, like {"redirect_uris":["http://127.0.0.1:3000/callback"]}.' };
    }
    const metadata = body as Record<string, unknown>;
    const bad = redirectProblem(metadata["redirect_uris"]);
    if (bad) return bad;
    const method = metadata["token_endpoint_auth_method"] ?? "none";
    if (!AUTH_METHODS.includes(method as never)) {
      return { error: "invalid_client_metadata", description: `token_endpoint_auth_method ${JSON.stringify(method)} is not supported; use one of ${this.#methods.join(", ")}.` };
    }
    // RFC 7591 section 3.2.1: the server may replace a value; a method it does not take becomes its first.
    const authMethod = this.#methods.includes(method as never) ? (method as KnownClient["authMethod"]) : (this.#methods[0] as KnownClient["authMethod"]);
    const jwks = metadata["jwks"] as KnownClient["jwks"] | undefined;
    if (authMethod === "private_key_jwt" && !(typeof jwks === "object" && jwks !== null && Array.isArray(jwks.keys) && jwks.keys.length > 0)) {
      return { error: "invalid_client_metadata", description: 'token_endpoint_auth_method private_key_jwt needs jwks, the client\'s public keys, like {"jwks":{"keys":[{"kty":"EC",...}]}} (RFC 7591 section 2).' };
    }
    // RFC 7591 section 2: jwks holds the client's public keys; a private one is never kept (nor echoed back).
    const badKey = Array.isArray(jwks?.keys) ? jwks.keys.map((key, i) => ({ i, why: publicJwkProblem(key) })).find((k) => k.why !== undefined) : undefined;
    if (jwks !== undefined && (badKey !== undefined || !Array.isArray(jwks?.keys))) {
      return { error: "invalid_client_metadata", description: `jwks must hold the client's public keys, like {"keys":[{"kty":"EC",...}]} (RFC 7591 section 2): ${badKey ? `keys[${badKey.i}] ${badKey.why}` : "it has no keys list"}.` };
    }
    const client: KnownClient = {
      clientId: `client-${randomToken(9)}`,
      clientSecret: authMethod === "none" || authMethod === "private_key_jwt" ? undefined : randomToken(),
      ...(authMethod === "private_key_jwt" ? { jwks } : {}),
      redirectUris: metadata["redirect_uris"] as string[],
      authMethod,
      metadata: { ...Object.fromEntries(Object.entries(metadata).filter(([name]) => !ISSUED_FIELDS.includes(name))), token_endpoint_auth_method: authMethod },
    };
    this.#keep(client);
    return client;
  }

  #keep(client: KnownClient): void {
    for (const [oldest] of this.#clients.set(client.clientId, client)) {
      this.#dropped.set(oldest, true);
      for (const listener of this.#droppedListeners) listener(oldest, client.clientId);
    }
  }

  /** A client by id: registered, or (a URL id) its metadata document fetched from loopback. */
  async find(clientId: string): Promise<KnownClient | OAuthProblem> {
    const known = this.#known.get(clientId) ?? this.#clients.get(clientId);
    if (known) return known;
    if (this.#dropped.has(clientId)) {
      return { error: "invalid_client", description: `client_id ${JSON.stringify(clientId)} was registered, then dropped: the mock keeps ${KEPT_CLIENTS}. Register again (or register fewer clients per mock).` };
    }
    if (!isUrlClientId(clientId)) {
      return { error: "invalid_client", description: `client_id ${JSON.stringify(clientId)} is not registered: register at the registration_endpoint first, or use a client ID metadata document URL.` };
    }
    if (!this.#documents) {
      return { error: "invalid_client", description: `client_id ${clientId} is a client ID metadata document URL, and this server does not take them (auth.clientIdMetadataDocuments is false): register at the registration_endpoint, or use a client of auth.clients.` };
    }
    return this.#fetchDocument(clientId);
  }

  async #fetchDocument(url: string): Promise<KnownClient | OAuthProblem> {
    const parsed = new URL(url);
    if (!isLoopbackName(parsed.hostname)) {
      return { error: "invalid_client", description: `client_id ${url} is a client ID metadata document beyond loopback; mcpmock fetches documents from loopback URLs only (serve it on 127.0.0.1).` };
    }
    let doc: unknown;
    try {
      const res = await fetch(url, { headers: { accept: "application/json" }, redirect: "error", signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS) });
      if (!res.ok) {
        await res.body?.cancel();
        return { error: "invalid_client", description: `The client ID metadata document ${url} answered HTTP ${res.status}.` };
      }
      const text = await cappedText(res, MAX_DOCUMENT_BYTES);
      if (text === undefined) return { error: "invalid_client", description: `The client ID metadata document ${url} is larger than ${MAX_DOCUMENT_BYTES} bytes.` };
      doc = JSON.parse(text);
    } catch (error) {
      return { error: "invalid_client", description: `The client ID metadata document ${url} could not be read: ${String(error)}.` };
    }
    const metadata = (typeof doc === "object" && doc !== null ? doc : {}) as Record<string, unknown>;
    if (metadata["client_id"] !== url) {
      return { error: "invalid_client", description: `The client ID metadata document ${url} must hold "client_id": ${JSON.stringify(url)} (it holds ${JSON.stringify(metadata["client_id"])}).` };
    }
    const bad = redirectProblem(metadata["redirect_uris"]);
    if (bad) return { error: "invalid_client", description: `The client ID metadata document ${url}: ${bad.description}` };
    // A document names a public client; the client is not kept, so a changed document is read again.
    return { clientId: url, clientSecret: undefined, redirectUris: metadata["redirect_uris"] as string[], authMethod: "none", metadata };
  }

  /** Forgets every registered client. */
  clear(): void {
    this.#clients.clear();
    this.#dropped.clear();
  }
}
