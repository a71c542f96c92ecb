import type { z } from 'zod'
import { type Rejection, rejectionSchema } from '../../contract/account-schemas'
import { checkedValue } from '../../contract/checked-answers'
import { UpstreamError, type UpstreamFailure } from './errors'
import { ReadRetry, retryDelay, sleep, takeRetrySlot } from './retry'
import { answeredInProcess, type Transport } from './transport'

/** What the client reports of each call: the request log counts them and logs failures. */
export type UpstreamCall = { method: string; path: string; status: number; ms: number; failure?: UpstreamFailure }

export type UpstreamOptions = {
  transport: Transport
  /** `UPSTREAM_URL`, or the embedded origin. */
  baseUrl: string
  timeoutMs: number
  /** Sent as X-Tenant / X-Locale when the market is known. */
  market?: { country: string; locale: string }
  /** Sent as `Authorization: Bearer`; never logged. */
  token?: string
  /** Aborts every call of this client (the visitor went away). */
  signal?: AbortSignal
  onCall?: (call: UpstreamCall) => void
  /** How a retry waits its delay (`sleep`, a timer); a test hands in its own to count the delays without waiting them. */
  wait?: (ms: number) => Promise<void>
}

export type ReadOptions = {
  /** A background refresh: the whole retry policy, nobody waits. Otherwise retries fit in the call's timeout. */
  background?: boolean
}

/** The one client of the content/account API. Every method answers `null` for a 404 and throws `UpstreamError`. */
export type Upstream = {
  get<S extends z.ZodType>(path: string, schema: S, options?: ReadOptions): Promise<z.infer<S> | null>
  send<S extends z.ZodType>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body: unknown,
    schema: S,
  ): Promise<z.infer<S> | null>
  /** The same client speaking for another market (X-Tenant / X-Locale). */
  forMarket(market: { country: string; locale: string }): Upstream
  /** The same client speaking for a logged-in visitor. */
  withToken(token: string | undefined): Upstream
}

/**
 * A background refresh retries every failure but a 4xx. A visitor's call retries only transport failures (no answer,
 * 502, 504): a 500 or 503 is the backend's own answer (maintenance, for a site) and is not worth the wait.
 */
function retryable({ failure, status }: UpstreamError, background: boolean): boolean {
  if (failure === 'unauthorized' || failure === 'rejected' || (status !== undefined && status >= 400 && status < 500))
    return false
  if (background) return true
  return (failure === 'unavailable' && status === undefined) || status === 502 || status === 504
}

/**
 * Creates the upstream client.
 *
 * @example
 * const upstream = createUpstream({ transport, baseUrl, timeoutMs: 3000 }).forMarket({ country: 'it', locale: 'it' })
 * const site = await upstream.get('sites/it', siteAnswer)
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  return new UpstreamClient(options)
}

/**
 * The client as a class: its methods are made once per isolate, not once per client (a page makes two or three
 * clients: the request's, its market's, its customer's) and per call, as closures would be (the bundle names each
 * closure it makes with `Object.defineProperty`: docs/decisions/074).
 */
class UpstreamClient implements Upstream {
  constructor(private readonly options: UpstreamOptions) {}

  get<S extends z.ZodType>(path: string, schema: S, { background = false }: ReadOptions = {}) {
    return read(this.options, path, schema, background)
  }

  send<S extends z.ZodType>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown, schema: S) {
    return call(this.options, method, path, body, schema, Date.now() + this.options.timeoutMs, this.options.signal)
  }

  forMarket({ country, locale }: { country: string; locale: string }): Upstream {
    return new UpstreamClient({ ...this.options, market: { country, locale } })
  }

  withToken(token: string | undefined): Upstream {
    return new UpstreamClient({ ...this.options, token })
  }
}

/** Reports a call to `onCall` (the request log), timed from `started`. */
function report(
  options: UpstreamOptions,
  method: string,
  path: string,
  started: number,
  status: number,
  failure?: UpstreamFailure,
) {
  options.onCall?.({ method, path, status, ms: Date.now() - started, failure })
}

/** A call's failure: reported, and the error to throw. */
function failed(
  options: UpstreamOptions,
  method: string,
  path: string,
  started: number,
  failure: UpstreamFailure,
  status: number,
  rejection?: Rejection,
): UpstreamError {
  report(options, method, path, started, status, failure)
  return new UpstreamError(failure, path, status || undefined, rejection)
}

