/**
 * The cryptography of sync (docs/security.md#sync), on WebCrypto only: keys derived from the sync
 * passphrase, AES-GCM document bodies bound to their document id, padded size buckets and keyed-hash
 * document ids. The server only ever holds what {@link sealDoc} returns.
 *
 * Key schedule: PBKDF2-SHA-256 (≥ 600,000 iterations, 16-byte random salt) gives 32 bytes; HKDF-SHA-256
 * expands them into two independent non-extractable keys — an AES-256-GCM *content* key and an
 * HMAC-SHA-256 *id* key — so knowing document ids says nothing about content and vice versa.
 */
import { fromBase64, fromUtf8, IV_BYTES, PBKDF2_ITERATIONS, randomBytes, toBase64, utf8 } from '../../vault/crypto';

/** Sync's PBKDF2 iteration floor (the vault's S2 figure: OWASP 2023 for PBKDF2-HMAC-SHA256). */
export const SYNC_ITERATIONS = PBKDF2_ITERATIONS;

/** The two keys of a sync passphrase. Both non-extractable. */
export interface SyncKeys {
  /** AES-256-GCM, encrypts document bodies. */
  content: CryptoKey;
  /** HMAC-SHA-256, turns natural ids (a conversation id, a turn id) into server document ids. */
  id: CryptoKey;
}

/**
 * Padded plaintext sizes in bytes: a body is padded up to the first bucket that holds it, and past
 * the last one to a multiple of it, so the server learns a size class, not a length.
 */
export const SIZE_BUCKETS = [512, 2048, 8192, 32768, 131072] as const;

/** The padded length for a body of `n` bytes (4 of which are the length prefix). */
export function paddedSize(n: number): number {
  const need = n + 4;
  for (const b of SIZE_BUCKETS) if (need <= b) return b;
  const last = SIZE_BUCKETS.at(-1)!;
  return Math.ceil(need / last) * last;
}

/**
 * Derives the sync keys from `passphrase` (NFC) and `salt`.
 * @throws RangeError when `iterations` is under {@link SYNC_ITERATIONS} and `allowWeak` is not set (tests only).
 */
export async function deriveSyncKeys(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  allowWeak = false,
): Promise<SyncKeys> {
  if (iterations < SYNC_ITERATIONS && !allowWeak)
    throw new RangeError(`sync needs at least ${SYNC_ITERATIONS} PBKDF2 iterations, got ${iterations}`);
  const base = await crypto.subtle.importKey('raw', utf8(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
  const bits = new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, base, 256),
  );
  const master = await crypto.subtle.importKey('raw', bits, 'HKDF', false, ['deriveKey']);
  bits.fill(0);
  const hkdf = (info: string) => ({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: utf8(info) });
  const content = await crypto.subtle.deriveKey(
    hkdf('baton-sync content v1'),
    master,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
  const id = await crypto.subtle.deriveKey(
    hkdf('baton-sync id v1'),
    master,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign'],
  );
  return { content, id };
}

/** base64url without padding (safe in a CouchDB id and a URL). */
function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The server document id of a natural id: `h` + base64url(HMAC-SHA-256(idKey, kind + NUL + parts…)),
 * truncated to 128 bits. The server cannot tell a turn from a conversation, nor group turns by
 * conversation; the same natural id gives the same document id on every device of the passphrase.
 */
export async function docIdOf(keys: SyncKeys, kind: string, ...parts: string[]): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', keys.id, utf8([kind, ...parts].join('\u0000')));
  return `h${toBase64Url(new Uint8Array(mac).slice(0, 16))}`;
}

/** What the server stores for a document: nothing but the ciphertext (`e`: base64 of IV ‖ ciphertext+tag). */
export interface SealedBody {
  e: string;
}

/**
 * Encrypts `body` (JSON) for document `docId`: length-prefixed, zero-padded to {@link paddedSize},
 * AES-GCM with a fresh random 12-byte IV and the document id as additional data, so a ciphertext
 * moved to another id does not open.
 */
export async function sealDoc(keys: SyncKeys, docId: string, body: unknown): Promise<SealedBody> {
  const json = utf8(JSON.stringify(body));
  const plain = new Uint8Array(new ArrayBuffer(paddedSize(json.length)));
  new DataView(plain.buffer).setUint32(0, json.length);
  plain.set(json, 4);
  const iv = randomBytes(IV_BYTES);
  const ct = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(docId) }, keys.content, plain),
  );
  const out = new Uint8Array(iv.length + ct.length);
  out.set(iv);
  out.set(ct, iv.length);
  return { e: toBase64(out) };
}

/** Thrown when a document does not open with these keys (another passphrase, a moved or altered ciphertext). */
export class UnreadableDocError extends Error {
  override readonly name = 'UnreadableDocError';
}

/** Decrypts a {@link sealDoc} body. @throws UnreadableDocError when it does not open or is malformed. */
export async function openDoc(keys: SyncKeys, docId: string, sealed: unknown): Promise<unknown> {
  try {
    const e = (sealed as Partial<SealedBody> | null)?.e;
    if (typeof e !== 'string') throw new Error('no ciphertext');
    const bytes = fromBase64(e);
    const plain = new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), additionalData: utf8(docId) },
        keys.content,
        bytes.slice(IV_BYTES),
      ),
    );
    const n = new DataView(plain.buffer).getUint32(0);
    if (n > plain.length - 4) throw new Error('bad length');
    return JSON.parse(fromUtf8(plain.subarray(4, 4 + n)));
  } catch (e) {
    throw new UnreadableDocError(`document ${docId} does not open with this sync passphrase`, { cause: e });
  }
}

/** The server's `_local` set-up document: KDF parameters, salt and an encrypted check value. */
export interface SyncSetup {
  version: 1;
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number };
  salt: string;
  check: SealedBody;
}

/** Id of the set-up document on the server (a `_local` document: never replicated, never in `_all_docs`). */
export const SETUP_DOC_ID = '_local/baton-sync';
const CHECK_PLAIN = 'baton-sync-check-v1';

/** A fresh set-up for a new sync passphrase (the *Create* step), and its keys. */
export async function createSetup(
  passphrase: string,
  iterations = SYNC_ITERATIONS,
  allowWeak = false,
): Promise<{ setup: SyncSetup; keys: SyncKeys }> {
  const salt = randomBytes(16);
  const keys = await deriveSyncKeys(passphrase, salt, iterations, allowWeak);
  const check = await sealDoc(keys, SETUP_DOC_ID, CHECK_PLAIN);
  return {
    setup: { version: 1, kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations }, salt: toBase64(salt), check },
    keys,
  };
}

/** Thrown by {@link joinSetup} when the passphrase is not the one the server's data was written with. */
export class WrongSyncPassphraseError extends Error {
  override readonly name = 'WrongSyncPassphraseError';
  constructor() {
    super('That sync passphrase does not open the data on this server.');
  }
}

/**
 * The keys of `passphrase` for an existing set-up (the *Join* step).
 * @throws WrongSyncPassphraseError when the check value does not open.
 */
export async function joinSetup(setup: SyncSetup, passphrase: string, allowWeak = false): Promise<SyncKeys> {
  const keys = await deriveSyncKeys(passphrase, fromBase64(setup.salt), setup.kdf.iterations, allowWeak);
  try {
    if ((await openDoc(keys, SETUP_DOC_ID, setup.check)) !== CHECK_PLAIN) throw new Error('check');
  } catch {
    throw new WrongSyncPassphraseError();
  }
  return keys;
}
