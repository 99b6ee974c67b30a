/**
 * How many files Pagefind writes an index's excerpt data ("fragments") into. Pure, so the build
 * and its tests agree.
 *
 * By default Pagefind writes one file per record, and a query fetches one file per result it
 * shows: up to 8 requests, each also a run of the edge authorizer. Records are written in route
 * order, so a page's sections sit side by side; grouping RECORDS_PER_FILE consecutive records per
 * file lets the results of one query, which often come from the same pages, share files and stay
 * cached for the next query (on the real site, about a third of the requests per query, with the
 * same results and excerpts). The price is paid before the first result: Pagefind's metadata,
 * which every reader of the index downloads whole, then names each record's file (about 2 bytes
 * more per record), and each file fetched is larger. So only indexes of at most
 * MAX_GROUPED_RECORDS records are grouped, which keeps that price under about 4 kB per index; a
 * larger index (the 2,000-page benchmark site's) keeps one file per record.
 */
export const RECORDS_PER_FILE = 8
export const MAX_GROUPED_RECORDS = 2000

/** Pagefind's `maxFragments` for an index of `records` records: undefined keeps one file per record. */
export function maxFragmentsFor(records: number): number | undefined {
  if (records <= RECORDS_PER_FILE || records > MAX_GROUPED_RECORDS) return undefined
  return Math.ceil(records / RECORDS_PER_FILE)
}
