import { isShopCall } from './areas'
import { userRecordAnswer } from './readers/user-record'
import { apiPathOf, EMBEDDED_ORIGIN, type EmbeddedTransport, type Transport } from './transport'
import type { WorkerCustomer } from '../../contract/worker-customer'

/** One market's record: `sites/{country}`. */
const SITE_RECORD = /^sites\/[^/?]+$/

/**
 * The held shop's way (docs/decisions/043): the cart, checkout, payments and the customer's orders on the Worker's D1
 * while login and the user are the backend's. A shop call of a logged-in visitor carries the backend's bearer token,
 * which the embedded API cannot check: the token is asked about at the backend (`GET api/auth/user`, once per token and
 * request), and the call goes to the embedded API without it, for the user the backend answered (a Worker-vouched
 * customer beside the request, never in it); settling a payment keeps the Worker's service token. A token the backend refuses answers 401, as the backend would. A market's
 * record is the backend's, with whether it sells online from the held shop's own record of it (D1's `sites`). Any
 * other call goes on to `next` (the areas' transport).
 *
 * @example
 * const transport = heldShopTransport(backend, embedded, config.upstream.url, areaTransport(backend, embedded, areas, config.upstream.url))
 */
export function heldShopTransport(
  backend: Transport,
  embedded: EmbeddedTransport,
  baseUrl: string,
  next: Transport,
): Transport {
  const customers = new Map<string, Promise<WorkerCustomer | Refusal>>()
  const customerOf = (request: Request, authorization: string) => {
    let customer = customers.get(authorization)
    if (!customer) {
      customer = backendCustomer(backend, baseUrl, request, authorization)
      customers.set(authorization, customer)
    }
    return customer
  }

  return async (request) => {
    const path = apiPathOf(request, baseUrl)
    if (request.method === 'GET' && SITE_RECORD.test(path)) return siteRecord(backend, embedded, request, path)
    if (!isShopCall(path)) return next(request)
    const held = new Request(`${EMBEDDED_ORIGIN}/api/${path}`, request)
    const authorization = held.headers.get('Authorization')
    // Settling a payment is the Worker's own call: its bearer is the service token, not a customer's.
    if (!authorization || path.startsWith('payments/')) return embedded(held)
    held.headers.delete('Authorization')
    const customer = await customerOf(request, authorization)
    if (customer === 401) return Response.json({ message: 'Unauthenticated.' }, { status: 401 })
    if (customer === 503) return Response.json({ message: 'The customer could not be read' }, { status: 503 })
    return embedded(held, customer)
  }
}

/** Why a customer cannot be vouched for: the backend refused the token (401), or could not say (503). */
type Refusal = 401 | 503

/** The backend's user of a bearer token as the customer the Worker vouches for, or why not. */
async function backendCustomer(
  backend: Transport,
  baseUrl: string,
  request: Request,
  authorization: string,
): Promise<WorkerCustomer | Refusal> {
  const headers = new Headers({ Accept: 'application/json', Authorization: authorization })
  for (const name of ['X-Tenant', 'X-Locale']) {
    const value = request.headers.get(name)
    if (value) headers.set(name, value)
  }
  const answer = await backend(new Request(`${baseUrl}/api/auth/user`, { headers, signal: request.signal }))
  if (!answer.ok) {
    await answer.body?.cancel()
    return answer.status === 401 ? 401 : 503
  }
  const read = userRecordAnswer.safeParse(await answer.json().catch(() => null))
  if (!read.success) return 503
  const { id, email, name, first_name, last_name, email_confirmed } = read.data.data
  return { backend_id: String(id), email, name, first_name, last_name, email_confirmed }
}

type BackendRecord = { data?: { settings?: Record<string, unknown> } }
type HeldRecord = { data?: { settings?: { sells_online?: unknown } } }

/** The backend's record of a market, with `settings.sells_online` from the held shop's record of it (off without one). */
async function siteRecord(
  backend: Transport,
  embedded: EmbeddedTransport,
  request: Request,
  path: string,
): Promise<Response> {
  const [answer, held] = await Promise.all([
    backend(request),
    embedded(new Request(`${EMBEDDED_ORIGIN}/api/${path}`, request)),
  ])
  const heldRecord = (await held.json().catch(() => null)) as HeldRecord | null
  if (!answer.ok) return answer
  const record = (await answer.json().catch(() => null)) as BackendRecord | null
  if (!record?.data || typeof record.data !== 'object') return Response.json(record, { status: answer.status })
  const settings = record.data.settings && typeof record.data.settings === 'object' ? record.data.settings : {}
  const sellsOnline = held.ok && heldRecord?.data?.settings?.sells_online === true
  record.data.settings = { ...settings, sells_online: sellsOnline }
  return Response.json(record, { status: answer.status })
}
