import type { z } from 'zod'
import { rejectionSchema } from '../../contract/account-schemas'

/** What one call of the contract did: it conformed, the backend lacks it (404/405), or it failed and why. */
export type CallResult = {
  /** The call as the contract writes it: `GET api/sites/it`. */
  call: string
  outcome: 'conforms' | 'missing' | 'fails'
  status: number | null
  /** Why it failed: the status, or the first mismatching field (zod's path) and zod's message. */
  detail?: string
}

/** How a probe reaches the backend and who it speaks for. */
export type ProbeOptions = {
  /** The backend's origin, `https://api.brand.example` (calls go to `${base}/api/…`). */
  base: string
  fetch: typeof fetch
  /** The market every call speaks for (`X-Tenant`, `X-Locale`), once known. */
  market?: { country: string; locale: string }
  /** Only GET: the public `/api/` of `npm start` serves the reference API's reads alone, so posts are left out. */
  readsOnly?: boolean
}

/** What a call sends beyond its path. */
export type CallOptions = {
  method?: 'GET' | 'POST'
  body?: unknown
  /** A bearer token (a customer's or a staff member's). */
  token?: string
  /** A 404 is an answer here (an empty cart), not a failure: the read answers null. */
  absent?: boolean
}

/** Thrown when an area's first call answers 404 or 405: the backend does not serve the area. */
export class AreaMissing extends Error {}

/** The first issue of a failed parse as `path: message` (`data[0].currency: expected string, received undefined`). */
export function firstMismatch(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid'
  const path = issue.path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`))
    .join('')
  return `${path || '(answer)'}: ${issue.message}`
}

/**
 * The calls of one area against a backend, each recorded: `read` parses a 2xx answer with the contract's schema,
 * `refuses` expects one of the refusals the contract names. The area's first call answering 404/405 throws
 * `AreaMissing`; any later failure is recorded and answers null, so the area goes on with what it has.
 *
 * @example
 * const probe = areaProbe({ base, fetch, market })
 * const sites = await probe.read('sites', sitesAnswer)
 */
export function areaProbe(options: ProbeOptions) {
  const calls: CallResult[] = []
  /** The posts left out under `readsOnly`, as `POST api/…`. */
  const skipped: string[] = []

  async function call(path: string, { method = 'GET', body, token }: CallOptions) {
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (options.market) {
      headers['X-Tenant'] = options.market.country
      headers['X-Locale'] = options.market.locale
    }
    if (token) headers.Authorization = `Bearer ${token}`
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const name = `${method} api/${path}`
    try {
      const response = await options.fetch(`${options.base.replace(/\/+$/, '')}/api/${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
      return { name, status: response.status, json }
    } catch (error) {
      return { name, status: null, json: undefined, error: error instanceof Error ? error.message : String(error) }
    }
  }

  function record(result: CallResult) {
    const first = calls.length === 0
    calls.push(result)
    if (first && (result.status === 404 || result.status === 405)) {
      result.outcome = 'missing'
      throw new AreaMissing(result.call)
    }
  }

  return {
    calls,
    skipped,
    /** A read (or a write the contract answers with data): its parsed answer, or null when it did not conform. */
    async read<S extends z.ZodType>(
      path: string,
      schema: S,
      callOptions: CallOptions = {},
    ): Promise<z.infer<S> | null> {
      const answer = await call(path, callOptions)
      const result: CallResult = { call: answer.name, outcome: 'fails', status: answer.status }
      if (answer.status === null) result.detail = `no answer (${answer.error})`
      else if (answer.status === 404 && callOptions.absent && calls.length > 0) {
        calls.push({ ...result, outcome: 'conforms', detail: 'none (404)' })
        return null
      } else if (answer.status < 200 || answer.status > 299) result.detail = `answered ${answer.status}`
      else if (answer.json === undefined) result.detail = 'answered no JSON'
      else {
        const parsed = schema.safeParse(answer.json)
        if (parsed.success) {
          record({ ...result, outcome: 'conforms' })
          return parsed.data
        }
        result.detail = firstMismatch(parsed.error)
      }
      record(result)
      return null
    },
    /** A call the contract refuses (a wrong password, a malformed body, no token): one of `statuses`, its shape. */
    async refuses(path: string, statuses: number[], callOptions: CallOptions = {}): Promise<void> {
      if (options.readsOnly && callOptions.method === 'POST') {
        skipped.push(`POST api/${path}`)
        return
      }
      const answer = await call(path, callOptions)
      const result: CallResult = { call: answer.name, outcome: 'fails', status: answer.status }
      if (answer.status === null) result.detail = `no answer (${answer.error})`
      else if (!statuses.includes(answer.status))
        result.detail = `answered ${answer.status}, not a refusal (${statuses.join(' or ')})`
      else {
        const parsed = rejectionSchema.safeParse(answer.json)
        if (parsed.success) result.outcome = 'conforms'
        else result.detail = firstMismatch(parsed.error)
      }
      record(result)
    },
  }
}

export type AreaProbe = ReturnType<typeof areaProbe>
