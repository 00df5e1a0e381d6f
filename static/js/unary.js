// Check-all-that-apply: every item's tick goes through rr.js's randomize on its
// own, with the yes/no spec the server sends as `spec.bit`
// (UnaryEncoding.client_spec in estimation/unary.py), and the reports are
// packed into a bit mask, item i in bit i. estimation/unary_simulate.py mirrors
// this step for step: one uniform draw per item, in item order.
//
// The whole answer's epsilon is m times one bit's (any two answers may differ
// in every item), and it is that one this module holds to rr.js's MAX_EPSILON.

import { MAX_EPSILON, SpecRefused, checkSpec, randomize, specEpsilon } from "./rr.js";

// As estimation/unary.py MAX_ITEMS: masks are stored in a 31-bit column.
const MAX_ITEMS = 30;
// Python and JavaScript may differ in the last bit of a logarithm.
const EPSILON_SLACK = 1e-9;

function itemCount(spec) {
  if (spec === null || typeof spec !== "object") {
    throw new TypeError(`malformed unary spec: expected an object, got ${String(spec)}`);
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
 * Checks a unary spec before any tick is randomized with it.
 *
 * @param {object} spec a unary spec
 * @returns {"randomized"}
 * @throws {SpecRefused} when the bit is sent as given, the spec is malformed,
 *   or the whole answer's epsilon is above MAX_EPSILON
 */
export function checkUnarySpec(spec) {
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
  if (!(epsilon <= MAX_EPSILON + EPSILON_SLACK)) {
    throw new SpecRefused(
      `its design would protect your ticks less than this page allows ` +
        `(epsilon ${epsilon.toFixed(2)} for all items together, above the limit of ${MAX_EPSILON})`,
    );
  }
  return "randomized";
}
