import type { AnswerCaching } from '../cache/answer-caching'
import type { RequestLog } from '../ops/request-log'

/**
 * A page-cache render (a second dispatch of the app, `page-cache.ts`): what the page cache tells it, and what it tells
 * the page cache about its page. The app reads it as `c.var.pageCacheRender` (set by `requestContext`); `sendPage`
 * and `answerCaching` write their part, the page cache reads it when the answer is back.
 */
export type PageCacheRender = {
  /** The visitor's request line, which counts the render's lookups and upstream calls; the render writes none. */
  readonly log: RequestLog
  /** A refresh: the page is rendered complete (no first byte to hurry), as for a crawler. */
  readonly complete: boolean
  /** Whether the page was rendered whole (not streamed) and its route allows any cache to keep it (`sendPage`). */
  page?: { storable: boolean }
  /** The render's final caching decision (`answerCaching`): what the visitor's answer says when it is not kept. */
  caching?: AnswerCaching
}

/**
 * The anonymous request of a page-cache render, carrying its render into the app's second dispatch. Only the page
 * cache makes one: no visitor's request can pass for a render.
 */
export class RenderRequest extends Request {
  constructor(
    input: URL,
    init: RequestInit,
    readonly render: PageCacheRender,
  ) {
    super(input, init)
  }
}

/** The page-cache render a request is, or null for a visitor's request. */
export const pageCacheRenderOf = (request: Request): PageCacheRender | null =>
  request instanceof RenderRequest ? request.render : null
