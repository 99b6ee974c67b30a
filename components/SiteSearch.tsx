import { useRouter } from 'next/router'
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent } from 'react'
import { useAuth } from '../lib/auth/AuthContext'
import { excerptParts, fetchShardList, forgetSearchSession, importPagefind, SEARCH_PAUSE_MS, sharedSearchSession, type PagefindLoader, type SearchHit, type SearchSession, type ShardListReader } from '../lib/search/searchClient'

export interface SiteSearchProps {
  className?: string
  /** How pagefind.js is imported; tests inject a fake. */
  loader?: PagefindLoader
  /** How each index's shard list is read; tests inject a fake. */
  readShards?: ShardListReader
  /** Pause after typing before a query runs. */
  debounceMs?: number
  /** How many results are shown. */
  limit?: number
}

type Status = 'idle' | 'loading' | 'ready' | 'error'

/* The theme renders this box twice (navbar, and the mobile sidebar); one keyboard listener serves both. */
const inputs: HTMLInputElement[] = []

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type)
}

function onShortcut(event: KeyboardEvent) {
  if (event.defaultPrevented || event.isComposing) return
  const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey
  const commandK = (event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey
  if (!slash && !commandK) return
  if (isEditable(event.target)) return
  const target = inputs.find((input) => input.getClientRects().length > 0) ?? inputs[0]
  if (!target) return
  event.preventDefault()
  target.focus()
  target.select()
}

function registerInput(input: HTMLInputElement): () => void {
  if (inputs.length === 0) document.addEventListener('keydown', onShortcut)
  inputs.push(input)
  return () => {
    inputs.splice(inputs.indexOf(input), 1)
    if (inputs.length === 0) document.removeEventListener('keydown', onShortcut)
  }
}

function Excerpt({ text }: { text: string }) {
  return (
    <>
      {excerptParts(text).map((part, at) => (part.mark ? <mark key={at}>{part.text}</mark> : <span key={at}>{part.text}</span>))}
    </>
  )
}

/**
 * The navbar search box. Pagefind loads on first focus or typing, never with the page, and only
 * from the indexes the reader's view names (one per audience the reader holds, planned by
 * lib/access/planAggregates.ts, each cut into shards, lib/search/searchShards.ts): pagefind.js and
 * its engine come from the first (the home index), every other shard is merged into it with
 * `mergeIndex`. Nothing of a page the reader may not open is ever requested. While the reader
 * types, the index chunks for the term load during the pause before the query runs.
 */
export function SiteSearch({ className, loader = importPagefind, readShards = fetchShardList, debounceMs = SEARCH_PAUSE_MS, limit = 8 }: SiteSearchProps) {
  const { view } = useAuth()
  const router = useRouter()
  const indexes = useMemo(() => view?.search ?? [], [view])
  const indexKey = indexes.map((spec) => spec.basePath).join('|')

  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const [status, setStatus] = useState<Status>('idle')
  const [session, setSession] = useState<SearchSession | null>(null)
  const [hits, setHits] = useState<SearchHit[]>([])
  const [hitsFor, setHitsFor] = useState<string | null>(null)
  const [active, setActive] = useState(-1)
  const inputRef = useRef<HTMLInputElement>(null)
  const containerRef = useRef<HTMLDivElement>(null)
  /** The index set whose load is running or done, so focus and typing start one load only. */
  const loadingKey = useRef<string | null>(null)

  const id = useId()
  const inputId = `${id}-input`
  const listId = `${id}-results`
  const optionId = (at: number) => `${id}-option-${at}`

  // A different reader (sign-out, sign-in as someone else) starts from nothing, and the previous
  // reader's Pagefind instance is destroyed. The next load imports its own copy of pagefind.js,
  // so it never shares WebAssembly with one still loading (lib/search/pagefindScript.ts).
  const previousIndexes = useRef(indexes)
  useEffect(() => {
    if (previousIndexes.current !== indexes && previousIndexes.current.length > 0) forgetSearchSession(previousIndexes.current, loader)
    previousIndexes.current = indexes
    loadingKey.current = null
    setSession(null)
    setStatus('idle')
    setHits([])
    setHitsFor(null)
    setActive(-1)
  }, [indexKey])

  const load = useCallback(() => {
    if (indexes.length === 0 || loadingKey.current === indexKey || loadingKey.current === `failed:${indexKey}`) return
    loadingKey.current = indexKey
    setStatus('loading')
    sharedSearchSession(indexes, loader, readShards).then(
      (opened) => {
        if (loadingKey.current !== indexKey) return
        setSession(opened)
        setStatus('ready')
      },
      () => {
        if (loadingKey.current !== indexKey) return
        // Stays failed until the reader asks for a retry; typing does not hammer the server.
        loadingKey.current = `failed:${indexKey}`
        setStatus('error')
      }
    )
  }, [indexes, indexKey, loader, readShards])

  const term = query.trim()
  useEffect(() => {
    if (!session || term === '') return
    let live = true
    // Fetch what this term needs now, during the pause, so the query after it finds it loaded.
    session.preload(term)
    const timer = setTimeout(() => {
      session.search(term, limit).then(
        (found) => {
          if (!live) return
          setHits(found)
          setHitsFor(term)
          setActive(found.length > 0 ? 0 : -1)
        },
        () => {
          if (!live) return
          forgetSearchSession(indexes, loader)
          loadingKey.current = `failed:${indexKey}`
          setSession(null)
          setStatus('error')
        }
      )
    }, debounceMs)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [session, term, debounceMs, limit, indexKey, indexes, loader])

  const rendered = indexes.length > 0
  useEffect(() => {
    const input = inputRef.current
    return rendered && input ? registerInput(input) : undefined
  }, [rendered])

  // Close after any navigation.
  useEffect(() => setOpen(false), [router.asPath])

  const showing = open && term !== '' && status === 'ready' && hits.length > 0
  const noResults = open && term !== '' && status === 'ready' && hitsFor === term && hits.length === 0

  const go = (hit: SearchHit) => {
    setOpen(false)
    setQuery('')
    setHits([])
    setHitsFor(null)
    inputRef.current?.blur()
    void router.push(hit.url)
  }

  const onResultClick = (event: ReactMouseEvent<HTMLAnchorElement>, hit: SearchHit) => {
    // Let the browser handle new-tab and new-window clicks.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    go(hit)
  }

  const onKeyDown = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      if (open && term !== '') setOpen(false)
      else inputRef.current?.blur()
      return
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!open) {
        setOpen(true)
        setActive(hits.length > 0 ? 0 : -1)
        return
      }
      if (hits.length === 0) return
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((current) => (current < 0 ? (step > 0 ? 0 : hits.length - 1) : (current + step + hits.length) % hits.length))
      return
    }
    if (event.key === 'Enter' && showing && active >= 0 && hits[active]) {
      event.preventDefault()
      go(hits[active])
    }
  }

  // Keep the active option in view while moving with the arrow keys.
  useEffect(() => {
    if (!showing || active < 0) return
    const element = document.getElementById(optionId(active))
    element?.scrollIntoView?.({ block: 'nearest' })
  })

  if (!rendered) return null

  const retry = () => {
    loadingKey.current = null
    load()
    inputRef.current?.focus()
  }

  return (
    <div
      ref={containerRef}
      className={['site-search', className].filter(Boolean).join(' ')}
      onBlur={(event) => {
        if (!containerRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false)
      }}
    >
      <label htmlFor={inputId} className="site-search-label">
        Search documentation
      </label>
      <input
        ref={inputRef}
        id={inputId}
        className="site-search-input"
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        placeholder="Search documentation…"
        aria-autocomplete="list"
        aria-expanded={showing}
        aria-controls={showing ? listId : undefined}
        aria-activedescendant={showing && active >= 0 ? optionId(active) : undefined}
        value={query}
        onFocus={() => {
          setOpen(true)
          load()
        }}
        onChange={(event) => {
          setQuery(event.target.value)
          setOpen(true)
          load()
        }}
        onKeyDown={onKeyDown}
      />
      {!open || term === '' ? null : (
        <div className="site-search-panel" onMouseDown={(event) => event.preventDefault()}>
          {status === 'error' ? (
            <div className="site-search-status" role="alert">
              <span>Search could not be loaded</span>
              <button type="button" className="site-search-retry" onClick={retry}>
                Retry
              </button>
            </div>
          ) : status !== 'ready' ? (
            <div className="site-search-status" role="status">
              Loading search…
            </div>
          ) : noResults ? (
            <div className="site-search-status" role="status">
              No results for “{term}”
            </div>
          ) : showing ? (
            <ul id={listId} role="listbox" aria-label="Search results" className="site-search-results">
              {hits.map((hit, at) => (
                // The link is the option itself: an option holds no control of its own (nested-interactive),
                // and the link still opens in a new tab on a middle or modified click.
                <li key={`${hit.id}-${hit.url}`} role="none">
                  <a
                    id={optionId(at)}
                    role="option"
                    aria-selected={at === active}
                    className="site-search-result"
                    href={hit.url}
                    tabIndex={-1}
                    onMouseMove={() => at !== active && setActive(at)}
                    onClick={(event) => onResultClick(event, hit)}
                  >
                    <span className="site-search-result-title">
                      {hit.title}
                      {hit.heading ? <span className="site-search-result-heading"> › {hit.heading}</span> : null}
                    </span>
                    {hit.section ? <span className="site-search-result-section">{hit.section}</span> : null}
                    <span className="site-search-result-excerpt">
                      <Excerpt text={hit.excerpt} />
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
    </div>
  )
}

export default SiteSearch
