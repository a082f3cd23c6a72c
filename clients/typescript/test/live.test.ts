// Against a running server: SIGNET_URL, SIGNET_CLIENT_ID, SIGNET_CLIENT_SECRET (a tenant's
// API client). Skipped only when SIGNET_URL is unset. Webhook deliveries go to a receiver started
// here on 127.0.0.1, so the server must allow private outbound addresses
// (SIGNET_OUTBOUND_ALLOW_PRIVATE=true).
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { loadPublicKey, openResult, seal, type GatewayProfile } from "@signet/client/gateway";
import { after, before, describe, it } from "node:test";
import { Signet, SignetProblem, verifyWebhook, type SignetOptions, type TokenResponse } from "../src/index.js";
import { count, onePagePdf } from "./helpers.js";

const baseUrl = process.env.SIGNET_URL;
const clientId = process.env.SIGNET_CLIENT_ID ?? "";
const clientSecret = process.env.SIGNET_CLIENT_SECRET ?? "";
const skip = baseUrl ? false : "SIGNET_URL is not set";
const unique = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function signet(extra: Partial<SignetOptions> = {}): Signet {
  if (!clientId || !clientSecret) throw new Error("SIGNET_CLIENT_ID and SIGNET_CLIENT_SECRET must be set with SIGNET_URL");
  return new Signet({ baseUrl: baseUrl!, clientId, clientSecret, ...extra } as SignetOptions);
}

/** A fetch that records each call's method, path and status. */
function recordingFetch() {
  const calls: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await globalThis.fetch(request);
    calls.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
    return response;
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

async function rejectsProblem(promise: Promise<unknown>, status: number, code: string): Promise<SignetProblem> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof SignetProblem, `expected a SignetProblem, got ${String(e)}`);
    assert.equal(e.status, status, e.message);
    assert.equal(e.code, code, e.message);
    assert.ok(e.title.length > 0);
    assert.equal(typeof e.detail, "string");
    assert.ok(e.requestId, "problems carry the requestId");
    return e;
  }
  assert.fail(`expected ${status} ${code}`);
}

/** The hidden fields of a gateway post-back page, unescaped as a browser reads them. */
function hiddenFields(html: string): Record<string, string> {
  const unescape = (v: string) =>
    v.replace(/&(#x[0-9a-f]+|#[0-9]+|lt|gt|quot|apos|amp);/gi, (_, e: string) => {
      const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" };
      if (e[0] !== "#") return named[e.toLowerCase()]!;
      return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    });
  const fields: Record<string, string> = {};
  for (const [, attrs] of html.matchAll(/<input type="hidden"([^>]*)>/g)) {
    const name = /name="([^"]*)"/.exec(attrs!)?.[1];
    const value = /value="([^"]*)"/.exec(attrs!)?.[1];
    if (name !== undefined) fields[name] = unescape(value ?? "");
  }
  return fields;
}

