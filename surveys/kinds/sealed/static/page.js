// A sealed open answer's own code on the respondent page: the respondent's
// words are encrypted here, for the research team's public key, before the
// page keeps or sends anything.
//
// The box is free text's (surveys/kinds/freetext/static/page.js): no name, in
// no form, a character count, the same limit and characters; the module every
// typed box shares (static/js/survey/boxes.js) counts its characters and
// empties it. What differs is
// the kind's `seal` hook, which the page (static/js/survey.js) awaits once
// per answer before it builds the submission or saves a page's progress: it
// turns the typed text into an envelope and the truth it returns holds the
// envelope only, so the text is in no request, no localStorage entry and no
// log. This module imports nothing: its one integrity hash on the
// transparency page covers every line that ever sees the text.
//
// The envelope (docs/security.md, "Sealed open answers"; the server checks
// its form in surveys/sealing/envelope.py, the team's browser opens it with
// surveys/kinds/sealed/static/keys.js):
//   v1.<ephemeral public key>.<salt>.<iv>.<ciphertext>, base64url parts
// - an ephemeral ECDH P-256 key pair per answer; ECDH with the team's key
// - HKDF-SHA256 over the shared secret, a random 16-byte salt and an info
//   naming the version, the survey and the question -> an AES-256-GCM key
// - a random 96-bit IV; additional data naming the version, the survey and
//   the question, so that an envelope moved to another question or survey
//   fails to open instead of being read as that question's answer
// - the text's UTF-8 bytes padded with zero bytes to a multiple of 64, so
//   the ciphertext tells the length only to within 64 bytes.

export const VERSION = "v1";
export const PAD = 64;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const NO_ANSWER = "none";
const ANSWERED = 0;
// Control characters other than a tab and a line break: refused, as free text's.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Bytes as base64url without padding. */
export function toBase64url(bytes) {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The HKDF info and the AES-GCM additional data of one question's answers. */
export function bindings(slug, question) {
  const encoder = new TextEncoder();
  return {
    info: encoder.encode(`rr-sealed/${VERSION}/key|${slug}|${question}`),
    additionalData: encoder.encode(`rr-sealed/${VERSION}/answer|${slug}|${question}`),
  };
}

/** The text's UTF-8 bytes, zero-padded to a multiple of PAD (at least PAD). */
export function padded(text) {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(Math.max(PAD, Math.ceil(bytes.length / PAD) * PAD));
  out.set(bytes);
  return out;
}

/**
 * The envelope of one answer, sealed for the team's public key.
 *
 * @param {object} teamJwk the team's public key (EC P-256 JWK)
 * @param {string} text what the respondent typed, as sent
 * @param {{slug: string, question: (string|number)}} where the survey and question
 * @returns {Promise<string>} v1.<epk>.<salt>.<iv>.<ciphertext>
 */
export async function sealText(teamJwk, text, { slug, question }) {
  const { subtle } = globalThis.crypto;
  const curve = { name: "ECDH", namedCurve: "P-256" };
  const team = await subtle.importKey("jwk", teamJwk, curve, false, []);
  const ephemeral = await subtle.generateKey(curve, false, ["deriveBits"]);
  const shared = await subtle.deriveBits({ name: "ECDH", public: team }, ephemeral.privateKey, 256);
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const { info, additionalData } = bindings(slug, question);
  const base = await subtle.importKey("raw", shared, "HKDF", false, ["deriveKey"]);
  const key = await subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt, info },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt"],
  );
  const sealed = await subtle.encrypt({ name: "AES-GCM", iv, additionalData }, key, padded(text));
  const point = await subtle.exportKey("raw", ephemeral.publicKey);
  return [VERSION, point, salt, iv, sealed].map((part, i) => (i === 0 ? part : toBase64url(part))).join(".");
}

/**
 * The kind's code.
 *
 * @param {object} rr the randomizer's module (static/js/rr.js)
 * @returns {object} its check, report, value, seal and the page's hooks
 */
export default function sealedKind(rr) {
  const { SpecRefused, checkSpec } = rr;

  function check(spec, answers, kinds) {
    if (checkSpec(spec, undefined, kinds) !== "plain") {
      throw new SpecRefused("a sealed answer is asked plainly, but its spec randomizes it");
    }
    return "plain";
  }

  const normalize = (text) => text.replace(/\r\n?/g, "\n").trim();
  const accept = (text, max) => ([...text].length > max || CONTROL.test(text) ? undefined : text);
  const boxText = (box) => box.querySelector("textarea");

  // The true answer of one box: its text and where it is sealed for,
  // NO_ANSWER, null (left empty) or undefined (not a text it takes). It lives
  // in the page's memory only until `seal` replaces it.
  function truthOf(box) {
    if (box.querySelector("[data-no-answer]")?.checked) return NO_ANSWER;
    const text = normalize(boxText(box).value);
    if (text === "") return null;
    const taken = accept(text, Number(box.dataset.max));
    if (taken === undefined) return undefined;
    return { text: taken, report: ANSWERED, key: box.dataset.key, slug: box.dataset.slug, question: box.dataset.question };
  }

  // The truth the page keeps and sends: the envelope, never the text.
  async function seal(truth) {
    if (!truth.key) throw new Error("this survey has no team key yet: the answer cannot be sealed");
    const sealed = await sealText(JSON.parse(truth.key), truth.text, truth);
    return { report: truth.report, sealed };
  }

  return Object.freeze({
    check,
    report: (truth) => truth.report,
    // Sent beside the report: the envelope (undefined before `seal`, which
    // the page awaits first).
    value: (truth) => truth.sealed,
    seal,
    // The receipt names what was sent without the envelope's long text.
    receiptText: (question) =>
      document.querySelector(`.sealed-answer[data-question="${question.id}"]`)?.dataset.sentWords,
    boxes: ".sealed-answer",
    truthOf,
    invalidWords: "textInvalid",
    invalid: (box) => ({ max: box.dataset.max }),
    normalize,
    accept,
  });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/kinds/sealed/page.js", { default: sealedKind });
