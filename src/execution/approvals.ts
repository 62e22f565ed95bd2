import { ToolApprovalError } from "../errors.js";
import { describeOption } from "../options.js";
import { fromBase64Url, hmacKey, randomBytes, sign, textFromBase64Url, textToBase64Url, toBase64Url, verify } from "./web-crypto.js";

/**
 * What a person approves: a checked call of a tool that needs approval, as plain JSON (safe to
 * store, send to a browser, and bring back after a restart).
 */
export interface ApprovalRequest {
  /** The id of the call to approve. */
  toolCallId: string;
  /** The tool's registry name. */
  toolName: string;
  /** The checked private copy of the arguments: exactly what will run. */
  arguments: unknown;
  /** `callFingerprint(toolName, arguments)`: what the approval binds. */
  fingerprint: string;
  /** When the registry asked, as an ISO 8601 time. */
  requestedAt: string;
}

/** Options of `registry.approve`. */
export interface ApproveOptions {
  /**
   * How long the token may be used, in milliseconds.
   * @default 600000 (10 minutes)
   */
  expiresInMs?: number | undefined;
  /** Who approved (an id, never a secret), carried in the token for your records. */
  approvedBy?: string | undefined;
}

/** What an approval token says, once its signature is verified. */
export interface ApprovalClaims {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly fingerprint: string;
  /** When the token stops being valid, in milliseconds since the epoch. */
  readonly expiresAt: number;
  /** Unique per token: the ledger remembers it once used. */
  readonly nonce: string;
  readonly approvedBy?: string;
}

export const DEFAULT_APPROVAL_TTL_MS = 600_000;

/** Tokens longer than this are refused unread: a real one is a few hundred characters. */
const MAX_TOKEN_LENGTH = 4_096;

/** The length of the random secret a registry signs with when it is given none: HMAC-SHA256's full strength. */
const RANDOM_SECRET_BYTES = 32;

/**
 * Signs and verifies approval tokens with HMAC-SHA256 under one secret (Web Crypto). A token is
 * `<claims>.<signature>`, both base64url: the claims are readable, and any change to them, or a
 * token signed under another secret, fails verification.
 */
export class ApprovalSigner {
  #key: Promise<CryptoKey> | undefined;

  /**
   * @param secret the registry's `approvalSecret`; with none, a random secret of this signer's own,
   * made on first use (its tokens are then good for this signer only, never after a restart)
   * @throws TypeError for a secret that is not a non-empty string or bytes
   */
  constructor(secret: unknown) {
    if (secret === undefined) return;
    const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : secret instanceof Uint8Array ? secret.slice() : undefined;
    if (bytes === undefined || bytes.length === 0) {
      throw new TypeError(`approvalSecret must be a non-empty string or Uint8Array (best: ${RANDOM_SECRET_BYTES} random bytes, kept secret), got ${bytes === undefined ? describeOption(secret) : "0 bytes"}`);
    }
    this.#key = importedKey(bytes);
  }

  /** The signing key: the given secret's, or a random one made now, on the first approval. */
  #signingKey(): Promise<CryptoKey> {
    return (this.#key ??= importedKey(randomBytes(RANDOM_SECRET_BYTES)));
  }

  /**
   * A token for `request`, valid for `expiresInMs` from now.
   * @throws TypeError when the token would be longer than a token may be (a long `approvedBy` or call
   * id): its own check would refuse it as tampered
   */
  async token(request: ApprovalRequest, expiresInMs: number, approvedBy: string | undefined, now = Date.now()): Promise<string> {
    const claims: ApprovalClaims = {
      toolCallId: request.toolCallId,
      toolName: request.toolName,
      fingerprint: request.fingerprint,
      expiresAt: now + expiresInMs,
      nonce: toBase64Url(randomBytes(18)),
      ...(approvedBy === undefined ? {} : { approvedBy }),
    };
    const body = textToBase64Url(JSON.stringify(claims));
    const token = `${body}.${toBase64Url(await sign(await this.#signingKey(), body))}`;
    if (token.length > MAX_TOKEN_LENGTH) {
      throw new TypeError(`the approval token would be ${token.length} characters, over the ${MAX_TOKEN_LENGTH} a token may have: shorten approvedBy (or the call id)`);
    }
    return token;
  }

  /**
   * The claims of a token whose signature verifies.
   * @throws ToolApprovalError with reason `"tampered"` for anything else
   */
  async claims(token: unknown, toolName: string): Promise<ApprovalClaims> {
    const tampered = (): ToolApprovalError => new ToolApprovalError(toolName, "tampered");
    if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) throw tampered();
    const parts = token.split(".");
    if (parts.length !== 2) throw tampered();
    const [body, signature] = parts as [string, string];
    const signatureBytes = fromBase64Url(signature);
    if (signatureBytes === undefined || !(await verify(await this.#signingKey(), signatureBytes, body))) throw tampered();
    const text = textFromBase64Url(body);
    const claims: unknown = text === undefined ? undefined : JSON.parse(text);
    if (!isClaims(claims)) throw tampered();
    return claims;
  }
}

function isClaims(value: unknown): value is ApprovalClaims {
  if (typeof value !== "object" || value === null) return false;
  const claims = value as Record<string, unknown>;
  return (
    typeof claims.toolCallId === "string" &&
    typeof claims.toolName === "string" &&
    typeof claims.fingerprint === "string" &&
    typeof claims.expiresAt === "number" &&
    typeof claims.nonce === "string" &&
    (claims.approvedBy === undefined || typeof claims.approvedBy === "string")
  );
}

/**
 * Whether `value` is an approval request as the registry writes it (after a round trip through JSON).
 * @throws TypeError naming what is missing
 */
export function checkApprovalRequest(value: unknown): ApprovalRequest {
  const request = value as Partial<ApprovalRequest> | null;
  if (typeof request !== "object" || request === null) throw new TypeError(`request must be an ApprovalRequest, got ${describeOption(value)}`);
  for (const field of ["toolCallId", "toolName", "fingerprint", "requestedAt"] as const) {
    if (typeof request[field] !== "string") throw new TypeError(`request.${field} must be a string, got ${describeOption(request[field])}`);
  }
  if (!("arguments" in request)) throw new TypeError("request.arguments is missing");
  return request as ApprovalRequest;
}

/** An HMAC key of `bytes`; its failure is reported by each use, not as an unhandled rejection before any. */
function importedKey(bytes: Uint8Array): Promise<CryptoKey> {
  const key = hmacKey(bytes);
  key.catch(() => {});
  return key;
}