/** One call: its answer's value (null for a 404), or an `UpstreamError` reported and thrown. */
async function call<S extends z.ZodType>(
  options: UpstreamOptions,
  method: string,
  path: string,
  body: unknown,
  schema: S,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<z.infer<S> | null> {
  const started = Date.now()
  if (signal?.aborted) throw failed(options, method, path, started, 'unavailable', 0)
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), Math.max(1, deadline - started))
  const stop = {
    handleEvent() {
      controller.abort()
    },
  }
  signal?.addEventListener('abort', stop)
  try {
    const response = await settleFirst(
      options.transport(
        new Request(`${options.baseUrl}/api/${path}`, {
          method,
          headers: headers(options, body !== undefined),
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
        }),
      ),
      controller.signal,
    )
    if (!response.ok) {
      if (isRefusal(response.status)) {
        const reasons = rejectionSchema.safeParse(
          await settleFirst(
            response.json().catch(() => ({})),
            controller.signal,
          ),
        )
        throw failed(
          options,
          method,
          path,
          started,
          'rejected',
          response.status,
          reasons.success ? reasons.data : { message: '' },
        )
      }
      await response.body?.cancel().catch(() => {})
      if (response.status === 404) {
        report(options, method, path, started, 404)
        return null
      }
      throw failed(
        options,
        method,
        path,
        started,
        response.status === 401 ? 'unauthorized' : 'unavailable',
        response.status,
      )
    }
    // The embedded API in this isolate checked its answer with this very schema: taken as it is, not read twice.
    const checked = answeredInProcess(response) ? checkedValue(response, schema) : undefined
    if (checked) {
      report(options, method, path, started, response.status)
      return checked.value as z.infer<S>
    }
    const json = await settleFirst(
      response.json().catch(() => undefined),
      controller.signal,
    )
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw failed(options, method, path, started, 'invalid', response.status)
    report(options, method, path, started, response.status)
    return parsed.data as z.infer<S>
  } catch (error) {
    if (error instanceof UpstreamError) throw error
    throw failed(
      options,
      method,
      path,
      started,
      controller.signal.aborted && !signal?.aborted ? 'timeout' : 'unavailable',
      0,
    )
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', stop)
  }
}

/**
 * A read: a visitor's retries fit in the call's timeout; a background refresh gets the whole retry policy (a slot of
 * its own, a timeout per attempt) and is not aborted with the visitor's request, which it outlives.
 */
async function read<S extends z.ZodType>(
  options: UpstreamOptions,
  path: string,
  schema: S,
  background: boolean,
): Promise<z.infer<S> | null> {
  const deadline = Date.now() + options.timeoutMs
  const slot = background ? takeRetrySlot() : null
  const attempts = background && !slot ? 1 : ReadRetry.attempts
  try {
    for (let n = 1; ; n++) {
      try {
        return background
          ? await call(options, 'GET', path, undefined, schema, Date.now() + options.timeoutMs, undefined)
          : await call(options, 'GET', path, undefined, schema, deadline, options.signal)
      } catch (error) {
        const upstreamError = error as UpstreamError
        if (n >= attempts || (!background && options.signal?.aborted)) throw error
        const delay = retryDelay(n + 1)
        if (!retryable(upstreamError, background) || (!background && Date.now() + delay >= deadline)) throw error
        await (options.wait ?? sleep)(delay)
      }
    }
  } finally {
    slot?.release()
  }
}

/** A 4xx other than 401 and 404: the API refused the request itself and says why. */
const isRefusal = (status: number) => status >= 400 && status < 500 && status !== 401 && status !== 404

function headers({ market, token }: UpstreamOptions, hasBody: boolean): Headers {
  const result = new Headers({ Accept: 'application/json' })
  if (hasBody) result.set('Content-Type', 'application/json')
  if (market) {
    result.set('X-Tenant', market.country)
    result.set('X-Locale', market.locale)
  }
  if (token) result.set('Authorization', `Bearer ${token}`)
  return result
}

/**
 * The work's result, or a rejection as soon as the signal aborts. The work may still settle later (an in-process call
 * cannot be stopped): its late failure is swallowed rather than left as an unhandled rejection.
 */
function settleFirst<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => {})
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'))
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
    work.then(resolve, reject)
  })
}