async function until<T>(what: string, seconds: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Uploads a one-page PDF and starts a workflow with `signers` sequential signatories. */
async function startWorkflow(client: Signet, name: string, signers: number) {
  const pdf = onePagePdf(name);
  const { data: document } = await client.api.POST("/api/v1/documents", {
    body: { documentName: `${name}.pdf`, fileData: pdf.toString("base64") },
  });
  assert.ok(document && document.documentId > 0);
  assert.equal(document.pages, 1);
  assert.equal(document.sizeBytes, pdf.length);
  const { data: started, response } = await client.api.POST("/api/v1/workflows", {
    body: {
      templateId: 0,
      workflowName: name,
      documentIds: [document.documentId],
      signatories: Array.from({ length: signers }, (_, i) => ({
        subscriberId: 0,
        emailId: `signer${i + 1}-${unique()}@ts-client.test`,
        name: `Signer ${i + 1}`,
        signingOrder: i + 1,
      })),
    },
  });
  assert.equal(response.status, 201);
  assert.ok(started);
  assert.equal(started.signingUrls.length, signers);
  return started;
}

describe("live API", { skip, concurrency: true }, () => {
  describe("tokens", () => {
    it("client credentials give a Bearer pair that the typed client uses", async () => {
      const client = signet();
      const pair = await client.signIn();
      assert.equal(pair.token_type, "Bearer");
      assert.ok(pair.expires_in > 0);
      assert.equal(pair.access_token.split(".").length, 3, "a JWT");
      const { data } = await client.api.GET("/api/v1/workflows", { params: { query: { pageSize: 1 } } });
      assert.ok(data && Array.isArray(data.items));
      assert.ok(client.tokens && client.tokens.expiresAt.getTime() > Date.now());
    });

    it("refresh gives a new pair; the spent refresh token is refused with invalid_grant", async () => {
      const client = signet();
      const first = await client.signIn();
      const second = await client.refresh(first.refresh_token);
      assert.notEqual(second.access_token, first.access_token);
      assert.notEqual(second.refresh_token, first.refresh_token);
      const fresh = signet({ tokens: second });
      const { data } = await fresh.api.GET("/api/v1/workflows", { params: { query: { pageSize: 1 } } });
      assert.ok(data);
      await rejectsProblem(client.refresh(first.refresh_token), 400, "invalid_grant");
      // Reuse detection revoked the whole family: the second refresh token is dead too.
      await rejectsProblem(client.refresh(second.refresh_token), 400, "invalid_grant");
    });

    it("a rejected access token is refreshed once and the request (with its body) sent again", async () => {
      const pair = await signet().signIn();
      const { calls, fetch } = recordingFetch();
      const renewals: string[] = [];
      const forged: TokenResponse = { ...pair, access_token: `${pair.access_token.slice(0, -4)}AAAA`, expires_in: 900 };
      const client = signet({ tokens: forged, fetch, onTokens: (_t, how) => renewals.push(how) });
      const departmentName = `TS ${unique()}`;
      const { data, response } = await client.api.POST("/api/v1/departments", { body: { departmentName } });
      assert.equal(response.status, 201);
      assert.equal(data?.departmentName, departmentName);
      assert.deepEqual(renewals, ["refresh"]);
      assert.deepEqual(calls, ["POST /api/v1/departments 401", "POST /api/v1/auth/refresh 200", "POST /api/v1/departments 201"]);
      assert.notEqual(client.tokens?.accessToken, forged.access_token);
      // The kept pair is the refreshed one: the next call needs no renewal.
      await client.api.GET("/api/v1/departments/{departmentId}", { params: { path: { departmentId: data!.departmentID } } });
      assert.deepEqual(renewals, ["refresh"]);
      assert.equal(calls.length, 4);
    });

    it("an access token about to expire is refreshed before the request", async () => {
      const pair = await signet().signIn();
      const { calls, fetch } = recordingFetch();
      const renewals: string[] = [];
      const client = signet({ tokens: { ...pair, expires_in: 10 }, fetch, onTokens: (_t, how) => renewals.push(how) });
      await client.api.GET("/api/v1/workflows", { params: { query: { pageSize: 1 } } });
      assert.deepEqual(renewals, ["refresh"]);
      assert.deepEqual(calls, ["POST /api/v1/auth/refresh 200", "GET /api/v1/workflows 200"]);
      assert.ok(client.tokens!.expiresAt.getTime() > Date.now() + 60_000);
    });

    it("when the refresh token is refused too, the client signs in again with its credentials", async () => {
      const { calls, fetch } = recordingFetch();
      const renewals: string[] = [];
      const stale: TokenResponse = { access_token: "x.y.z", refresh_token: "spent", token_type: "Bearer", expires_in: 900 };
      const client = signet({ tokens: stale, fetch, onTokens: (_t, how) => renewals.push(how) });
      await client.api.GET("/api/v1/workflows", { params: { query: { pageSize: 1 } } });
      assert.deepEqual(renewals, ["token"]);
      assert.deepEqual(calls, [
        "GET /api/v1/workflows 401",
        "POST /api/v1/auth/refresh 400",
        "POST /api/v1/auth/token 200",
        "GET /api/v1/workflows 200",
      ]);
    });

    it("wrong client credentials surface as invalid_client", async () => {
      const client = new Signet({ baseUrl: baseUrl!, clientId, clientSecret: `${clientSecret}x` });
      await rejectsProblem(client.api.GET("/api/v1/workflows"), 401, "invalid_client");
    });
  });

  it("a workflow from upload to the signed download", async () => {
    const client = signet();
    const started = await startWorkflow(client, `TS workflow ${unique()}`, 2);
    const links = [...started.signingUrls].sort((a, b) => a.sequenceNumber - b.sequenceNumber);
    for (const [i, link] of links.entries()) {
      // The signer's browser: open the page, then post the typed-name form.
      const page = await fetch(link.url);
      assert.equal(page.status, 200, `signer page ${i}`);
      await page.arrayBuffer();
      const form = new URLSearchParams({ mode: "typed", typedName: link.name, font: "handwriting", consent: "on" });
      const signed = await fetch(`${link.url}/sign`, { method: "POST", body: form });
      assert.ok(signed.ok, `signing ${i} answered ${signed.status}`);
      await signed.arrayBuffer();
    }
    const workflowId = started.workflowId;
    const details = await until("the workflow to complete", 15, async () => {
      const { data } = await client.api.GET("/api/v1/workflows/{workflowId}", { params: { path: { workflowId } } });
      return data?.state === "completed" ? data : undefined;
    });
    assert.equal(details.signatories.length, 2);
    assert.ok(details.signatories.every((s) => s.state === "signed" && (s.signedAt ?? 0) > 0));
    const { data: pdf, response } = await client.api.POST("/api/v1/documents/download", {
      body: { workflowid: workflowId },
      parseAs: "arrayBuffer",
    });
    assert.equal(response.headers.get("content-type"), "application/pdf");
    const bytes = Buffer.from(pdf!);
    assert.equal(bytes.subarray(0, 5).toString("latin1"), "%PDF-");
    assert.equal(count(bytes, "/ByteRange"), 2, "one signature per signatory");
    assert.ok(bytes.length > onePagePdf().length);
  });

  describe("webhooks", () => {
    const received: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
    let server: http.Server;
    let hookUrl: string;
    before(async () => {
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks) });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/signet`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("a registered endpoint receives a signed event that verifyWebhook accepts; a tampered body fails", async () => {
      const client = signet();
      const { data: hook, response } = await client.api.POST("/api/v1/webhooks", {
        body: { url: hookUrl, eventTypes: ["workflow.created"], description: "TypeScript client test" },
      });
      assert.equal(response.status, 201);
      assert.ok(hook);
      assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      try {
        const started = await startWorkflow(client, `TS webhook ${unique()}`, 1);
        const delivery = await until("the webhook delivery", 15, async () =>
          received.find((d) => {
            const event = JSON.parse(d.body.toString("utf8")) as { data?: { workflowId?: number } };
            return event.data?.workflowId === started.workflowId;
          }),
        );
        const event = JSON.parse(delivery.body.toString("utf8")) as { type: string; data: { workflowState: string } };
        assert.equal(event.type, "workflow.created");
        assert.equal(verifyWebhook(hook.secret, delivery.headers, delivery.body), true);
        assert.equal(verifyWebhook(hook.secret, delivery.headers, delivery.body.toString("utf8")), true);
        const tampered = Buffer.from(delivery.body.toString("utf8").replace('"workflow.created"', '"workflow.completed"'));
        assert.notDeepEqual(tampered, delivery.body);
        assert.equal(verifyWebhook(hook.secret, delivery.headers, tampered), false);
        const otherSecret = `whsec_${Buffer.alloc(24, 7).toString("base64")}`;
        assert.equal(verifyWebhook(otherSecret, delivery.headers, delivery.body), false);
        // The server's own record of the delivery, with the same webhook-id.
        const webhookId = hook.webhookId;
        const recorded = await until("the delivery to be recorded as succeeded", 10, async () => {
          const { data } = await client.api.GET("/api/v1/webhooks/{webhookId}/deliveries", {
            params: { path: { webhookId } },
          });
          return data?.find((d) => d.messageId === delivery.headers["webhook-id"] && d.state === "succeeded");
        });
        assert.equal(recorded.lastStatus, 204);
      } finally {
        const { response: deleted } = await client.api.DELETE("/api/v1/webhooks/{webhookId}", {
          params: { path: { webhookId: hook.webhookId } },
        });
        assert.equal(deleted.status, 204);
      }
    });
  });

  it("gateway: gateway.js seals a request the server accepts and opens the signed result it posts back", async () => {
    const client = signet();
    const { data: token } = await client.api.POST("/api/v1/gateway/authtokens", { body: { label: "TS client test" } });
    assert.ok(token?.authtoken);
    const cer = await fetch(`${baseUrl}/eMsecure/certificate.cer`);
    assert.equal(cer.status, 200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "signet-gw-live-"));
    try {
      const certFile = path.join(dir, "certificate.cer");
      fs.writeFileSync(certFile, Buffer.from(await cer.arrayBuffer()));
      const publicKey = loadPublicKey(certFile);
      const pdf = onePagePdf("Gateway round trip");
      for (const profile of ["modern", "legacy"] as GatewayProfile[]) {
        const reference = `TS${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`.slice(0, 20);
        const { SessionKey, ...fields } = seal(publicKey, profile, {
          Filetype: "PDF", File: pdf.toString("base64"), ReferenceNumber: reference, Name: "Asha Rao",
          Authtoken: token.authtoken, SignatureType: "4", SelectPage: "FIRST", SignaturePosition: "Bottom-Right",
          Enablefontsignature: true, SUrl: "https://erp.example.test/signed", Furl: "https://erp.example.test/failed",
          Curl: "https://erp.example.test/cancelled",
        });
        // The browser posts the fields (never the session key) and is sent to the signer page.
        const submitted = await fetch(`${baseUrl}/eMsecure/V3_0/Index`, {
          method: "POST", body: new URLSearchParams(fields as Record<string, string>), redirect: "manual",
        });
        const link = submitted.headers.get("location");
        assert.equal(submitted.status, 303, `${profile}: ${await submitted.text()}`);
        assert.match(link ?? "", /\/sign\/g\//);
        const page = new URL(link!, baseUrl);
        const signed = await fetch(`${page.href}/sign`, {
          method: "POST",
          body: new URLSearchParams({ mode: "typed", typedName: "Asha Rao", font: "handwriting", consent: "on" }),
        });
        const html = await signed.text();
        const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
        assert.equal(action, "https://erp.example.test/signed", html);
        const posted = hiddenFields(html);
        assert.equal(posted.ReturnStatus, "Success", html);
        assert.equal(posted.Referencenumber, reference);
        const result = openResult(profile, Buffer.from(SessionKey, "hex"), posted.Returnvalue!);
        assert.equal(result.subarray(0, 5).toString("latin1"), "%PDF-");
        assert.ok(result.subarray(0, pdf.length).equals(pdf), "incremental: the original bytes come first");
        assert.equal(count(result, "/ByteRange"), 1);
        assert.throws(() => openResult(profile, Buffer.alloc(32, 1), posted.Returnvalue!));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe("problems", () => {
    it("an unknown workflow is a 404 not_found SignetProblem", async () => {
      const client = signet();
      const problem = await rejectsProblem(
        client.api.GET("/api/v1/workflows/{workflowId}", { params: { path: { workflowId: 2147483000 } } }),
        404,
        "not_found",
      );
      assert.equal(problem.instance, "/api/v1/workflows/2147483000");
    });

    it("bad bodies are 400 with their code: validation_failed naming the field, malformed_body", async () => {
      const client = signet();
      const invalid = await rejectsProblem(
        client.api.POST("/api/v1/departments", { body: { departmentName: "" } }),
        400,
        "validation_failed",
      );
      assert.ok(invalid.errors && "departmentName" in invalid.errors, JSON.stringify(invalid.problem));
      const unknown = await rejectsProblem(
        client.api.POST("/api/v1/departments", { body: { departmentName: "x", color: "red" } as never }),
        400,
        "validation_failed",
      );
      assert.ok(unknown.errors, JSON.stringify(unknown.problem));
      await rejectsProblem(
        client.api.POST("/api/v1/departments", { body: { departmentName: "x" }, bodySerializer: () => "{not json" }),
        400,
        "malformed_body",
      );
    });
  });
});
