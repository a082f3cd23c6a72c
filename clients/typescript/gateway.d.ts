// Types of gateway.js: the Signet gateway envelope (docs/gateway.md), Node's built-in crypto only.
import type { KeyObject } from "node:crypto";

/** `legacy`: RSA PKCS#1 v1.5 + AES-256-ECB (no `Profile`); `modern`: RSA-OAEP-SHA256 + AES-256-GCM (`Profile=2`). */
export type GatewayProfile = "legacy" | "modern";

/** The form fields for the browser to post to `/<segment>/V3_0/Index`, and the session key to keep. */
export interface SealedRequest {
  /** base64 of the RSA-wrapped 32-byte session key. */
  Parameter1: string;
  /** base64 of the encrypted UTF-8 JSON payload. */
  Parameter2: string;
  /** base64 of the encrypted raw SHA-256 of the exact JSON bytes. */
  Parameter3: string;
  /** `"2"` for the modern profile, absent for the legacy one. */
  Profile?: "2";
  /** The session key, hex: store it under the ReferenceNumber (never post it) to open the result. */
  SessionKey: string;
}

/** The gateway certificate's public key, from a PEM or DER (`.cer`) file. */
export function loadPublicKey(path: string): KeyObject;

/**
 * Seals `payload` (section 5 of the guide) with a new random session key. The modern profile
 * sets `payload.Timestamp` to now (the object is changed) before encrypting it.
 */
export function seal(publicKey: KeyObject, profile: GatewayProfile, payload: Record<string, unknown>): SealedRequest;

/** Opens the `Returnvalue` posted to SUrl with the stored session key (32 bytes); throws when it does not decrypt. */
export function openResult(profile: GatewayProfile, sessionKey: Buffer, returnvalue: string): Buffer;
