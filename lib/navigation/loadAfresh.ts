/**
 * Leaves the page with a full page load, not Next's router: what this tab fetched for its reader
 * (the router's page data, prefetched pages included, the navigation fragments, the reader's view)
 * goes with the document, so a tab whose reader is gone or was refused keeps nothing of theirs in
 * memory for whoever signs in next at that browser.
 */
export function loadAfresh(url: string): void {
  window.location.replace(url)
}
