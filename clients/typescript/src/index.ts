// @signet/client: a thin hand-written layer over the generated types (src/schema.ts, from
// openapi.json by openapi-typescript) and openapi-fetch: tokens and their refresh, RFC 9457
// problems as exceptions, and Standard Webhooks verification.
import { createHmac, timingSafeEqual } from "node:crypto";
import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };
export type Schemas = components["schemas"];
export type ProblemDetails = Schemas["ProblemDetails"];
export type TokenResponse = Schemas["TokenResponse"];
/** The typed client: `signet.api.GET("/api/v1/workflows/{workflowId}", { params: { path: { workflowId } } })`. */
export type SignetApi = Client<paths, "application/json">;

const PROBLEM_MEDIA_TYPE = "application/problem+json";

/**
 * An RFC 9457 answer (`application/problem+json`) of the server. `code` is Signet's stable
 * machine-readable code (`not_found`, `validation_failed`, `invalid_grant`, …; docs/api.md).
 */
export class SignetProblem extends Error {
  override readonly name = "SignetProblem";
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  readonly instance: string | undefined;
  readonly requestId: string | undefined;
  /** For `validation_failed`: field name (`$` = the body) -> messages. */
  readonly errors: Record<string, string[]> | undefined;
  /** The body as the server sent it. */
  readonly problem: Partial<ProblemDetails>;

  constructor(status: number, problem: Partial<ProblemDetails>) {
    const code = typeof problem.code === "string" ? problem.code : "unknown";
    const title = typeof problem.title === "string" ? problem.title : `HTTP ${status}`;
    const detail = typeof problem.detail === "string" ? problem.detail : "";
    super(`${status} ${code}: ${title}${detail ? ` (${detail})` : ""}`);
    this.status = typeof problem.status === "number" ? problem.status : status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.type = typeof problem.type === "string" ? problem.type : "about:blank";
    this.instance = problem.instance ?? undefined;
    this.requestId = problem.requestId ?? undefined;
    this.errors = problem.errors ?? undefined;
    this.problem = problem;
  }

  /** Reads a problem answer; `undefined` when the response is not `application/problem+json`. */
  static async fromResponse(response: Response): Promise<SignetProblem | undefined> {
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== PROBLEM_MEDIA_TYPE) return undefined;
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = { detail: text };
    }
    return new SignetProblem(response.status, body !== null && typeof body === "object" ? (body as ProblemDetails) : {});
  }
}

/** Throws a `SignetProblem` for every `application/problem+json` answer. */
const problemMiddleware: Middleware = {
  async onResponse({ response }) {
    const problem = await SignetProblem.fromResponse(response);
    if (problem) throw problem;
    return undefined;
  },
};

export type Credentials =
  | { clientId: string; clientSecret: string }
  | { username: string; password: string; totp?: string };

export type SignetOptions = Credentials & {
  /** The server, e.g. `https://signet.example` (no `/api/v1`). */
  baseUrl: string;
  /** Tokens kept from an earlier session, used (and refreshed) before signing in again. */
  tokens?: TokenResponse;
  /** Refresh this many seconds before the access token expires (default 30). */
  refreshSkewSeconds?: number;
  /** Called with every new token pair (to persist it), and how it was obtained. */
  onTokens?: (tokens: TokenResponse, how: "token" | "refresh") => void;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
};

// Operations that authenticate by their body: no bearer token, no retry on 401.
const TOKEN_PATHS = new Set(["/api/v1/auth/token", "/api/v1/auth/refresh", "/api/v1/auth/revoke"]);

/**
 * A Signet API client. `api` is the typed openapi-fetch client; every call carries a bearer
 * token, obtained on first use from `POST /api/v1/auth/token`, refreshed through
 * `POST /api/v1/auth/refresh` shortly before it expires and once when the server rejects it
 * (401), the request then being sent again. Problem answers throw `SignetProblem`.
 */
export class Signet {
  readonly api: SignetApi;
  /** An unauthenticated typed client (token operations, public endpoints). */
  readonly anonymous: SignetApi;
  private readonly credentials: Credentials;
  private readonly skewMs: number;
  private readonly onTokens: SignetOptions["onTokens"];
  private tokenSet: { access: string; refresh: string; expiresAt: number } | undefined;
  private pending: Promise<string> | undefined;
  private readonly retries = new Map<string, Request>();

  constructor(options: SignetOptions) {
    const baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.credentials =
      "clientId" in options
        ? { clientId: options.clientId, clientSecret: options.clientSecret }
        : { username: options.username, password: options.password, ...(options.totp ? { totp: options.totp } : {}) };
    this.skewMs = (options.refreshSkewSeconds ?? 30) * 1000;
    this.onTokens = options.onTokens;
    if (options.tokens) this.keep(options.tokens);
    const fetchOption = options.fetch ? { fetch: options.fetch } : {};
    this.anonymous = createClient<paths>({ baseUrl, ...fetchOption });
    this.anonymous.use(problemMiddleware);
    this.api = createClient<paths>({ baseUrl, ...fetchOption });
    // onResponse runs in reverse order: the auth middleware retries a 401 first, then the
    // problem middleware throws for whatever answer is left.
    this.api.use(problemMiddleware, this.authMiddleware());
  }

