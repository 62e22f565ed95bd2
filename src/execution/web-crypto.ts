/**
 * The few Web Crypto steps the ledger and approvals need, through `globalThis.crypto.subtle`, so
 * they run the same in Node, browsers, Deno, Bun and edge runtimes.
 */

const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  const found = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (found === undefined) throw new TypeError("this runtime has no Web Crypto (globalThis.crypto.subtle), which fingerprints and approvals need");
  return found;
}

/** The SHA-256 digest of `text`'s UTF-8 bytes. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest("SHA-256", encoder.encode(text)));
}

/** Bytes as lower-case hex digits. */
export function hex(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += byte.toString(16).padStart(2, "0");
  return text;
}

/** An HMAC-SHA256 key for signing and verifying, from a secret's bytes. */
export function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  return subtle().importKey("raw", secret as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** The HMAC-SHA256 signature of `text` under `key`. */
export async function sign(key: CryptoKey, text: string): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign("HMAC", key, encoder.encode(text)));
}

/** Whether `signature` is `text`'s signature under `key` (compared in constant time by Web Crypto). */
export function verify(key: CryptoKey, signature: Uint8Array, text: string): Promise<boolean> {
  return subtle().verify("HMAC", key, signature as BufferSource, encoder.encode(text));
}

/** `count` random bytes. */
export function randomBytes(count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  (globalThis as { crypto: Crypto }).crypto.getRandomValues(bytes);
  return bytes;
}

/** Bytes as unpadded base64url. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * Unpadded base64url as bytes; `undefined` for anything else, including a text that is not the one
 * spelling of its bytes (its last character holding bits the bytes do not use): one value, one text,
 * so that nothing keyed by the text (a job id made from a token) is told apart by another spelling.
 */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  return toBase64Url(bytes) === text ? bytes : undefined;
}

/** Text as unpadded base64url of its UTF-8 bytes. */
export function textToBase64Url(text: string): string {
  return toBase64Url(encoder.encode(text));
}

/** Unpadded base64url of UTF-8 bytes as text; `undefined` when it is not that. */
export function textFromBase64Url(text: string): string | undefined {
  const bytes = fromBase64Url(text);
  if (bytes === undefined) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
