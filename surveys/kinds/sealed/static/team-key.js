// The team key page (templates/surveys/team_key.html): makes the key pair in
// this browser, downloads the key file (made here, as a Blob), and fills the
// form with the public key and, if chosen, the same locked key file. The
// passphrase and the private key are never put in the form.
import { generateTeamKey, grouped } from "./keys.js";

const form = document.getElementById("team-key-form");
const status = document.getElementById("key-status");
const byId = (id) => document.getElementById(id);

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

byId("make-key").addEventListener("click", async () => {
  const passphrase = byId("passphrase").value;
  if ([...passphrase].length < 12) {
    status.textContent = form.dataset.short;
    return;
  }
  if (passphrase !== byId("passphrase-again").value) {
    status.textContent = form.dataset.mismatch;
    return;
  }
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
