import { SITE_STACK_NAME } from './stack-outputs';

/**
 * Whether the CDK command synthesizes the site stack. The CLI names the stacks a command selects
 * in the context key `aws:cdk:bundling-stacks` (Stack.bundlingRequired reads it): with
 * `--exclusively`, the names or patterns given (`cdk deploy DocsAuthStack --exclusively`), else
 * `**`; an empty list for commands that bundle nothing (`cdk ls`, `cdk destroy`). Only a list
 * that names stacks and none of them the site's leaves it out: the first deploy of the user pool,
 * before the builds that need the pool's ids exist (a synth of the site stack refuses to run
 * without them).
 */
export function selectsSiteStack(selected: unknown): boolean {
  if (!Array.isArray(selected) || selected.length === 0) return true;
  return selected.some((pattern) => typeof pattern !== 'string' || !SIMPLE_PATTERN.test(pattern) || globMatches(pattern, SITE_STACK_NAME));
}

/**
 * A name, or one with `*` and `?`. The CLI matches with picomatch, which also reads braces, classes,
 * `!` and paths: a pattern with any of those selects the site stack too, so a pattern read
 * otherwise here never skips it (its synth then refuses a missing build).
 */
const SIMPLE_PATTERN = /^[A-Za-z0-9_*?-]+$/;

/** A simple CLI stack pattern (SIMPLE_PATTERN, so no other character a regular expression reads): `*` any run of characters, `?` one. */
function globMatches(pattern: string, name: string): boolean {
  const source = pattern.replace(/\*+/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(name);
}
