// What the results page's live parts (results-live.js, model-fit.js) ask the
// server: fresh JSON from a status URL, and the page itself drawn anew so a
// part of it can be swapped in. Never cached, always with the session cookie.

const FRESH = { credentials: "same-origin", cache: "no-store" };

/**
 * The JSON at `url`; throws on a network error or a status other than 2xx.
 *
 * @param {string} url
 * @returns {Promise<any>}
 */
export async function fetchJson(url) {
  const response = await fetch(url, { ...FRESH, headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

/**
 * This page as the server draws it now, parsed but not shown.
 *
 * @returns {Promise<Document>}
 */
export async function fetchThisPage() {
  const response = await fetch(window.location.href, {
    ...FRESH,
    headers: { Accept: "text/html" },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return new DOMParser().parseFromString(await response.text(), "text/html");
}

/**
 * `template` (a sentence the server translated) with each %(name)s replaced
 * by `values[name]`.
 *
 * @param {string} template
 * @param {Record<string, unknown>} values
 * @returns {string}
 */
export function fill(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ""));
}