  /** The current tokens (after at least one call), e.g. to persist them. */
  get tokens(): { accessToken: string; refreshToken: string; expiresAt: Date } | undefined {
    const t = this.tokenSet;
    return t && { accessToken: t.access, refreshToken: t.refresh, expiresAt: new Date(t.expiresAt) };
  }

  /** A valid access token: the kept one, or a refreshed / new one. */
  async accessToken(): Promise<string> {
    const t = this.tokenSet;
    if (t && Date.now() < t.expiresAt - this.skewMs) return t.access;
    return this.renew(t?.access);
  }

  /**
   * Gets a new access token, once for all concurrent callers: through the refresh token when
   * there is one, else (or when the refresh token is refused) with the credentials.
   * `rejected` is the token that failed; when another call already replaced it, that is used.
   */
  async renew(rejected?: string): Promise<string> {
    if (this.pending) return this.pending;
    const t = this.tokenSet;
    if (t && rejected !== undefined && t.access !== rejected && Date.now() < t.expiresAt - this.skewMs) {
      return t.access;
    }
    this.pending = (async () => {
      try {
        if (t) {
          try {
            return this.keep(await this.refresh(t.refresh), "refresh");
          } catch (e) {
            if (!(e instanceof SignetProblem && e.code === "invalid_grant")) throw e;
            // Spent, expired or revoked refresh token: sign in again below.
          }
        }
        return this.keep(await this.signIn(), "token");
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  /** `POST /api/v1/auth/token` with the credentials (does not keep the answer). */
  async signIn(): Promise<TokenResponse> {
    const c = this.credentials;
    const body: Schemas["TokenRequest"] =
      "clientId" in c
        ? { grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret }
        : { grant_type: "password", username: c.username, password: c.password, ...(c.totp ? { totp: c.totp } : {}) };
    const { data } = await this.anonymous.POST("/api/v1/auth/token", { body });
    return expectTokens(data);
  }

  /** `POST /api/v1/auth/refresh`: spends `refreshToken`, answers a new pair (does not keep it). */
  async refresh(refreshToken: string): Promise<TokenResponse> {
    const { data } = await this.anonymous.POST("/api/v1/auth/refresh", { body: { refresh_token: refreshToken } });
    return expectTokens(data);
  }

  /** Revokes the session (the refresh token's family) on the server and forgets the tokens. */
  async signOut(): Promise<void> {
    const t = this.tokenSet;
    this.tokenSet = undefined;
    if (t) await this.anonymous.POST("/api/v1/auth/revoke", { body: { token: t.refresh } });
  }

  private keep(tokens: TokenResponse, how?: "token" | "refresh"): string {
    this.tokenSet = {
      access: tokens.access_token,
      refresh: tokens.refresh_token,
      expiresAt: Date.now() + tokens.expires_in * 1000,
    };
    if (how) this.onTokens?.(tokens, how);
    return tokens.access_token;
  }

  private authMiddleware(): Middleware {
    return {
      onRequest: async ({ request, schemaPath, id }) => {
        if (TOKEN_PATHS.has(schemaPath)) return undefined;
        const token = await this.accessToken();
        request.headers.set("Authorization", `Bearer ${token}`);
        this.retries.set(id, request.clone());
        return request;
      },
      onResponse: async ({ response, schemaPath, id, options }) => {
        const original = this.retries.get(id);
        this.retries.delete(id);
        if (response.status !== 401 || !original || TOKEN_PATHS.has(schemaPath)) return undefined;
        const rejected = (original.headers.get("Authorization") ?? "").replace(/^Bearer /, "");
        const token = await this.renew(rejected);
        const again = new Request(original, { headers: new Headers(original.headers) });
        again.headers.set("Authorization", `Bearer ${token}`);
        await response.body?.cancel();
        return options.fetch(again);
      },
      onError: ({ id }) => {
        this.retries.delete(id);
        return undefined;
      },
    };
  }
}

function expectTokens(data: TokenResponse | undefined): TokenResponse {
  if (!data || typeof data.access_token !== "string" || typeof data.refresh_token !== "string") {
    throw new Error("the token endpoint answered no token pair");
  }
  return data;
}

// ---------------------------------------------------------------------------------------------
// Webhooks (Standard Webhooks)

export type WebhookHeaders =
  | Headers
  | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(" ") : value;
}

/**
 * Verifies a webhook delivery per Standard Webhooks: the HMAC-SHA256 with the key (the base64
 * after `whsec_`) of `"{webhook-id}.{webhook-timestamp}.{body}"` must equal one of the
 * space-separated `v1,<base64>` signatures of `webhook-signature` (compared in constant time),
 * and `webhook-timestamp` must be within `toleranceSeconds` of now (past or future).
 * `body` is the raw body exactly as received. Answers false on any failure.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  toleranceSeconds = 300,
  now: Date = new Date(),
): boolean {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures || !/^\d{1,15}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  if (key.length === 0) return false;
  const expected = createHmac("sha256", key)
    .update(`${id}.${timestamp}.`)
    .update(typeof body === "string" ? Buffer.from(body, "utf8") : body)
    .digest();
  let ok = false;
  for (const entry of signatures.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    const given = Buffer.from(entry.slice(comma + 1), "base64");
    // Every candidate is compared (no early exit), each in constant time.
    if (given.length === expected.length && timingSafeEqual(given, expected)) ok = true;
  }
  return ok;
}
