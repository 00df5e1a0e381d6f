// Sealed open answers' crypto, both sides: the respondent page seals
// (surveys/kinds/sealed/static/page.js) and the team's browser opens
// (keys.js). A round trip, a wrong passphrase, and every kind of tampering
// (ciphertext, IV, salt, ephemeral key, moved to another question or survey,
// another team's key, an altered key file) each give their clear error,
// never garbled text. Fewer PBKDF2 iterations than the real 600,000 where
// the test is not about them, so the suite stays fast; one test uses the
// real count.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { PAD, padded, sealText } from "../../surveys/kinds/sealed/static/page.js";
import {
  AlteredError,
  ITERATIONS,
  PassphraseError,
  fingerprintOf,
  fromBase64url,
  generateTeamKey,
  openEnvelope,
  rewrapTeamKey,
  toCsv,
  unwrapTeamKey,
} from "../../surveys/kinds/sealed/static/keys.js";

const FAST = { iterations: 1000 };
const LOW = { minIterations: 1000 };
const WHERE = { slug: "harassment-2026", question: 17 };
const TEXT = "My supervisor — «Ñandú» 🙂 said:\n\"meet me after hours\"";

// A character of base64url flipped: the same length, other bytes.
function flipPart(envelope, index) {
  const parts = envelope.split(".");
  const bytes = fromBase64url(parts[index]);
  bytes[bytes.length - 1] ^= 1;
  parts[index] = Buffer.from(bytes).toString("base64url");
  return parts.join(".");
}

