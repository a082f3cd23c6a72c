// verifyWebhook against signatures made here the way docs/api.md describes (no server).
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { test } from "node:test";
import { verifyWebhook } from "../src/index.js";

const key = randomBytes(24);
const secret = `whsec_${key.toString("base64")}`;
const body = JSON.stringify({ type: "workflow.completed", timestamp: "2026-12-06T10:00:00Z", data: { workflowId: 7 } });

function sign(k: Buffer, id: string, ts: string, b: string | Buffer): string {
  return createHmac("sha256", k).update(`${id}.${ts}.`).update(b).digest("base64");
}

function headers(ts = Math.floor(Date.now() / 1000), signature?: string) {
  const id = "msg_1_2";
  return {
    "webhook-id": id,
    "webhook-timestamp": String(ts),
    "webhook-signature": signature ?? `v1,${sign(key, id, String(ts), body)}`,
  };
}

test("a correctly signed delivery verifies (record, Headers, Buffer body)", () => {
  const h = headers();
  assert.equal(verifyWebhook(secret, h, body), true);
  assert.equal(verifyWebhook(secret, new Headers(h), Buffer.from(body)), true);
  const upper = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v]));
  assert.equal(verifyWebhook(secret, upper, body), true);
});

test("one of several space-separated signatures is enough; other versions are ignored", () => {
  const ts = Math.floor(Date.now() / 1000);
  const good = headers(ts)["webhook-signature"];
  const other = `v1,${sign(randomBytes(24), "msg_1_2", String(ts), body)}`;
  assert.equal(verifyWebhook(secret, headers(ts, `${other} v1a,abcd ${good}`), body), true);
  assert.equal(verifyWebhook(secret, headers(ts, `${other} v1a,${good.slice(3)}`), body), false);
});

test("a tampered body, id, signature or secret fails", () => {
  const h = headers();
  assert.equal(verifyWebhook(secret, h, body.replace("7", "8")), false);
  assert.equal(verifyWebhook(secret, { ...h, "webhook-id": "msg_1_3" }, body), false);
  const sig = h["webhook-signature"];
  const raw = Buffer.from(sig.slice(3), "base64");
  raw[0] = raw[0]! ^ 1;
  const flipped = `v1,${raw.toString("base64")}`;
  assert.equal(verifyWebhook(secret, { ...h, "webhook-signature": flipped }, body), false);
  assert.equal(verifyWebhook(secret, { ...h, "webhook-signature": "v1,short" }, body), false);
  assert.equal(verifyWebhook(`whsec_${randomBytes(24).toString("base64")}`, h, body), false);
  assert.equal(verifyWebhook(secret, { "webhook-id": h["webhook-id"], "webhook-timestamp": h["webhook-timestamp"] }, body), false);
});

test("timestamps outside the tolerance fail, both past and future", () => {
  const now = Math.floor(Date.now() / 1000);
  assert.equal(verifyWebhook(secret, headers(now - 290), body), true);
  assert.equal(verifyWebhook(secret, headers(now - 400), body), false);
  assert.equal(verifyWebhook(secret, headers(now + 400), body), false);
  assert.equal(verifyWebhook(secret, headers(now - 400), body, 600), true);
  assert.equal(verifyWebhook(secret, headers(now, undefined), body, 300, new Date((now + 301) * 1000)), false);
  const id = "msg_1_2";
  assert.equal(verifyWebhook(secret, { "webhook-id": id, "webhook-timestamp": "soon", "webhook-signature": `v1,${sign(key, id, "soon", body)}` }, body), false);
});
