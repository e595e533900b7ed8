/**
 * The vault's cryptography, on WebCrypto only (`crypto.subtle`, the same API in the service
 * worker and in Node 20): PBKDF2-SHA-256 key derivation and AES-GCM sealing
 * (security-requirements.md S2).
 */

/** Production PBKDF2 iteration count (S2: at least 600,000, the OWASP 2023 figure for PBKDF2-HMAC-SHA256). */
export const PBKDF2_ITERATIONS = 600_000;
/** Salt length in bytes (S2: 16 random bytes). */
export const SALT_BYTES = 16;
/** AES-GCM IV length in bytes (S2: 12 random bytes, fresh for every encryption). */
export const IV_BYTES = 12;
/** Derived key length in bits (AES-256-GCM). */
const KEY_BITS = 256;

/** How a vault key is derived from the passphrase; stored beside every ciphertext. */
export interface KdfParams {
  name: 'PBKDF2';
  hash: 'SHA-256';
  iterations: number;
}

/** An AES-GCM ciphertext: base64 IV (12 bytes) and base64 ciphertext with its 16-byte tag. */
export interface Sealed {
  iv: string;
  ciphertext: string;
}

/** Standard base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** Bytes of standard base64 `text`. @throws DOMException on invalid base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text);
  const out = new Uint8Array(new ArrayBuffer(s.length));
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** `n` cryptographically random bytes. */
export function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(new ArrayBuffer(n)));
}

/**
 * The 32 raw bytes PBKDF2-SHA-256 derives from `passphrase` and `salt` (`iterations` rounds). The
 * caller imports them with {@link importVaultKey} and then zeroes them. The passphrase is taken in
 * Unicode NFC (lone surrogates as U+FFFD, as UTF-8 encodes them), so the same passphrase typed on a
 * keyboard or IME that composes characters differently (NFC "é" vs NFD "e" + U+0301) opens the vault.
 */
export async function deriveKeyBytes(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const base = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(passphrase.normalize('NFC')),
    'PBKDF2',
    false,
    ['deriveBits'],
  );
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, base, KEY_BITS);
  return new Uint8Array(bits);
}

/** An AES-GCM key from raw bytes, **non-extractable** (S2: `exportKey` rejects). */
export function importVaultKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM', length: KEY_BITS }, false, ['encrypt', 'decrypt']);
}

/** Encrypts `plain` with a fresh random IV; `aad` (additional data) binds the ciphertext to its context. */
export async function seal(key: CryptoKey, plain: Uint8Array<ArrayBuffer>, aad: string): Promise<Sealed> {
  const iv = randomBytes(IV_BYTES);
  const ct = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(aad) },
    key,
    plain,
  );
  return { iv: toBase64(iv), ciphertext: toBase64(new Uint8Array(ct)) };
}

/** Decrypts a {@link seal}ed value. @throws DOMException (OperationError) when the key, IV, data or `aad` do not match. */
export async function open(key: CryptoKey, sealed: Sealed, aad: string): Promise<Uint8Array<ArrayBuffer>> {
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: new TextEncoder().encode(aad) },
    key,
    fromBase64(sealed.ciphertext),
  );
  return new Uint8Array(plain);
}

/** UTF-8 bytes of `text`. */
export const utf8 = (text: string): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
/** Text of UTF-8 `bytes`. */
export const fromUtf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
