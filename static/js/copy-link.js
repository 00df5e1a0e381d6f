// "Copy" buttons: each names, in data-copy, the id of what it copies: a
// read-only input (a survey's link) or an element's text (a new API token).
// Without JavaScript the buttons stay hidden and the text is selectable.
//
// The clipboard API needs a secure context and the page's permission; when it
// is missing or refuses, the text is selected instead and the reader is told
// to copy it with the keyboard. Either way the confirmation appears in the
// section's status region (role="status"), which screen readers announce.
// The button may carry its own words (data-copied, data-copy-fallback), in
// the page's language.

const COPIED = "Link copied.";
const FALLBACK = "Press Ctrl+C (or ⌘C) to copy the selected link.";

/** Select what ``target`` shows, so the keyboard's copy takes exactly it. */
export function selectText(target) {
  if (typeof target.select === "function") {
    target.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(target);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

function textOf(target) {
  return typeof target.value === "string" ? target.value : target.textContent.trim();
}

/** Say ``words`` in ``status``; emptied first, so saying it again is announced. */
function announce(status, words) {
  if (!status) return;
  status.textContent = "";
  window.setTimeout(() => {
    status.textContent = words;
  }, 50);
}

export async function copyFrom(button, target, status, clipboard = navigator.clipboard) {
  selectText(target);
  try {
    if (!clipboard) throw new Error("no clipboard");
    await clipboard.writeText(textOf(target));
    announce(status, button.dataset.copied || COPIED);
  } catch {
    selectText(target); // the attempt may have moved the focus or selection
    announce(status, button.dataset.copyFallback || FALLBACK);
  }
}

for (const button of document.querySelectorAll("button[data-copy]")) {
  const target = document.getElementById(button.dataset.copy);
  if (!target) continue;
  const status = button.closest("section")?.querySelector("[data-copy-status]");
  button.hidden = false;
  button.addEventListener("click", () => copyFrom(button, target, status));
}
