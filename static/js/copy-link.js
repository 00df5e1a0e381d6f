// "Copy link" buttons: each names the id of the read-only input it copies.
// Without JavaScript the buttons stay hidden and the link is selectable text.

for (const button of document.querySelectorAll("button[data-copy]")) {
  const input = document.getElementById(button.dataset.copy);
  const status = button.closest("section")?.querySelector("[data-copy-status]");
  button.hidden = false;
  button.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      if (status) status.textContent = "Link copied.";
    } catch {
      if (status) status.textContent = "Press Ctrl+C (or ⌘C) to copy the selected link.";
    }
  });
}