describe("sealed answers", () => {
  let team;
  let key;
  before(async () => {
    team = await generateTeamKey("correct horse battery staple", FAST);
    key = await unwrapTeamKey(team.keyFile, "correct horse battery staple", LOW);
  });

  test("the key file holds what the server checks, and no private key in clear", () => {
    const file = team.keyFile;
    assert.deepEqual(Object.keys(file).sort(), ["ciphertext", "fingerprint", "iv", "kdf", "kind", "public_key", "salt", "version"]);
    assert.equal(file.kdf.name, "PBKDF2");
    assert.equal(fromBase64url(file.salt).length, 16);
    assert.equal(fromBase64url(file.iv).length, 12);
    assert.equal(file.public_key.d, undefined);
    assert.match(file.fingerprint, /^[0-9a-f]{64}$/);
    assert.equal(ITERATIONS, 600000);
  });

  test("the fingerprint is SHA-256 of the key's SPKI, as Web Crypto exports it", async () => {
    const imported = await crypto.subtle.importKey("jwk", team.publicJwk, { name: "ECDH", namedCurve: "P-256" }, true, []);
    const spki = await crypto.subtle.exportKey("spki", imported);
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", spki)).toString("hex");
    assert.equal(await fingerprintOf(team.publicJwk), digest);
    assert.equal(team.fingerprint, digest);
  });

  test("round trip: the exact text, padded to a multiple of 64 bytes", async () => {
    const envelope = await sealText(team.publicJwk, TEXT, WHERE);
    assert.ok(!envelope.includes("supervisor"));
    const parts = envelope.split(".");
    assert.equal(parts[0], "v1");
    assert.deepEqual(parts.slice(1, 4).map((p) => fromBase64url(p).length), [65, 16, 12]);
    assert.equal((fromBase64url(parts[4]).length - 16) % PAD, 0);
    assert.equal(await openEnvelope(key, envelope, WHERE), TEXT);
    assert.equal(padded("x".repeat(64)).length, 64);
    assert.equal(padded("x".repeat(65)).length, 128);
  });

  test("each sealing is fresh: the same text twice gives two envelopes", async () => {
    const one = await sealText(team.publicJwk, TEXT, WHERE);
    const two = await sealText(team.publicJwk, TEXT, WHERE);
    assert.notEqual(one, two);
  });

  test("a wrong passphrase says so and gives no key", async () => {
    await assert.rejects(unwrapTeamKey(team.keyFile, "correct horse battery stapler", LOW), (error) => {
      assert.ok(error instanceof PassphraseError);
      assert.equal(error.message, "The passphrase does not open this key");
      return true;
    });
  });

  test("a key file altered (its fingerprint or ciphertext) does not open", async () => {
    const other = await generateTeamKey("x", FAST);
    for (const altered of [
      { ...team.keyFile, fingerprint: other.fingerprint },
      { ...team.keyFile, ciphertext: other.keyFile.ciphertext },
      { ...team.keyFile, kdf: { ...team.keyFile.kdf, iterations: 10 } },
      { nothing: "here" },
    ]) {
      await assert.rejects(unwrapTeamKey(altered, "correct horse battery staple", LOW), PassphraseError);
    }
    // The right passphrase with another key's public half: refused, not used.
    await assert.rejects(
      unwrapTeamKey({ ...team.keyFile, public_key: other.publicJwk }, "correct horse battery staple", LOW),
      PassphraseError,
    );
  });

  test("tampering with any part of an envelope is caught, never read as text", async () => {
    const envelope = await sealText(team.publicJwk, TEXT, WHERE);
    for (const index of [1, 2, 3, 4]) {
      await assert.rejects(openEnvelope(key, flipPart(envelope, index), WHERE), (error) => {
        assert.ok(error instanceof AlteredError, `part ${index}`);
        assert.equal(error.message, "This answer was altered after it was sent and cannot be read");
        return true;
      });
    }
    await assert.rejects(openEnvelope(key, envelope.slice(0, -4), WHERE), AlteredError);
    await assert.rejects(openEnvelope(key, "v1.garbage", WHERE), AlteredError);
  });

  test("an envelope moved to another question or survey does not open", async () => {
    const envelope = await sealText(team.publicJwk, TEXT, WHERE);
    await assert.rejects(openEnvelope(key, envelope, { ...WHERE, question: 18 }), AlteredError);
    await assert.rejects(openEnvelope(key, envelope, { ...WHERE, slug: "other" }), AlteredError);
  });

  test("another team's key does not open it", async () => {
    const other = await generateTeamKey("other", FAST);
    const otherKey = await unwrapTeamKey(other.keyFile, "other", LOW);
    const envelope = await sealText(team.publicJwk, TEXT, WHERE);
    await assert.rejects(openEnvelope(otherKey, envelope, WHERE), AlteredError);
  });

  test("a new passphrase re-wraps the same key: old answers open, the old passphrase does not", async () => {
    const envelope = await sealText(team.publicJwk, TEXT, WHERE);
    const file = await rewrapTeamKey(team.keyFile, "correct horse battery staple", "a brand new passphrase", { ...FAST, ...LOW });
    assert.equal(file.fingerprint, team.fingerprint);
    assert.deepEqual(file.public_key, team.keyFile.public_key);
    assert.notEqual(file.salt, team.keyFile.salt);
    assert.notEqual(file.ciphertext, team.keyFile.ciphertext);
    const reopened = await unwrapTeamKey(file, "a brand new passphrase", LOW);
    assert.equal(await openEnvelope(reopened, envelope, WHERE), TEXT);
    await assert.rejects(unwrapTeamKey(file, "correct horse battery staple", LOW), PassphraseError);
    await assert.rejects(rewrapTeamKey(team.keyFile, "wrong", "new one", { ...FAST, ...LOW }), PassphraseError);
  });

  test("the real iteration count wraps and unwraps", async () => {
    const real = await generateTeamKey("a long passphrase");
    assert.equal(real.keyFile.kdf.iterations, 600000);
    const opened = await unwrapTeamKey(real.keyFile, "a long passphrase");
    const envelope = await sealText(real.publicJwk, "short", WHERE);
    assert.equal(await openEnvelope(opened, envelope, WHERE), "short");
  });

  test("the CSV quotes every field and defuses formulas", () => {
    assert.equal(toCsv(["response", "answer"], [["1", '=HYPERLINK("x")'], ["2", "a\nb"]]), '"response","answer"\r\n"1","\'=HYPERLINK(""x"")"\r\n"2","a\nb"\r\n');
  });
});
