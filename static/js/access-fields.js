// The survey form's panel settings (participant id parameter, completion and
// screen-out addresses) apply only to panel surveys. The server renders them
// shown or hidden for the mode it has; this follows the researcher's choice
// of "Who may answer", and disables the hidden ones so that values left in
// them are not sent (the server refuses panel settings for other modes).
// Without JavaScript every field stays visible and usable (no-script.css).

const mode = document.querySelector('select[name="access_mode"]');
const settings = document.querySelector("[data-panel-settings]");

function controls() {
  return settings.querySelectorAll("input, select, textarea");
}

function follow() {
  const shown = mode.value === "panel";
  settings.classList.toggle("is-inactive", !shown);
  for (const control of controls()) control.disabled = !shown;
}

if (mode && settings) {
  // As rendered: only the controls the server hid are disabled, so fields
  // shown for their errors stay as they are until the mode changes.
  if (settings.classList.contains("is-inactive")) {
    for (const control of controls()) control.disabled = true;
  }
  mode.addEventListener("change", follow);
}
