/**
 * Live checks: a claim shown with its verdict and the numbers behind it, computed at the reader's settings.
 * @module seqorder/checks
 */
// Types for seqorder/checks (written by hand, as the package's other declarations). A check is one claim of a page,
// shown with its verdict and the numbers behind it, computed live; styles: seqorder/figures.css.

/** One claim, as an experiment returns it. */
export interface Check {
  /** A page-unique id: the element becomes `id="check-<name>"` and `data-check="<name>"`. */
  name: string;
  /** Whether the claim holds (anything but true is shown as a failure). Ignored while pending. */
  pass?: boolean;
  /** The claim, in words (default: the name). */
  claim?: string;
  /** The numbers behind the verdict ("max |a − b| = 0 over 512 values"), or why a check is pending. */
  details?: string;
  /** The numbers are a fixed example, not computed at the controls' current values: a "fixed example" tag, no stamp. */
  fixed?: boolean;
  /** No verdict yet: its numbers come from a run that has not finished. */
  pending?: boolean;
}

/** How a list of checks is shown. */
export interface CheckListOptions {
  /** Each check shows its badge and claim; its details unfold (a `<details>` per check). Default false: all shown. */
  foldDetails?: boolean;
}

/**
 * Appends an empty list of checks (`<div class="checks">`) with a heading to `root`, and returns it.
 * @example
 * const list = checkList(document.querySelector('#figure')!);
 * renderChecks(list, [{ name: 'norm', pass: Math.abs(norm - 4) < 1e-12, claim: 'Every row has norm 2', details: `‖p‖² = ${norm}` }]);
 * @throws {TypeError} when root is not an element, heading not a string, or foldDetails not a boolean
 */
export function checkList(root: Element, heading?: string, options?: CheckListOptions): HTMLDivElement;

/**
 * Shows each check in `list` (a `.checks` element, or any element), or updates the one of the same name in place: a
 * badge (pass, fail or pending: `data-status`), the claim, and its details. Each is stamped (`data-at`) with the values
 * (`id=value`; a control's `data-value` where it has one, such as a number field whose text is refused keeping the
 * value it last took; a checkbox's `checked`, a toggle button's `aria-pressed`; else its value) of the controls of its
 * figure group (the list's closest `.fig` element, plus the controls its `data-controls` names). A check left behind
 * by a control change is visibly stale: once a control has changed (an input, change or click) and
 * {@link STALE_AFTER_MS} have passed without the check being rendered again, it gets `data-stale="true"`, the stale
 * style of figures.css and a tag naming the values it was computed at ("stale: computed at width 64, now 32");
 * rendering it again clears them. Each rendering dispatches a `seqorder:check` event ({ name, pass, pending }) on the
 * document.
 * @example
 * slider.addEventListener('input', () => renderChecks(list, experiment(Number(slider.value))));
 * @throws {TypeError} when list is not an element, checks not an array, a check not an object, its name not a
 *         non-empty string, its claim or details not a string, or fixed or pending not a boolean
 * @throws {RangeError} when two checks share a name, or a name's element id (`check-<name>`) belongs to another
 *         element of the page
 * (Every check is read before any is rendered: a call that throws changes nothing.)
 */
export function renderChecks(list: Element, checks: readonly Check[]): void;

/** How long after a control changes (milliseconds) a check still computed at the earlier values is marked stale. */
export const STALE_AFTER_MS: number;

/** What summarize counts. */
export interface CheckSummary {
  passed: number;
  failed: number;
  /** Each failing check's name and text. */
  failures: { name: string; text: string }[];
  /** The names of the pending checks. */
  pending: string[];
}

/**
 * Counts the checks (`[data-check]` elements) under `scope`: a page's summary line, or a test's verdict.
 * @example
 * const { passed, failed } = summarize();
 * status.textContent = failed === 0 ? `All ${passed} checks pass` : `${failed} checks fail`;
 * @throws {TypeError} when scope is not a document or an element
 */
export function summarize(scope?: ParentNode): CheckSummary;
