import type { Context } from 'hono'
import type { z } from 'zod'
import { markChecked } from '../contract/checked-answers'
import { fieldErrors } from '../contract/fields'
import type { User } from '../contract/schemas'
import type { Staff } from '../contract/staff-schemas'
import type { WorkerCustomer } from '../contract/worker-customer'

/**
 * The embedded API's environment: its D1 database, its public origin and the Worker's service token (which settling a
 * payment needs when set), the customer the Worker vouches for on a held shop's call (reference-api/worker-customer.ts), the market the
 * caller speaks for and, on account calls, its user (on staff calls, its staff member).
 */
export type ApiEnv = {
  Bindings: {
    DB: D1Database
    UPSTREAM_SERVICE_TOKEN?: string
    WORKER_CUSTOMER?: WorkerCustomer
    /** The site's request an in-process call is made for: its reads look a bearer up once (reference-api/bearer-once.ts). */
    SITE_REQUEST?: object
    /** Where the deployment is served: the demo's accounts sign in only on this machine (reference-api/demo-accounts.ts). */
    PUBLIC_ORIGIN?: string
  }
  Variables: { tenant: string | null; locale: string; user: User; staff: Staff }
}

export type ApiContext = Context<ApiEnv>

/**
 * Answers `data` after checking it against the contract's schema: the API never answers what the contract forbids. The
 * answer is marked as checked (contract/checked-answers.ts), so an in-process caller reading it with the same schema
 * takes the checked value as it is.
 */
export function respond<S extends z.ZodType>(
  c: ApiContext,
  schema: S,
  body: z.input<S>,
  status: 200 | 201 | 202 = 200,
) {
  const value = schema.parse(body) as object
  return markChecked(c.json(value, status), schema, value)
}

/** The contract's answer to input that fails its schema: 422 with the message keys per field. */
export const invalid = (c: ApiContext, error: z.ZodError) =>
  c.json({ message: 'The given data was invalid.', errors: fieldErrors(error) }, 422)

/** A refusal with a machine-readable code (and the field it concerns), e.g. 409 `serial_registered`. */
export const refuse = (c: ApiContext, status: 403 | 409 | 410 | 422, code: string, field?: string) =>
  c.json({ message: code.replace(/_/g, ' '), code, ...(field ? { errors: { [field]: [code] } } : {}) }, status)

/** The request's JSON body, or undefined when it is not JSON. */
export const jsonBody = (c: ApiContext): Promise<unknown> => c.req.json().catch(() => undefined)

/** The contract's "does not exist" answer. */
export const notFound = (c: ApiContext) => c.json({ message: 'Not Found' }, 404)

/** Parses a whole positive number from a path or query parameter, or answers null. */
export function positiveInt(value: string | undefined, max = 1_000_000): number | null {
  if (!value || !/^[0-9]{1,9}$/.test(value)) return null
  const number = Number(value)
  return number >= 1 && number <= max ? number : null
}

/** Rows' JSON columns parsed, tolerating a broken row as the given fallback. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  try {
    return text ? (JSON.parse(text) as T) : fallback
  } catch {
    return fallback
  }
}

/** The most items a paged list answers at once. */
export const MAX_PER_PAGE = 50

/** A paged list's `page` and `per_page` (defaults 1 and `perPage`, at most MAX_PER_PAGE), or null when malformed. */
export function pageParams(c: ApiContext, perPage: number): { page: number; perPage: number; offset: number } | null {
  const page = c.req.query('page') === undefined ? 1 : positiveInt(c.req.query('page'))
  const size = c.req.query('per_page') === undefined ? perPage : positiveInt(c.req.query('per_page'), MAX_PER_PAGE)
  return page && size ? { page, perPage: size, offset: (page - 1) * size } : null
}

/** The contract's answer to malformed paging. */
export const badPaging = (c: ApiContext) =>
  c.json({ message: `page and per_page must be whole numbers (per_page at most ${MAX_PER_PAGE})` }, 422)

/** The contract's answer to a malformed query parameter, named. */
export const badParameter = (c: ApiContext, name: string, expected: string) =>
  c.json({ message: `${name} must be ${expected}` }, 422)
