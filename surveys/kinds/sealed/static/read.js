// The sealed answers page (templates/surveys/sealed_answers.html): opens the
// team's key file (chosen here, or the locked copy the server keeps) with the
// passphrase typed here, opens each answer, shows it as text, and makes the
// CSV in this browser. Nothing it opens is sent anywhere. A wrong passphrase
// is said once; an answer that does not open is shown, in its row, as
// altered: never skipped, never shown as garbled text.
import { AlteredError, PassphraseError, openEnvelope, toCsv, unwrapTeamKey } from "./keys.js";

const data = JSON.parse(document.getElementById("sealed-data").textContent);
const form = document.getElementById("open-form");
const words = form.dataset;
const status = document.getElementById("open-status");
const table = document.getElementById("sealed-table");
const csvButton = document.getElementById("download-csv");
let opened = [];

async function keyFile() {
  const source = form.querySelector("input[name=source]:checked")?.value ?? "file";
  if (source === "server") return data.wrapped;
  const file = document.getElementById("key-file").files[0];
  if (!file) throw new Error(words.noFile);
  try {
    return JSON.parse(await file.text());
  } catch {
    throw new Error(words.badFile);
  }
}

function row(response, text, altered) {
  const tr = document.createElement("tr");
  const number = document.createElement("td");
  number.textContent = String(response);
  const answer = document.createElement("td");
  answer.textContent = text;
  answer.style.whiteSpace = "pre-wrap";
  if (altered) answer.className = "altered";
  tr.append(number, answer);
  return tr;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const passphrase = document.getElementById("passphrase").value;
  status.textContent = words.opening;
  let key;
  try {
    const file = await keyFile();
    if (file?.fingerprint !== data.fingerprint) throw new Error(file?.kind ? words.otherKey : words.badFile);
    key = await unwrapTeamKey(file, passphrase);
  } catch (error) {
    status.textContent = error instanceof PassphraseError ? words.wrong : error.message;
    return;
  } finally {
    document.getElementById("passphrase").value = "";
  }
  const rows = [];
  opened = [];
  let altered = 0;
  for (const { response, envelope } of data.answers) {
    try {
      const text = await openEnvelope(key, envelope, { slug: data.slug, question: data.question });
      opened.push([response, text]);
      rows.push(row(response, text, false));
    } catch (error) {
      if (!(error instanceof AlteredError)) throw error;
      altered += 1;
      opened.push([response, words.altered]);
      rows.push(row(response, words.altered, true));
    }
  }
  table.tBodies[0].replaceChildren(...rows);
  table.hidden = false;
  csvButton.hidden = false;
  status.textContent = words.opened
    .replace("{opened}", String(data.answers.length - altered))
    .replace("{total}", String(data.answers.length))
    .replace("{altered}", String(altered));
});

csvButton.addEventListener("click", () => {
  const csv = toCsv([words.headerResponse, words.headerAnswer], opened);
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = words.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
});
