// The respondent's randomizer: turns a true answer into the report that is sent.
//
// It holds no probabilities of its own. The server's client spec
// (Design.client_spec in estimation/designs.py) states the mechanism as integer
// thresholds over a denominator of 2**32, and estimation/simulate.py mirrors
// randomize() step for step, so the epsilon and the estimates the server
// computes are those of the code that runs here. No DOM access, so the page
// (survey.js) and Node's test runner share one module.
//
// Randomness comes only from a source function, by default the platform's
// cryptographic generator: anyone able to reconstruct a predictable
// generator's state could undo the noise and recover the true answers. Tests
// inject their own sources to enumerate every outcome exactly.

const UINT32_RANGE = 2 ** 32;
const SPEC_FORMAT = 1;

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
const EPSILON_SLACK = 1e-9;
// Designs whose report the respondent produces, with the procedure the page
// must follow for each: the device must never draw noise over such a report,
// nor send a device-randomized design's true answer as if it were one.
const RESPONDENT_PRODUCED = Object.freeze({
  crosswise: "crosswise",
  cheating_detection: "instructed",
  lie_detector: "instructed",
});

/** A spec this randomizer will not run; the message is for the respondent. */
export class SpecRefused extends Error {
  constructor(message) {
    super(message);
    this.name = "SpecRefused";
  }
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

function show(value) {
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

// What is malformed in a validation arm, or null when it is well formed.
function armProblem(arm, bits = 32) {
  if (arm === null || typeof arm !== "object" || arm.format !== 1) {
    return `expected format 1, got ${show(arm?.format)}`;
  }
  const { denominator, direct_below: below } = arm;
  if (!Number.isInteger(denominator) || denominator < 1 || denominator > 2 ** bits) {
    return `denominator ${show(denominator)}`;
  }
  if (!Number.isInteger(below) || below < 0 || below > denominator) {
    return `direct_below ${show(below)}`;
  }
  return null;
}

// Whether a well-formed arm asks more than MAX_DIRECT_PERCENT directly; in
// integers on both sides, so exact at the limit.
const armTooLarge = (arm) => arm.direct_below * 100 > MAX_DIRECT_PERCENT * arm.denominator;

/**
 * Checks a validation arm (a spec's direct_arm) before it is drawn with: well
 * formed, and asking at most MAX_DIRECT_PERCENT of respondents directly.
 *
 * @param {object} arm the spec's direct_arm
 * @throws {SpecRefused} for a malformed arm or one above the limit
 */
export function checkArm(arm) {
  const problem = armProblem(arm);
  if (problem !== null) {
    throw new SpecRefused(`the page sent an unreadable validation arm (${problem})`);
  }
  if (armTooLarge(arm)) {
    const share = Math.ceil((100 * arm.direct_below) / arm.denominator);
    throw new SpecRefused(
      `it would ask ${share}% of respondents directly, without protection, ` +
        `above the limit of ${MAX_DIRECT_PERCENT}%`,
    );
  }
}

// The stated epsilon (the server's words) must be the thresholds' own: a
// design cannot claim more protection than the code that runs gives.
function checkStated(stated, epsilon, what) {
  if (stated === undefined) return;
  if (
    typeof stated !== "number" ||
    !(Math.abs(stated - epsilon) <= EPSILON_SLACK * Math.max(1, epsilon))
  ) {
    throw new SpecRefused(
      `its design states epsilon ${show(stated)} for ${what}, ` +
        `but its thresholds give ${epsilon.toFixed(2)}`,
    );
  }
}

function tooLoose(epsilon, what = "") {
  const shown = Number.isFinite(epsilon) ? epsilon.toFixed(2) : "unbounded";
  return new SpecRefused(
    `its design would protect your answer less than this page allows ` +
      `(epsilon ${shown}${what}, above the limit of ${MAX_EPSILON})`,
  );
}

// Everything but the procedure: the arm, the thresholds (every row), the
// number of answers the page shows, the cap, and the stated epsilon.
function checkMechanism(spec, answers) {
  if (spec?.direct_arm != null) checkArm(spec.direct_arm);
  let epsilon;
  let plain;
  try {
    plain = isPlain(spec);
    epsilon = plain ? 0 : specEpsilon(spec);
  } catch (error) {
    throw new SpecRefused(`the page sent an unreadable design (${error.message})`);
  }
  if (answers !== undefined && spec.k !== answers) {
    throw new SpecRefused(
      `its design has ${show(spec.k)} answers, but the question shows ${show(answers)}`,
    );
  }
  // The page marks a plain question itself, whatever the server says of it.
  if (plain) return "plain";
  if (!(epsilon <= MAX_EPSILON + EPSILON_SLACK)) throw tooLoose(epsilon);
  checkStated(spec.epsilon, epsilon, "an answer");
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
 * @returns {"plain" | "randomized"}
 * @throws {SpecRefused} for a spec that randomizes too little to protect the
 *   answer, or is malformed
 */
export function checkSpec(spec, answers = undefined) {
  // A spec with a procedure is not one to randomize with: a page that knew
  // only this function would otherwise draw noise over a crosswise answer.
  if (spec?.procedure !== undefined) {
    throw new SpecRefused(`the page cannot run the procedure ${show(spec.procedure)}`);
  }
  // Nor is one whose report the respondent produces, stripped of its procedure.
  if (typeof spec?.design === "string" && Object.hasOwn(RESPONDENT_PRODUCED, spec.design)) {
    throw new SpecRefused(
      `its design ${show(spec.design)} is answered by you, not randomized by this device`,
    );
  }
  return checkMechanism(spec, answers);
}

// -- crosswise: the respondent, not the device, produces the report ---------
//
// The respondent says whether two statements are both true or both false
// (report 1) or exactly one is true (report 0); the page sends that choice as
// it is and draws nothing. The spec carries Warner's thresholds with the
// innocuous prevalence, so the same epsilon cap applies. Instructed designs
// (cheating detection) live in instructed.js.

/**
 * The crosswise report from the two answers it pairs (the coding the
 * estimator assumes; the page never learns either answer).
 *
 * @param {0 | 1} sensitive
 * @param {0 | 1} innocuous
 * @returns {0 | 1}
 */
export function crosswiseReport(sensitive, innocuous) {
  for (const value of [sensitive, innocuous]) {
    if (value !== 0 && value !== 1) throw new RangeError(`answers must be 0 or 1, got ${show(value)}`);
  }
  return sensitive === innocuous ? 1 : 0;
}

/**
 * checkSpec for specs without a procedure, and the same checks for crosswise,
 * whose design must be crosswise, with two answers and no validation arm.
 *
 * @param {object} spec a client spec
 * @param {number} [answers] how many answers the question shows
 * @returns {"plain" | "randomized" | "crosswise"}
 * @throws {SpecRefused} for any other procedure, or as checkSpec does
 */
export function checkAnySpec(spec, answers = undefined) {
  if (spec?.procedure === "crosswise") {
    const { procedure, design, direct_arm: arm, ...thresholds } = spec;
    // A Warner spec relabelled crosswise would send the true answer as given.
    if (design !== "crosswise") {
      throw new SpecRefused(`the design ${show(design)} cannot be asked as a crosswise pairing`);
    }
    if (arm !== undefined) {
      throw new SpecRefused("a crosswise pairing cannot be asked directly");
    }
    if (checkMechanism(thresholds, answers) !== "randomized" || thresholds.k !== 2) {
      throw new SpecRefused("the page sent an unreadable design (crosswise)");
    }
    return procedure;
  }
  return checkSpec(spec, answers);
}

/**
 * Which way one question is asked of this respondent when it has a validation
 * arm (estimation/inference/validation.py): directly with probability
 * direct_below / denominator, else randomized. Drawn once, before the question
 * is shown, so the page can say which way it is asked before the answer; the
 * draw is independent of the respondent and of every answer.
 *
 * @param {{format: 1, denominator: number, direct_below: number}} arm the
 *   spec's direct_arm
 * @param {() => number} [source] uniform integers; crypto by default
 * @param {number} [bits=32] uniform bits per source value (tests enumerate 8)
 * @returns {"direct" | "randomized"}
 * @throws {TypeError} on a malformed arm spec, or one above MAX_DIRECT_PERCENT
 */
export function assignArm(arm, source = defaultSource, bits = 32) {
  const problem = armProblem(arm, bits);
  if (problem !== null) throw new TypeError(`malformed direct arm: ${problem}`);
  if (armTooLarge(arm)) throw new TypeError(`direct arm above ${MAX_DIRECT_PERCENT}%`);
  return uniformBelow(arm.denominator, source, bits) < arm.direct_below ? "direct" : "randomized";
}

/**
 * The code a direct answer is sent as: the option's plus k, so the server
 * keeps it apart from the randomized reports (codes 0..k-1).
 *
 * @param {number} truth option index, in [0, k)
 * @param {number} k the question's number of options
 * @returns {number}
 */
export function directCode(truth, k) {
  if (!Number.isInteger(k) || k < 2 || !Number.isInteger(truth) || truth < 0 || truth >= k) {
    throw new RangeError(`truth must be an option index from 0 to ${k - 1}, got ${show(truth)}`);
  }
  return k + truth;
}

// -- check all that apply ------------------------------------------------------
//
// Every item's tick goes through randomize() on its own, with the yes/no spec
// the server sends as `spec.bit` (UnaryEncoding.client_spec in
// estimation/kinds/multiselect/designs.py), and the reports are packed into a bit mask, item i in
// bit i. estimation/kinds/multiselect/simulate.py mirrors this step for step: one uniform
// draw per item, in item order. The whole answer's epsilon is m times one
// bit's (any two answers may differ in every item), and it is that one that is
// held to MAX_EPSILON. Here rather than in a module of its own, so that the
// page's integrity-pinned randomizer is still the only code that draws.

// As estimation/kinds/multiselect/designs.py MAX_ITEMS: masks are stored in a 31-bit column.
const MAX_ITEMS = 30;

function itemCount(spec) {
  if (spec === null || typeof spec !== "object") {
    throw new TypeError(`malformed unary spec: expected an object, got ${String(spec)}`);
  }
  if (spec.format !== SPEC_FORMAT) {
    throw new TypeError(`malformed unary spec: format ${show(spec.format)} is not ${SPEC_FORMAT}`);
  }
  const { m } = spec;
  if (!Number.isInteger(m) || m < 2 || m > MAX_ITEMS) {
    throw new TypeError(`malformed unary spec: m must be an integer from 2 to ${MAX_ITEMS}`);
  }
  if (spec.bit?.k !== 2) {
    throw new TypeError("malformed unary spec: bit must be a yes/no spec (k = 2)");
  }
  return m;
}

/**
 * The reported bit mask for a list of ticks, one randomize() per item.
 *
 * @param {boolean[]} ticked the true ticks, one per item
 * @param {{m: number, bit: object}} spec the question's unary spec
 * @param {() => number} [source] uniform 32-bit integers; crypto by default
 * @returns {number} the mask, item i in bit i
 */
export function randomizeItems(ticked, spec, source) {
  const m = itemCount(spec);
  if (!Array.isArray(ticked) || ticked.length !== m) {
    throw new RangeError(`ticked must list one tick per item (${m})`);
  }
  let mask = 0;
  for (let i = 0; i < m; i++) {
    const bit = randomize(ticked[i] ? 1 : 0, spec.bit, source);
    // Arithmetic, not <<: stays exact past bit 30.
    mask += bit * 2 ** i;
  }
  return mask;
}

/**
 * The whole answer's epsilon from the bit spec's own thresholds: m times one
 * bit's worst log ratio.
 *
 * @param {object} spec a unary spec
 * @returns {number}
 */
export function unaryEpsilon(spec) {
  return itemCount(spec) * specEpsilon(spec.bit);
}

/**
 * Checks a unary spec before any tick is randomized with it: no procedure and
 * no validation arm (neither exists for check all that apply), one item per
 * box the page shows, the bit checked as checkSpec checks a yes/no spec, the
 * whole answer within MAX_EPSILON, and the stated epsilons (whole answer and
 * one item) the ones the bit's thresholds give.
 *
 * @param {object} spec a unary spec
 * @param {number} [items] how many boxes the question shows; m must be that
 * @returns {"randomized"}
 * @throws {SpecRefused} when the bit is sent as given, the spec is malformed,
 *   or the whole answer's epsilon is above MAX_EPSILON
 */
export function checkUnarySpec(spec, items = undefined) {
  if (spec?.procedure !== undefined) {
    throw new SpecRefused(`the page cannot run the procedure ${show(spec.procedure)}`);
  }
  if (spec?.direct_arm != null || spec?.bit?.direct_arm != null) {
    throw new SpecRefused("a check-all-that-apply question cannot be asked directly");
  }
  let epsilon;
  try {
    if (checkSpec(spec.bit) !== "randomized") {
      throw new SpecRefused("its items would be sent exactly as ticked");
    }
    epsilon = unaryEpsilon(spec);
  } catch (error) {
    if (error instanceof SpecRefused) throw error;
    throw new SpecRefused(`the page sent an unreadable design (${error.message})`);
  }
  if (items !== undefined && spec.m !== items) {
    throw new SpecRefused(`its design has ${show(spec.m)} items, but the question shows ${show(items)}`);
  }
  if (!(epsilon <= MAX_EPSILON + EPSILON_SLACK)) {
    throw tooLoose(epsilon, " for all items together");
  }
  checkStated(spec.epsilon, epsilon, "all items together");
  checkStated(spec.epsilon_item, epsilon / spec.m, "one item");
  return "randomized";
}
