// The respondent's randomizer: turns a true answer into the report that is sent.
//
// It holds no probabilities of its own. The server's client spec
// (Design.client_spec in estimation/designs.py) states the mechanism as integer
// thresholds over a denominator of 2**32, and estimation/simulate.py mirrors
// randomize() step for step, so the epsilon and the estimates the server
// computes are those of the code that runs here. No DOM access, so the page
// (survey.js) and Node's test runner share one module.
//
// Two mechanisms only some pages use live in modules of their own, loaded
// only by those pages (surveys/respond/page_modules.py): thresholds sent as
// a base and a rule (rr-rule.js) and the validation arm (rr-arm.js).
//
// Randomness comes only from a source function, by default the platform's
// cryptographic generator: anyone able to reconstruct a predictable
// generator's state could undo the noise and recover the true answers. Tests
// inject their own sources to enumerate every outcome exactly.

const UINT32_RANGE = 2 ** 32;
export const SPEC_FORMAT = 1;

/**
 * The most privacy loss (epsilon) this randomizer accepts for one answer. It is
 * part of the published, integrity-pinned code, not of the server's data: a
 * server that sends a spec above it, by mistake or by tampering, gets a refusal
 * on the respondent's screen and no answer. estimation/bands.py holds the same
 * number (RANDOMIZER_MAX_EPSILON), and tests prove the two agree.
 */
export const MAX_EPSILON = 10;
/**
 * The largest share of respondents, in percent, that a validation arm may ask
 * directly, without protection. Also part of the pinned code: an arm above it
 * (up to everyone, with the question relabelled "chosen at random to answer
 * directly") is refused before anything is drawn. estimation/inference/validation.py
 * holds the same number (MAX_DIRECT_PERCENT), and tests prove the two agree.
 */
export const MAX_DIRECT_PERCENT = 50;
// Python and JavaScript may differ in the last bit of a logarithm.
export const EPSILON_SLACK = 1e-9;
/**
 * A spec this randomizer will not run; the message is for the respondent, in
 * English. ``code`` names the reason (a key of REFUSALS, or of a kind's own
 * table) and ``values`` its particulars, so that a page in another language
 * says it in the respondent's words: the page's messages carry a sentence per
 * code (surveys/respond/messages.py and each kind's page role), and tests
 * prove their English is these tables'.
 */
export class SpecRefused extends Error {
  constructor(message, code = "", values = {}) {
    super(message);
    this.name = "SpecRefused";
    this.code = code;
    this.values = values;
  }
}

/** Why the randomizer refuses a spec, by code, in English; {name} is a value. */
export const REFUSALS = Object.freeze({
  unreadableArm: "the page sent an unreadable validation arm ({problem})",
  armTooLarge:
    "it would ask {share}% of respondents directly, without protection, above the limit of {limit}%",
  statedAnswer: "its design states epsilon {stated} for an answer, but its thresholds give {epsilon}",
  tooLoose:
    "its design would protect your answer less than this page allows (epsilon {epsilon}, above the limit of {limit})",
  unreadable: "the page sent an unreadable design ({problem})",
  answersMismatch: "its design has {k} answers, but the question shows {shown}",
  unknownProcedure: "the page cannot run the procedure {procedure}",
  producedByYou: "its design {design} is answered by you, not randomized by this device",
});

/**
 * The refusal ``code`` of the table ``reasons``, its English filled with
 * ``values`` (each shown as a string).
 *
 * @param {object} reasons REFUSALS or a kind's own table
 * @param {string} code a key of ``reasons``
 * @param {object} [values] the particulars the sentence names
 * @returns {SpecRefused}
 */
export function refusal(reasons, code, values = {}) {
  const shown = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
  const message = reasons[code].replace(/\{(\w+)\}/g, (_, name) => shown[name]);
  return new SpecRefused(message, code, shown);
}
// getRandomValues is a comparatively costly call; drawing in batches keeps
// bulk use (tests, previews) fast without holding many secrets in memory.
const BUFFER_SIZE = 64;
// A working source is rejected with probability below 1/2 per draw, so this
// many rejections in a row means a broken (e.g. constant) source, not bad luck;
// failing beats hanging the page.
const MAX_REJECTIONS = 1000;

/**
 * A source of uniform 32-bit integers backed by `crypto.getRandomValues`.
 *
 * @returns {() => number} a function returning an integer in [0, 2**32)
 * @throws {Error} when the platform offers no cryptographic generator
 */
