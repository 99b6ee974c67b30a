/**
 * Which URL a search session imports pagefind.js from: its own, so that no two sessions share
 * Pagefind's WebAssembly.
 *
 * pagefind.js (Pagefind 1.6, written by the indexer into every bundle) keeps its WebAssembly
 * instance in one module-level variable (the `let wasmModule,wasmInstance,wasm` of its
 * wasm-bindgen glue) and, when it uses a worker, one module-level worker (`sharedWorker`) whose
 * own copy of that glue holds the same single variable. Each Pagefind instance only keeps a
 * pointer into "the" WebAssembly memory. Starting the engine checks that variable before an
 * await and sets it after (`__wbg_init`: `if(wasm!==undefined)return wasm; … await … ;
 * __wbg_finalize_init` sets `wasm`), so two instances of one module that load at the same time
 * each compile their own WebAssembly, and whichever finishes last replaces the other's: from
 * then on the other instance reads its pointer in the wrong memory ("memory access out of
 * bounds", or silently wrong results). Merged indexes are safe (they reuse the first instance's
 * engine and never start their own), but a second session of the page is not: a reader view
 * that changes while the first session is still loading, or a load that timed out and goes on
 * in the background.
 *
 * A browser keeps one module per URL, so a distinct query string gives a session its own
 * module, engine and worker. The first session of a page uses the plain URL, so the usual case
 * costs nothing; a later one downloads pagefind.js again and starts its own
 * engine. This also gives a retry after a failed import a URL the browser has not marked failed.
 */
import { PAGEFIND_SCRIPT } from './searchShards'

const started = new WeakMap<object, number>()

/** The pagefind.js URL for the next session that `owner` (the loader) opens: plain the first time, then a fresh copy each time. */
export function nextPagefindScript(owner: object, basePath: string): string {
  const copy = started.get(owner) ?? 0
  started.set(owner, copy + 1)
  return copy === 0 ? `${basePath}${PAGEFIND_SCRIPT}` : `${basePath}${PAGEFIND_SCRIPT}?copy=${copy}`
}
