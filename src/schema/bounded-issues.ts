/**
 * The bounds of an error report: however large the schema or the arguments, a failed call reports
 * at most {@link MAX_ISSUES} issues and one that counts the rest, each at most
 * {@link MAX_ISSUE_LENGTH} characters, so what it produces is a constant plus the call's own size.
 *
 * @module
 */

/** The most issues one check reports; past it, one last issue counts the rest. */
export const MAX_ISSUES = 20;
/** The longest issue, in UTF-16 code units (cut in its middle, so that its path's end and its reason stay). */
export const MAX_ISSUE_LENGTH = 300;

/** `2000` as `2,000`, the same in every runtime (no locale). */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** An issue cut to {@link MAX_ISSUE_LENGTH}, never inside a surrogate pair. */
export function boundIssue(issue: string): string {
  if (issue.length <= MAX_ISSUE_LENGTH) return issue;
  let head = 150;
  let tail = issue.length - (MAX_ISSUE_LENGTH - head - 1);
  if (isLow(issue.charCodeAt(head))) head--;
  if (isLow(issue.charCodeAt(tail))) tail++;
  return `${issue.slice(0, head)}…${issue.slice(tail)}`;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** At most {@link MAX_ISSUES} issues, each bounded, then `and N more` (of `total` issues in all). */
export function boundIssues(issues: readonly string[], total: number = issues.length): string[] {
  const shown = issues.slice(0, MAX_ISSUES).map(boundIssue);
  if (total > shown.length) shown.push(`and ${thousands(total - shown.length)} more`);
  return shown;
}

/** A pointer's token as a path segment: `[0]` for an index, else as {@link member} writes a key. */
export function segment(key: string): string {
  return /^(0|[1-9][0-9]*)$/.test(key) ? `[${key}]` : member(key);
}

/** A key as a path segment: `.name` when it reads as a name, else `["..."]`. */
export function member(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key)
    ? `.${key}`
    : `[${JSON.stringify(key.length > 40 ? `${key.slice(0, 39)}…` : key)}]`;
}
