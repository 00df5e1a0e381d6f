// The research team's side of sealed open answers, in the researcher's
// browser only: make the team's key pair, wrap its private half under a
// passphrase, open the key file again, and open the answers the respondents'
// pages sealed (surveys/kinds/sealed/static/page.js). Web Crypto only, no
// library; the passphrase and the unwrapped private key never leave this
// page. The server stores the public key and, if the team chooses, the
// wrapped key file, and checks only their form (surveys/sealing/envelope.py).
//
// Key file (JSON, version 1): the private key as PKCS#8, encrypted with
// AES-256-GCM under a key derived from the passphrase by PBKDF2-HMAC-SHA256
// (ITERATIONS, a random 16-byte salt), a random 96-bit IV, and the public
// key's fingerprint as additional data, so the file's fields cannot be
// swapped for another key's. docs/security.md states the whole scheme.

import { PAD, VERSION, bindings, toBase64url } from "./page.js";

export const ITERATIONS = 600000;
export const KEY_FILE_KIND = "rr-sealed-team-key";
const CURVE = { name: "ECDH", namedCurve: "P-256" };
const SALT_BYTES = 16;
const IV_BYTES = 12;
// The DER of a P-256 SubjectPublicKeyInfo up to its point.
const SPKI_PREFIX = "3059301306072a8648ce3d020106082a8648ce3d030107034200";

/** The key file does not open with this passphrase (or is not a key file). */
export class PassphraseError extends Error {}
/** The envelope does not open: altered, moved, or sealed for another key. */
export class AlteredError extends Error {}

const subtle = () => globalThis.crypto.subtle;
const random = (n) => globalThis.crypto.getRandomValues(new Uint8Array(n));
const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** base64url (no padding) to bytes; a TypeError if it is not base64url. */
export function fromBase64url(text) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) throw new TypeError("not base64url");
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** SHA-256 of the key's SubjectPublicKeyInfo, lowercase hex (as the server computes it). */
export async function fingerprintOf(publicJwk) {
  const point = new Uint8Array(65);
  point[0] = 4;
  point.set(fromBase64url(publicJwk.x), 1);
  point.set(fromBase64url(publicJwk.y), 33);
  const prefix = Uint8Array.from(SPKI_PREFIX.match(/../g), (h) => parseInt(h, 16));
  const spki = new Uint8Array(prefix.length + point.length);
  spki.set(prefix);
  spki.set(point, prefix.length);
  return hex(await subtle().digest("SHA-256", spki));
}

/** A fingerprint as people compare it: groups of four hex digits. */
export const grouped = (fingerprint) => fingerprint.match(/.{1,4}/g).join(" ");

async function passphraseKey(passphrase, salt, iterations, usage) {
  const material = await subtle().importKey("raw", new TextEncoder().encode(passphrase), "PBKDF2", false, ["deriveKey"]);
  return subtle().deriveKey(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    [usage],
  );
}

const keyFileData = (fingerprint) => new TextEncoder().encode(`${KEY_FILE_KIND}/1|${fingerprint}`);

/** The key file of a private key (PKCS#8) wrapped under `passphrase`. */
async function wrapKeyFile(pkcs8, publicJwk, fingerprint, passphrase, iterations) {
  if (!passphrase) throw new PassphraseError("a passphrase is needed");
  const salt = random(SALT_BYTES);
  const iv = random(IV_BYTES);
  const wrapping = await passphraseKey(passphrase, salt, iterations, "encrypt");
  const ciphertext = await subtle().encrypt({ name: "AES-GCM", iv, additionalData: keyFileData(fingerprint) }, wrapping, pkcs8);
  return {
    version: 1,
    kind: KEY_FILE_KIND,
    kdf: { name: "PBKDF2", hash: "SHA-256", iterations },
    salt: toBase64url(salt),
    iv: toBase64url(iv),
    ciphertext: toBase64url(ciphertext),
    fingerprint,
    public_key: publicJwk,
  };
}

/**
 * A new team key: its public half (JWK) and fingerprint for the server, and
 * the key file (the private half wrapped under `passphrase`) for the team.
 */
export async function generateTeamKey(passphrase, { iterations = ITERATIONS } = {}) {
  if (!passphrase) throw new PassphraseError("a passphrase is needed");
  const pair = await subtle().generateKey(CURVE, true, ["deriveBits"]);
  const { kty, crv, x, y } = await subtle().exportKey("jwk", pair.publicKey);
  const publicJwk = { kty, crv, x, y };
  const fingerprint = await fingerprintOf(publicJwk);
  const pkcs8 = await subtle().exportKey("pkcs8", pair.privateKey);
  const keyFile = await wrapKeyFile(pkcs8, publicJwk, fingerprint, passphrase, iterations);
  return { publicJwk, fingerprint, keyFile };
}

