import type { AnswerCaching } from '../cache/answer-caching'
import type { RequestLog } from '../ops/request-log'

/**
 * What a page-cache render (a second dispatch of the app, `page-cache.ts`) tells the cache about its page: set by
 * `sendPage`, read when the answer is back. Keyed by the inner request itself, so no visitor can ask for one.
 */
export type RenderNote = {
  /** The visitor's request line, which counts the render's lookups and upstream calls; the render writes none. */
  readonly log: RequestLog
  /** A refresh: the page is rendered complete (no first byte to hurry), as for a crawler. */
  readonly complete?: boolean
  /** Whether the page was rendered whole (not streamed) and its route allows any cache to keep it. */
  page?: { storable: boolean }
  /** The render's final caching decision (`answerCaching`): what the visitor's answer says when it is not kept. */
  caching?: AnswerCaching
}

const notes = new WeakMap<Request, RenderNote>()

/** Marks a request as the page cache's own render. */
export function noteRender(request: Request, note: RenderNote): void {
  notes.set(request, note)
}

/** The note of a page-cache render, or undefined for a visitor's request. */
export const renderNoteOf = (request: Request): RenderNote | undefined => notes.get(request)
