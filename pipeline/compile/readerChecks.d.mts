/** Types of ./readerChecks.mjs, for the tests. */
export function headingLevel(node: unknown): number | null
export function headingProblem(level: number, previous: number | null): string | null
export function altProblem(node: unknown, valueOf: (attribute: unknown) => unknown): string | null
