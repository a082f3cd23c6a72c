#!/usr/bin/env node
// A Signet gateway client in Node.js (built-in `crypto` only), written the way real
// integrations do it. Used by the interop tests and quoted in docs/gateway.md.
// Shipped in @signet/client as `@signet/client/gateway` (types: gateway.d.ts):
//   const { loadPublicKey, seal, openResult } = require('@signet/client/gateway');
//
//   seal <cert.(pem|cer)> <legacy|modern> <payload.json>  -> JSON {Parameter1..3, Profile?, SessionKey}
//   open <legacy|modern> <session key hex> <Returnvalue>  -> the plaintext, base64, on stdout
'use strict';
const crypto = require('crypto');
const fs = require('fs');

function loadPublicKey(path) {
  const data = fs.readFileSync(path);
  const cert = data.toString('latin1').trimStart().startsWith('-----BEGIN')
    ? new crypto.X509Certificate(data.toString('utf8'))
    : new crypto.X509Certificate(data); // DER .cer
  return cert.publicKey;
}

// Legacy profile: AES-256-ECB with PKCS#7 padding (Node's default auto padding), no IV.
function aesEcbEncrypt(key, data) {
  const c = crypto.createCipheriv('aes-256-ecb', key, null);
  return Buffer.concat([c.update(data), c.final()]);
}
function aesEcbDecrypt(key, data) {
  const d = crypto.createDecipheriv('aes-256-ecb', key, null);
  return Buffer.concat([d.update(data), d.final()]);
}

// Modern profile: AES-256-GCM, random 12-byte nonce, output nonce || ciphertext || tag.
function gcmEncrypt(key, data) {
  const nonce = crypto.randomBytes(12);
  const c = crypto.createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([c.update(data), c.final()]);
  return Buffer.concat([nonce, body, c.getAuthTag()]);
}
function gcmDecrypt(key, data) {
  const d = crypto.createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
  d.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]);
}

function seal(publicKey, profile, payload) {
  const sessionKey = crypto.randomBytes(32); // a new key for every request
  let wrapped;
  let encrypt;
  if (profile === 'modern') {
    payload.Timestamp = new Date().toISOString();
    // oaepHash sets both the OAEP hash and the MGF1 hash to SHA-256.
    wrapped = crypto.publicEncrypt(
      { key: publicKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, sessionKey);
    encrypt = gcmEncrypt;
  } else {
    wrapped = crypto.publicEncrypt({ key: publicKey, padding: crypto.constants.RSA_PKCS1_PADDING }, sessionKey);
    encrypt = aesEcbEncrypt;
  }
  const json = Buffer.from(JSON.stringify(payload), 'utf8');
  const digest = crypto.createHash('sha256').update(json).digest(); // raw 32 bytes
  const fields = {
    Parameter1: wrapped.toString('base64'),
    Parameter2: encrypt(sessionKey, json).toString('base64'),
    Parameter3: encrypt(sessionKey, digest).toString('base64'),
  };
  if (profile === 'modern') fields.Profile = '2';
  fields.SessionKey = sessionKey.toString('hex'); // store it with the ReferenceNumber
  return fields;
}

function openResult(profile, sessionKey, returnvalue) {
  const data = Buffer.from(returnvalue, 'base64');
  return profile === 'modern' ? gcmDecrypt(sessionKey, data) : aesEcbDecrypt(sessionKey, data);
}

module.exports = { loadPublicKey, seal, openResult };

if (require.main === module) {
  const [cmd, a, b, c] = process.argv.slice(2);
  if (cmd === 'seal') {
    const payload = JSON.parse(fs.readFileSync(c, 'utf8'));
    process.stdout.write(JSON.stringify(seal(loadPublicKey(a), b, payload)) + '\n');
  } else if (cmd === 'open') {
    process.stdout.write(openResult(a, Buffer.from(b, 'hex'), c).toString('base64') + '\n');
  } else {
    console.error('usage: seal|open ...');
    process.exit(2);
  }
}
