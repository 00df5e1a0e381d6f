// Inside the respondent page a module cannot be imported, so each module the
// page script loads hands its exports over under its own path
// (surveys/respond/inline.py): exactly what importing its file would give.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { test } from "node:test";

const root = new URL("../../", import.meta.url);
// Static path (as the page's config names it) to the repository's file.
const modules = {
  "js/rr.js": "static/js/rr.js",
  "js/rr-rule.js": "static/js/rr-rule.js",
  "js/rr-arm.js": "static/js/rr-arm.js",
};
for (const name of readdirSync(new URL("static/js/survey/", root))) {
  modules[`js/survey/${name}`] = `static/js/survey/${name}`;
}
for (const kind of readdirSync(new URL("surveys/kinds/", root))) {
  const page = `surveys/kinds/${kind}/static/page.js`;
  // A kind without a script of its own (a scale) has none to hand over.
  if (existsSync(new URL(page, root))) modules[`js/kinds/${kind}/page.js`] = page;
}

test("the kinds' modules are all found", () => {
  assert.ok(Object.keys(modules).filter((path) => path.startsWith("js/kinds/")).length >= 8);
});

for (const [path, file] of Object.entries(modules)) {
  test(`${file} hands over exactly its exports as ${path}`, async () => {
    const exported = await import(new URL(file, root));
    const handed = globalThis.carriedModules.get(path);
    assert.ok(handed, `${file} did not hand itself over`);
    if (path === "js/rr.js") {
      // The randomizer: every export by name, the same values, frozen.
      assert.deepEqual(Object.keys(handed).sort(), Object.keys(exported).sort());
      for (const [name, value] of Object.entries(exported)) assert.equal(handed[name], value, name);
      assert.ok(Object.isFrozen(handed));
    } else {
      // A factory: the page script only ever calls its default export.
      assert.deepEqual(Object.keys(handed), ["default"]);
      assert.equal(handed.default, exported.default);
    }
  });
}
