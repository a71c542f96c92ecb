import { createElement, type ReactElement } from 'react'
import { renderToReadableStream, renderToString } from 'react-dom/server'
import type { Deferred } from './deferred'
import { KeptContext, type KeptPlace, keptRender, spliceKept } from './kept'
import { ScriptNonce } from './nonce'

export type RenderOptions = {
  /**
   * The answer's nonce, or how to make it (made only when the page carries it: a keepable page rendered whole carries
   * none): React's own inline scripts of a stream carry it.
   */
  nonce: string | (() => string)
  /** Sections that may arrive after the shell (Suspense + `use`). */
  deferred: ReadonlyArray<Deferred<unknown>>
  /** Crawlers (and the page cache's refreshes) get the complete document in one piece. */
  complete: boolean
  /**
   * A page the page cache may keep: rendered whole, its scripts carry no nonce (its own inline scripts are allowed by
   * their hashes, so the same bytes can be answered again). Other pages carry the answer's nonce either way.
   */
  keepable: boolean
  /**
   * `stream` always uses React's stream (the benchmark's baseline); `auto` picks as below, reusing the page's kept
   * parts when it renders whole (src/render/kept.tsx); `fresh` (and none given) picks the same and renders every part
   * afresh.
   */
  mode?: 'auto' | 'fresh' | 'stream'
  /** Filled, for a page rendered whole with its kept parts, with where they are in it (its first paint reads it). */
  placed?: KeptPlace[]
  onError: (error: unknown) => void
}

const DOCTYPE = '<!DOCTYPE html>'

/**
 * Renders a page: as one string when its deferred data is already there (the common, warm case: less than half the
 * CPU of React's stream, see docs/benchmark.md), else through React's streaming renderer, whose shell leaves at
 * once and whose slow sections follow as they resolve. Crawlers wait for everything and get the string. A keepable
 * string carries no nonce (its own inline scripts are allowed by their hashes, so the page cache can answer it again);
 * any other answer, a stream included, is this answer's own and carries its nonce.
 *
 * @example
 * const body = await renderPage(<HomePage … />, { nonce, deferred: [latestNews], complete: isBot, onError })
 */
export async function renderPage(page: ReactElement, options: RenderOptions): Promise<string | ReadableStream> {
  if (options.mode === 'stream') return renderStream(page, options)
  if (options.complete) await Promise.all(options.deferred)
  else await settledOrNextTask(options.deferred)
  if (options.deferred.every((d) => d.status === 'fulfilled'))
    return renderWhole(page, options.keepable ? undefined : nonceOf(options), options.mode === 'auto', options.placed)
  return renderStream(page, options)
}

/**
 * The whole document at once (renderToString leaves the doctype to us), its scripts with the nonce given, if any; the
 * parts kept in the isolate reused as bytes, unless `reuse` is false.
 */
function renderWhole(page: ReactElement, nonce: string | undefined, reuse: boolean, placed?: KeptPlace[]): string {
  const withNonce = createElement(ScriptNonce.Provider, { value: nonce }, page)
  if (!reuse) return DOCTYPE + renderToString(withNonce)
  const kept = keptRender()
  const html = spliceKept(renderToString(createElement(KeptContext.Provider, { value: kept }, withNonce)), kept)
  for (const place of kept.placed) placed?.push({ ...place, at: place.at + DOCTYPE.length })
  return DOCTYPE + html
}

/** React's streaming renderer (it writes the doctype itself): the shell first, each Suspense section when ready. */
function renderStream(page: ReactElement, options: Pick<RenderOptions, 'nonce' | 'onError'>) {
  const nonce = nonceOf(options)
  return renderToReadableStream(createElement(ScriptNonce.Provider, { value: nonce }, page), {
    nonce,
    onError: options.onError,
  })
}

/** The answer's nonce, made now if it was only said how. */
const nonceOf = ({ nonce }: Pick<RenderOptions, 'nonce'>): string => (typeof nonce === 'string' ? nonce : nonce())

/** Waits until the deferred data is settled or the current task's microtasks have run: never for I/O. */
function settledOrNextTask(deferred: ReadonlyArray<Deferred<unknown>>): Promise<unknown> {
  // Data already there (a lookup from the isolate's memo) needs no timer: one fewer per uncached page.
  if (deferred.every((d) => d.status === 'fulfilled')) return Promise.resolve()
  return Promise.race([Promise.all(deferred), new Promise((resolve) => setTimeout(resolve, 0))])
}