export function cryptoSource() {
  const crypto = globalThis.crypto;
  if (typeof crypto?.getRandomValues !== "function") {
    throw new Error(
      "crypto.getRandomValues is not available, so answers cannot be randomized safely",
    );
  }
  const buffer = new Uint32Array(BUFFER_SIZE);
  let next = BUFFER_SIZE;
  return () => {
    if (next === BUFFER_SIZE) {
      crypto.getRandomValues(buffer);
      next = 0;
    }
    return buffer[next++];
  };
}

// Created on first use rather than at import, so that merely loading the
// module never fails; the missing-generator error surfaces where a draw is
// actually needed.
let sharedSource = null;
function defaultSource() {
  sharedSource ??= cryptoSource();
  return sharedSource();
}

export function show(value) {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/**
 * A uniform integer in [0, bound), by rejection sampling without modulo bias.
 *
 * @param {number} bound integer in [1, 2**bits]
 * @param {() => number} [source] returns uniform integers in [0, 2**bits)
 * @param {number} [bits=32] how many uniform bits each source value carries (1 to 32)
 * @returns {number}
 * @throws {RangeError} on an invalid bound or bits, or a source value out of range
 */
export function uniformBelow(bound, source = defaultSource, bits = 32) {
  if (!Number.isInteger(bits) || bits < 1 || bits > 32) {
    throw new RangeError(`bits must be an integer from 1 to 32, got ${show(bits)}`);
  }
  // Plain Number arithmetic throughout: 2**32 is exact in a double, whereas
  // 32-bit bitwise operators would wrap it to 0.
  const range = 2 ** bits;
  if (!Number.isInteger(bound) || bound < 1 || bound > range) {
    throw new RangeError(
      `bound must be an integer from 1 to 2**${bits} = ${range}, got ${show(bound)}`,
    );
  }
  // Only values below the largest multiple of bound are used, so each result
  // has exactly limit / bound source values mapping to it.
  const limit = range - (range % bound);
  for (let rejections = 0; rejections < MAX_REJECTIONS; rejections++) {
    const x = source();
    if (!Number.isInteger(x) || x < 0 || x >= range) {
      throw new RangeError(
        `the random source must return integers in [0, 2**${bits}), got ${show(x)}`,
      );
    }
    if (x < limit) return x % bound;
  }
  throw new Error(
    `the random source was rejected ${MAX_REJECTIONS} times in a row: it is broken`,
  );
}

function malformed(problem) {
  return new TypeError(`malformed client spec: ${problem}`);
}

// Checks what randomize relies on and returns the row of thresholds for truth.
// Every row's shape is checked (O(k)), but only the row in use is checked value
// by value, so the cost per answer stays linear in k even for many options.
function thresholdRow(truth, spec) {
  if (spec === null || typeof spec !== "object") {
    throw malformed(`expected an object, got ${show(spec)}`);
  }
  if (spec.format !== SPEC_FORMAT) {
    throw malformed(`format ${show(spec.format)} is not the supported format ${SPEC_FORMAT}`);
  }
  const { k, denominator, thresholds } = spec;
  if (!Number.isInteger(k) || k < 2) {
    throw malformed(`k must be an integer of at least 2, got ${show(k)}`);
  }
  if (!Number.isInteger(denominator) || denominator < 1 || denominator > UINT32_RANGE) {
    throw malformed(`denominator must be an integer from 1 to 2**32, got ${show(denominator)}`);
  }
  if (!Array.isArray(thresholds) || thresholds.length !== k) {
    throw malformed(`thresholds must be a list of k = ${k} rows`);
  }
  thresholds.forEach((row, t) => {
    if (!Array.isArray(row) || row.length !== k) {
      throw malformed(`thresholds[${t}] must be a list of k = ${k} bounds`);
    }
    if (row[k - 1] !== denominator) {
      throw malformed(
        `thresholds[${t}] must end at the denominator ${denominator}, got ${show(row[k - 1])}`,
      );
    }
  });
  if (!Number.isInteger(truth) || truth < 0 || truth >= k) {
    throw new RangeError(
      `truth must be an integer option index from 0 to ${k - 1}, got ${show(truth)}`,
    );
  }
  const row = thresholds[truth];
  let previous = 0;
  for (let r = 0; r < k; r++) {
    // A decreasing bound would silently change the probabilities, not fail.
    if (!Number.isInteger(row[r]) || row[r] < previous) {
      throw malformed(
        `thresholds[${truth}] must be non-decreasing integers from 0, ` +
          `got ${show(row[r])} at position ${r}`,
      );
    }
    previous = row[r];
  }
  return row;
}

/**
 * The report for one true answer: the first option r with u < thresholds[truth][r],
 * where u is uniform in [0, spec.denominator). Same rule as
 * estimation.simulate.randomize.
 *
 * @param {number} truth option index of the true answer, in [0, spec.k)
 * @param {{format: 1, k: number, denominator: number, thresholds: number[][]}} spec
 *   the client spec of the question's design
 * @param {() => number} [source] uniform 32-bit integers; crypto by default
 * @returns {number} option index of the report
 * @throws {RangeError} on an invalid truth; {TypeError} on a malformed spec
 */
export function randomize(truth, spec, source = defaultSource) {
  const row = thresholdRow(truth, spec);
  const u = uniformBelow(spec.denominator, source);
  let report = 0;
  // Terminates within the row: its last bound is the denominator, above any u.
  while (u >= row[report]) report++;
  return report;
}

/**
 * 128 random bits as 32 lowercase hexadecimal characters: identifies one
 * response, so that resending it is recognized rather than counted twice.
 *
 * @param {() => number} [source] uniform 32-bit integers; crypto by default
 * @returns {string}
 */
export function newRespondentKey(source = defaultSource) {
  let key = "";
  for (let word = 0; word < 4; word++) {
    key += uniformBelow(UINT32_RANGE, source).toString(16).padStart(8, "0");
  }
  return key;
}

// Every row's probabilities as integers over the denominator, fully checked.
function rowCounts(spec) {
  return spec.thresholds.map((row, t) => {
    thresholdRow(t, spec);
    return row.map((bound, r) => bound - (r === 0 ? 0 : row[r - 1]));
  });
}

/**
 * The local differential privacy of one answer under this spec, computed from
 * its own thresholds as estimation/designs.py computes it: the largest, over
 * reports, log ratio of the most to the least likely true answer to have
 * produced it. Infinity when some report is possible for one true answer and
 * impossible for another (it then gives the answer away).
 *
 * @param {object} spec a client spec
 * @returns {number}
 * @throws {TypeError} on a malformed spec
 */
export function specEpsilon(spec) {
  const counts = rowCounts(spec);
  let worst = 0;
  for (let r = 0; r < spec.k; r++) {
    const column = counts.map((row) => row[r]);
    const high = Math.max(...column);
    const low = Math.min(...column);
    if (high === 0) continue;
    if (low === 0) return Infinity;
    worst = Math.max(worst, Math.log(high / low));
  }
  return worst;
}

/**
 * Whether the spec sends every answer exactly as given (a question asked
 * plainly). The page marks such questions itself, whatever the server says.
 *
 * @param {object} spec a client spec
 * @returns {boolean}
 */
export function isPlain(spec) {
  return rowCounts(spec).every((row, t) => row[t] === spec.denominator);
}

// A validation arm's check, given by its own module (rr-arm.js) when a page
// with an arm imports it; until then a spec with an arm is refused. The
// first check given stays: nothing loaded later can replace it.
let armCheck = null;
export function addArmCheck(check) {
  armCheck ??= check;
}

// The stated epsilon (the server's words) must be the thresholds' own: a
// design cannot claim more protection than the code that runs gives.
// ``reasons`` and ``code`` name the sentence that says what the epsilon is of.
export function checkStated(stated, epsilon, reasons = REFUSALS, code = "statedAnswer") {
  if (stated === undefined) return;
  if (
    typeof stated !== "number" ||
    !(Math.abs(stated - epsilon) <= EPSILON_SLACK * Math.max(1, epsilon))
  ) {
    throw refusal(reasons, code, { stated: show(stated), epsilon: epsilon.toFixed(2) });
  }
}

export function tooLoose(epsilon, reasons = REFUSALS, code = "tooLoose") {
  const shown = Number.isFinite(epsilon) ? epsilon.toFixed(2) : "∞";
  return refusal(reasons, code, { epsilon: shown, limit: MAX_EPSILON });
}

// Everything but the procedure: the arm, the thresholds (every row), the
// number of answers the page shows, the cap, and the stated epsilon.
export function checkMechanism(spec, answers) {
  if (spec?.direct_arm != null) {
    if (armCheck === null) throw refusal(REFUSALS, "unreadableArm", { problem: "direct_arm" });
    armCheck(spec.direct_arm);
  }
  let epsilon;
  let plain;
  try {
    plain = isPlain(spec);
    epsilon = plain ? 0 : specEpsilon(spec);
  } catch (error) {
    throw refusal(REFUSALS, "unreadable", { problem: error.message });
  }
  if (answers !== undefined && spec.k !== answers) {
    throw refusal(REFUSALS, "answersMismatch", { k: show(spec.k), shown: show(answers) });
  }
  // The page marks a plain question itself, whatever the server says of it.
  if (plain) return "plain";
  if (!(epsilon <= MAX_EPSILON + EPSILON_SLACK)) throw tooLoose(epsilon);
  checkStated(spec.epsilon, epsilon);
  return "randomized";
}

/**
 * Checks a spec before any answer is drawn with it: either asked plainly
 * (returns "plain") or randomized within MAX_EPSILON (returns "randomized").
 * Every row of thresholds is checked, the stated epsilon must be the one the
 * thresholds give, and a validation arm must be well formed and within
 * MAX_DIRECT_PERCENT.
 *
 * @param {object} spec a client spec
 * @param {number} [answers] how many answers the question shows; the spec's k
 *   must be that number
 * @param {object[]} [kinds] the kinds' modules the page loaded: a design whose
 *   report the respondent produces by one of their procedures is refused
 * @returns {"plain" | "randomized"}
 * @throws {SpecRefused} for a spec that randomizes too little to protect the
 *   answer, or is malformed
 */
export function checkSpec(spec, answers = undefined, kinds = []) {
  // A spec with a procedure is not one to randomize with: a page that knew
  // only this function would otherwise draw noise over a report the
  // respondent produced.
  if (spec?.procedure !== undefined) {
    throw refusal(REFUSALS, "unknownProcedure", { procedure: show(spec.procedure) });
  }
  // Nor is one whose report the respondent produces, stripped of its procedure:
  // the device must never draw noise over such a report, nor send a
  // device-randomized design's true answer as if it were one.
  if (typeof spec?.design === "string" && producedWith(spec.design, kinds) !== undefined) {
    throw refusal(REFUSALS, "producedByYou", { design: show(spec.design) });
  }
  return checkMechanism(spec, answers);
}

/**
 * checkSpec for specs without a procedure; a spec naming a procedure is
 * checked by the kind that runs it, among the kinds' modules the page loaded
 * (each declares its procedures and the designs that need them).
 *
 * @param {object} spec a client spec
 * @param {number} [answers] how many answers the question shows
 * @param {object[]} [kinds] the kinds' modules the page loaded
 * @returns {string} "plain", "randomized" or the procedure the page must follow
 * @throws {SpecRefused} for a procedure no loaded kind runs, or as checkSpec
 *   and the kind's own check do
 */
export function checkAnySpec(spec, answers = undefined, kinds = []) {
  const procedure = spec?.procedure;
  const runner = typeof procedure === "string" ? procedureRunner(procedure, kinds) : undefined;
  if (runner !== undefined) return runner.check(spec, answers);
  return checkSpec(spec, answers, kinds);
}

/**
 * The kind's code for a procedure: its check, the report for a true answer,
 * and what it draws before the question is answered, if anything.
 *
 * @param {string} procedure
 * @param {object[]} kinds the kinds' modules the page loaded
 * @returns {object | undefined}
 */
export function procedureRunner(procedure, kinds) {
  for (const kind of kinds) {
    const procedures = kind.procedures ?? {};
    if (Object.hasOwn(procedures, procedure)) return procedures[procedure];
  }
  return undefined;
}

// The procedure a design whose report the respondent produces must be asked
// with, as the kinds' own, integrity-pinned modules declare it, never from
// the page's data: a tampered spec must not be able to lift it.
function producedWith(design, kinds) {
  for (const kind of kinds) {
    for (const [procedure, runner] of Object.entries(kind.procedures ?? {})) {
      if (runner.designs.includes(design)) return procedure;
    }
  }
  return undefined;
}

// Carried inside the respondent page, the randomizer cannot be imported: it
// hands its exports to the page script by its path (surveys/respond/inline.py).
// tests/js/carried.test.mjs checks that these are every export, no more.
(globalThis.carriedModules ??= new Map()).set(
  "js/rr.js",
  Object.freeze({
    SPEC_FORMAT,
    MAX_EPSILON,
    MAX_DIRECT_PERCENT,
    EPSILON_SLACK,
    SpecRefused,
    REFUSALS,
    refusal,
    cryptoSource,
    show,
    uniformBelow,
    randomize,
    newRespondentKey,
    specEpsilon,
    isPlain,
    addArmCheck,
    checkStated,
    tooLoose,
    checkMechanism,
    checkSpec,
    checkAnySpec,
    procedureRunner,
  }),
);
