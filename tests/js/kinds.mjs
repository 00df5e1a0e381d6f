// Each kind's browser module (surveys/kinds/<kind>/static/page.js) given the
// randomizer, as the respondent page (static/js/survey.js) gives it; KINDS is
// every kind's, as on a page that shows them all.
import binaryKind from "../../surveys/kinds/binary/static/page.js";
import freetextKind from "../../surveys/kinds/freetext/static/page.js";
import instructedKind from "../../surveys/kinds/instructed/static/page.js";
import listExperimentKind from "../../surveys/kinds/listexperiment/static/page.js";
import multiselectKind from "../../surveys/kinds/multiselect/static/page.js";
import numericKind from "../../surveys/kinds/numeric/static/page.js";
import * as rr from "../../static/js/rr.js";

export const binary = binaryKind(rr);
export const freetext = freetextKind(rr);
export const instructed = instructedKind(rr);
export const listExperiment = listExperimentKind(rr);
export const multiselect = multiselectKind(rr);
export const numeric = numericKind(rr);
export const KINDS = [binary, freetext, instructed, listExperiment, multiselect, numeric];
