import type { MiddlewareHandler } from 'hono'
import type { ApiEnv } from './context'

/** Workers' constant-time comparison (the DOM typings of SubtleCrypto lack it). */
type WorkersSubtle = { timingSafeEqual(a: ArrayBuffer, b: ArrayBuffer): boolean }

const encoder = new TextEncoder()

/**
 * Whether two secrets are equal, compared in constant time (their digests first, so their lengths do not show
 * either).
 *
 * @example
 * if (!(await sameSecret(given, c.env.UPSTREAM_SERVICE_TOKEN))) return c.json({ message: 'Unauthenticated.' }, 401)
 */
export async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(given)),
    crypto.subtle.digest('SHA-256', encoder.encode(expected)),
  ])
  return (crypto.subtle as unknown as WorkersSubtle).timingSafeEqual(a, b)
}

/**
 * Settling a payment is the edge's call alone: when the API knows the Worker's service token (`UPSTREAM_SERVICE_TOKEN`),
 * a call without it as its bearer answers 401 and changes nothing. Without one it is open, as in-process in a Worker
 * that reaches it only from its own webhook (the standalone Worker refuses to run without it, reference-api/worker.ts).
 *
 * @example
 * new Hono<ApiEnv>().post('/payments/events', requireServiceToken, settle)
 */
export const requireServiceToken: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const expected = c.env.UPSTREAM_SERVICE_TOKEN
  if (!expected) return next()
  const given = /^Bearer (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1] ?? ''
  if (!(await sameSecret(given, expected))) return c.json({ message: 'Unauthenticated.' }, 401)
  return next()
}
