// The team key page (templates/surveys/team_key.html): makes the key pair in
// this browser, downloads the key file (made here, as a Blob), and fills the
// form with the public key and, if chosen, the same locked key file; or
// re-wraps the key file under a new passphrase the same way. Passphrases and
// the private key are never put in a form.
import { PassphraseError, generateTeamKey, grouped, rewrapTeamKey } from "./keys.js";

const form = document.getElementById("team-key-form");
const status = document.getElementById("key-status");
const byId = (id) => document.getElementById(id);

/** Whether a new passphrase is long enough and typed twice alike; else says why. */
function newPassphrase(words, first, second, said) {
  const passphrase = byId(first).value;
  if ([...passphrase].length < 12) {
    said.textContent = words.short;
    return null;
  }
  if (passphrase !== byId(second).value) {
    said.textContent = words.mismatch;
    return null;
  }
  return passphrase;
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

byId("make-key")?.addEventListener("click", async () => {
  const passphrase = newPassphrase(form.dataset, "passphrase", "passphrase-again", status);
  if (passphrase === null) return;
  status.textContent = form.dataset.making;
  byId("make-key").disabled = true;
  try {
    const { publicJwk, fingerprint, keyFile } = await generateTeamKey(passphrase);
    const file = JSON.stringify(keyFile, null, 1);
    download(`team-key-${form.dataset.slug}-${fingerprint.slice(0, 8)}.json`, file);
    byId("public-key").value = JSON.stringify(publicJwk);
    byId("wrapped-private").value = byId("keep-wrapped").checked ? file : "";
    byId("new-fingerprint").textContent = grouped(fingerprint);
    byId("new-key").hidden = false;
    byId("save-key").disabled = false;
    status.textContent = form.dataset.made;
  } catch {
    status.textContent = form.dataset.failed;
  } finally {
    byId("passphrase").value = "";
    byId("passphrase-again").value = "";
    byId("make-key").disabled = false;
  }
});

const rewrap = byId("rewrap-form");
const rewrapStatus = byId("rewrap-status");

async function chosenKeyFile(words) {
  const source = rewrap.querySelector("input[name=source]:checked")?.value ?? "file";
  if (source === "server") return JSON.parse(byId("kept-key-file").textContent);
  const file = byId("rewrap-file").files[0];
  if (!file) throw new Error(words.noFile);
  try {
    return JSON.parse(await file.text());
  } catch {
    throw new Error(words.otherKey);
  }
}

byId("rewrap-key")?.addEventListener("click", async () => {
  const words = rewrap.dataset;
  const passphrase = newPassphrase(words, "new-passphrase", "new-passphrase-again", rewrapStatus);
  if (passphrase === null) return;
  rewrapStatus.textContent = words.making;
  byId("rewrap-key").disabled = true;
  try {
    const old = await chosenKeyFile(words);
    if (old?.fingerprint !== words.fingerprint) throw new Error(words.otherKey);
    const keyFile = await rewrapTeamKey(old, byId("old-passphrase").value, passphrase);
    const file = JSON.stringify(keyFile, null, 1);
    download(`team-key-${words.slug}-${keyFile.fingerprint.slice(0, 8)}.json`, file);
    const keep = byId("keep-rewrapped").checked;
    byId("rewrapped-private").value = keep ? file : "";
    byId("save-rewrapped").disabled = !keep;
    rewrapStatus.textContent = keep ? words.madeKept : words.made;
  } catch (error) {
    rewrapStatus.textContent = error instanceof PassphraseError ? words.wrong : error.message;
  } finally {
    for (const id of ["old-passphrase", "new-passphrase", "new-passphrase-again"]) byId(id).value = "";
    byId("rewrap-key").disabled = false;
  }
});
