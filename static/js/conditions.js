// Display logic on the respondent page: whether the plain answers given so
// far meet a question's condition. Pure (no DOM), the same rule as the
// server's (surveys/display_logic/conditions.py), and both are checked
// against the same cases (tests/fixtures/conditions.json).
//
// A clause reads one earlier question asked plainly. "equals" and "one_of"
// read its answer's code (the option's index, a count, a number's range);
// "range" reads the number typed when the question takes one (never its
// range's code), else the code, with both bounds included. An answer not
// given, or given to a question not shown, meets no clause. Only plain
// answers are read, never a randomized question's, so no protected answer
// changes what the page does.

/**
 * Whether one clause is met.
 *
 * @param {object} clause {question, op, value | values | min, max}
 * @param {number | undefined} answer the answer's code
 * @param {number | undefined} number the number typed, for a question that takes one
 * @returns {boolean}
 */
export function clauseMet(clause, answer, number) {
  if (clause.op === "range") {
    const value = number ?? answer;
    if (value === undefined || value === null) return false;
    return (clause.min === null || value >= clause.min) && (clause.max === null || value <= clause.max);
  }
  if (answer === undefined || answer === null) return false;
  if (clause.op === "equals") return answer === clause.value;
  return clause.values.includes(answer);
}

/**
 * Whether the answers given meet a condition; no condition is always met.
 *
 * @param {{match: string, clauses: object[]} | null} condition
 * @param {Object<string, number>} answers each question's code, by id
 * @param {Object<string, number>} [numbers] each number typed, by question id
 * @returns {boolean}
 */
export function conditionMet(condition, answers, numbers = {}) {
  if (!condition) return true;
  const met = condition.clauses.map((clause) =>
    clauseMet(clause, answers[clause.question], numbers[clause.question]),
  );
  return condition.match === "any" ? met.some(Boolean) : met.every(Boolean);
}