/** The private key's PKCS#8 bytes from its key file, checked against the file's public key. */
async function openKeyFile(keyFile, passphrase, minIterations) {
  let pkcs8;
  try {
    if (keyFile?.kind !== KEY_FILE_KIND || keyFile.version !== 1) throw new TypeError("not a key file");
    const { kdf } = keyFile;
    if (kdf?.name !== "PBKDF2" || kdf.hash !== "SHA-256" || !(kdf.iterations >= minIterations)) {
      throw new TypeError("not a key file");
    }
    const wrapping = await passphraseKey(passphrase, fromBase64url(keyFile.salt), kdf.iterations, "decrypt");
    pkcs8 = await subtle().decrypt(
      { name: "AES-GCM", iv: fromBase64url(keyFile.iv), additionalData: keyFileData(keyFile.fingerprint) },
      wrapping,
      fromBase64url(keyFile.ciphertext),
    );
  } catch {
    throw new PassphraseError("The passphrase does not open this key");
  }
  const check = await subtle().importKey("pkcs8", pkcs8, CURVE, true, ["deriveBits"]);
  const { x, y } = await subtle().exportKey("jwk", check);
  if (x !== keyFile.public_key.x || y !== keyFile.public_key.y || (await fingerprintOf(keyFile.public_key)) !== keyFile.fingerprint) {
    throw new PassphraseError("The key file does not match its public key");
  }
  return pkcs8;
}

/**
 * The team's private key from its key file and passphrase, checked against
 * the file's public key. PassphraseError when it does not open, or when
 * its file asks for fewer iterations than `minIterations` (a weakened file).
 */
export async function unwrapTeamKey(keyFile, passphrase, { minIterations = ITERATIONS } = {}) {
  const pkcs8 = await openKeyFile(keyFile, passphrase, minIterations);
  return subtle().importKey("pkcs8", pkcs8, CURVE, false, ["deriveBits"]);
}

/**
 * The same key in a new key file, locked by `newPassphrase` (a fresh salt
 * and IV): the key pair, its fingerprint and every answer sealed for it stay
 * the same. PassphraseError when `oldPassphrase` does not open `keyFile`.
 */
export async function rewrapTeamKey(keyFile, oldPassphrase, newPassphrase, { iterations = ITERATIONS, minIterations = ITERATIONS } = {}) {
  const pkcs8 = await openKeyFile(keyFile, oldPassphrase, minIterations);
  const { kty, crv, x, y } = keyFile.public_key;
  return wrapKeyFile(pkcs8, { kty, crv, x, y }, keyFile.fingerprint, newPassphrase, iterations);
}

/**
 * One answer's text from its envelope, sealed for the team's key on
 * `slug`'s question `question`. AlteredError when it does not open: changed
 * after it was sent, moved from another question, or sealed for another key.
 */
export async function openEnvelope(privateKey, envelope, { slug, question }) {
  let plain;
  try {
    const parts = String(envelope).split(".");
    if (parts.length !== 5 || parts[0] !== VERSION) throw new TypeError("not an envelope");
    const [point, salt, iv, sealed] = parts.slice(1).map(fromBase64url);
    const ephemeral = await subtle().importKey("raw", point, CURVE, false, []);
    const shared = await subtle().deriveBits({ name: "ECDH", public: ephemeral }, privateKey, 256);
    const { info, additionalData } = bindings(slug, question);
    const base = await subtle().importKey("raw", shared, "HKDF", false, ["deriveKey"]);
    const key = await subtle().deriveKey({ name: "HKDF", hash: "SHA-256", salt, info }, base, { name: "AES-GCM", length: 256 }, false, ["decrypt"]);
    plain = new Uint8Array(await subtle().decrypt({ name: "AES-GCM", iv, additionalData }, key, sealed));
  } catch {
    throw new AlteredError("This answer was altered after it was sent and cannot be read");
  }
  if (plain.length < PAD || plain.length % PAD) throw new AlteredError("This answer was altered after it was sent and cannot be read");
  let end = plain.length;
  while (end > 0 && plain[end - 1] === 0) end -= 1;
  return new TextDecoder("utf-8", { fatal: true }).decode(plain.subarray(0, end));
}

/** One CSV field: quoted, a leading formula sign defused as the server's exports do. */
function csvField(value) {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

/** Rows (arrays of strings) as CSV text, CRLF line ends, the header first. */
export function toCsv(header, rows) {
  return [header, ...rows].map((row) => row.map((v) => csvField(String(v))).join(",")).join("\r\n") + "\r\n";
}
