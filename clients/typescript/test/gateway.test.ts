// The gateway envelope helper (gateway.js, `@signet/client/gateway`), opened here the way the
// gateway does it (docs/gateway.md sections 3, 4 and 6), with a key and self-signed certificate
// made by openssl for the test. No server.
import assert from "node:assert/strict";
import { createCipheriv, createDecipheriv, createHash, privateDecrypt, constants, randomBytes } from "node:crypto";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { loadPublicKey, openResult, seal } from "@signet/client/gateway";
import { packageDir } from "./helpers.js";

let dir: string;
let keyPem: Buffer;
let certPem: string;
let certDer: string;

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "signet-gateway-"));
  const key = path.join(dir, "key.pem");
  certPem = path.join(dir, "gateway.pem");
  certDer = path.join(dir, "gateway.cer");
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certPem,
    "-days", "2", "-subj", "/CN=Signet gateway (test)"], { stdio: "pipe" });
  execFileSync("openssl", ["x509", "-in", certPem, "-outform", "DER", "-out", certDer], { stdio: "pipe" });
  keyPem = fs.readFileSync(key);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const payload = () => ({
  FileType: "PDF",
  File: "JVBERi0xLjcKJcOkw7zDtsOfCjEgMCBvYmoKPDw+PgplbmRvYmoKdHJhaWxlcgo8PC9Sb290IDEgMCBSPj4KJSVFT0YK",
  ReferenceNumber: "TS-0001",
  Name: "Asha Rao — ✓",
  AuthToken: "token-abc",
  SignatureType: "4",
  SelectPage: "FIRST",
  SignaturePosition: "Bottom-Right",
  EnableDrawSignature: true,
  SUrl: "https://app.example/ok",
  FUrl: "https://app.example/fail",
  CUrl: "https://app.example/cancel",
});

// RSA PKCS#1 v1.5 private decryption: Node 20 refuses it (CVE-2023-46809), so openssl does it.
function unwrapPkcs1(wrapped: Buffer): Buffer {
  const file = path.join(dir, `p1-${randomBytes(4).toString("hex")}.bin`);
  fs.writeFileSync(file, wrapped);
  return execFileSync("openssl", ["pkeyutl", "-decrypt", "-inkey", path.join(dir, "key.pem"),
    "-pkeyopt", "rsa_padding_mode:pkcs1", "-in", file]);
}
const ecb = (key: Buffer, data: Buffer, encrypt: boolean) => {
  const c = encrypt ? createCipheriv("aes-256-ecb", key, null) : createDecipheriv("aes-256-ecb", key, null);
  return Buffer.concat([c.update(data), c.final()]);
};
const gcmOpen = (key: Buffer, data: Buffer) => {
  const d = createDecipheriv("aes-256-gcm", key, data.subarray(0, 12));
  d.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]);
};
const gcmSeal = (key: Buffer, data: Buffer) => {
  const nonce = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, nonce);
  const body = Buffer.concat([c.update(data), c.final()]);
  return Buffer.concat([nonce, body, c.getAuthTag()]);
};
const b64 = (s: string) => Buffer.from(s, "base64");

test("legacy profile (PEM): RSA PKCS#1 v1.5 key, AES-256-ECB payload and SHA-256", () => {
  const sent = payload();
  const fields = seal(loadPublicKey(certPem), "legacy", sent);
  assert.equal(fields.Profile, undefined);
  const session = unwrapPkcs1(b64(fields.Parameter1));
  assert.equal(session.length, 32);
  assert.equal(session.toString("hex"), fields.SessionKey);
  const json = ecb(session, b64(fields.Parameter2), false);
  assert.deepEqual(JSON.parse(json.toString("utf8")), payload());
  assert.deepEqual(ecb(session, b64(fields.Parameter3), false), createHash("sha256").update(json).digest());
  assert.equal(b64(fields.Parameter3).length, 48);
});

test("modern profile (DER): RSA-OAEP-SHA256, AES-256-GCM, Timestamp, Profile=2", () => {
  const fields = seal(loadPublicKey(certDer), "modern", payload());
  assert.equal(fields.Profile, "2");
  const session = privateDecrypt(
    { key: keyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, b64(fields.Parameter1));
  assert.equal(session.toString("hex"), fields.SessionKey);
  const json = gcmOpen(session, b64(fields.Parameter2));
  const opened = JSON.parse(json.toString("utf8")) as Record<string, unknown>;
  const { Timestamp, ...rest } = opened;
  assert.deepEqual(rest, payload());
  assert.match(String(Timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  assert.ok(Math.abs(Date.parse(String(Timestamp)) - Date.now()) < 60_000);
  assert.deepEqual(gcmOpen(session, b64(fields.Parameter3)), createHash("sha256").update(json).digest());
  // A new session key (and nonce) for every request.
  const again = seal(loadPublicKey(certDer), "modern", payload());
  assert.notEqual(again.SessionKey, fields.SessionKey);
});

test("result: a Returnvalue sealed like the gateway opens with the session key", () => {
  const signed = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 251));
  const key = randomBytes(32);
  assert.deepEqual(openResult("legacy", key, ecb(key, signed, true).toString("base64")), signed);
  const rv = gcmSeal(key, signed);
  assert.deepEqual(openResult("modern", key, rv.toString("base64")), signed);
  rv[20] = rv[20]! ^ 1;
  assert.throws(() => openResult("modern", key, rv.toString("base64")));
  assert.throws(() => openResult("modern", randomBytes(32), gcmSeal(key, signed).toString("base64")));
});

test("CLI: `node gateway.js seal|open` as the interop test runs it", () => {
  const script = path.join(packageDir, "gateway.js");
  const payloadFile = path.join(dir, "payload.json");
  fs.writeFileSync(payloadFile, JSON.stringify(payload()));
  for (const [profile, cert] of [["legacy", certDer], ["modern", certPem]] as const) {
    const out = execFileSync(process.execPath, [script, "seal", cert, profile, payloadFile], { encoding: "utf8" });
    const fields = JSON.parse(out) as Record<string, string>;
    const session = Buffer.from(fields.SessionKey!, "hex");
    const p2 = b64(fields.Parameter2!);
    const json = profile === "modern" ? gcmOpen(session, p2) : ecb(session, p2, false);
    assert.equal((JSON.parse(json.toString("utf8")) as { ReferenceNumber: string }).ReferenceNumber, "TS-0001");
    const result = randomBytes(5000);
    const rv = (profile === "modern" ? gcmSeal(session, result) : ecb(session, result, true)).toString("base64");
    const opened = execFileSync(process.execPath, [script, "open", profile, fields.SessionKey!, rv], { encoding: "utf8" });
    assert.equal(opened, `${result.toString("base64")}\n`);
  }
  const usage = spawnSync(process.execPath, [script], { encoding: "utf8" });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /usage: seal\|open/);
});
