import { isShopCall } from './areas'
import { userRecordAnswer } from './readers/user-record'
import { EMBEDDED_ORIGIN, type EmbeddedTransport, type Transport } from './transport'
import type { WorkerCustomer } from '../../contract/worker-customer'

/** One market's record: `sites/{country}`. */
const SITE_RECORD = /^sites\/[^/?]+$/

/**
 * The held shop's way (docs/decisions/043): the cart, checkout, payments and the customer's orders on the Worker's D1
 * while login and the user are the backend's. A shop call of a logged-in visitor carries the backend's bearer token,
 * which the embedded API cannot check: the token is asked about at the backend (`GET api/auth/user`, once per token and
 * request), and the call goes to the embedded API without it, for the user the backend answered (a Worker-vouched
 * customer beside the request, never in it); settling a payment keeps the Worker's service token. A token the backend refuses answers 401, as the backend would. A market's
 * record is the backend's, with whether it sells online from the held shop's own record of it (D1's `sites`). Answers
 * null for any other call.
 *
 * @example
 * const shop = heldShop(httpTransport(credential), embeddedTransport(api), 'https://api.brand.example')
 * const answer = await shop(request, 'account/cart') // null: not the shop's, send it on as usual
 */
export function heldShop(backend: Transport, embedded: EmbeddedTransport, baseUrl: string) {
  const customers = new Map<string, Promise<WorkerCustomer | Response>>()
  const customerOf = (request: Request, authorization: string) => {
    let customer = customers.get(authorization)
    if (!customer) {
      customer = backendCustomer(backend, baseUrl, request, authorization)
      customers.set(authorization, customer)
    }
    return customer
  }

  return async (request: Request, path: string): Promise<Response | null> => {
    if (request.method === 'GET' && SITE_RECORD.test(path)) return siteRecord(backend, embedded, request, path)
    if (!isShopCall(path)) return null
    const held = new Request(`${EMBEDDED_ORIGIN}/api/${path}`, request)
    const authorization = held.headers.get('Authorization')
    // Settling a payment is the Worker's own call: its bearer is the service token, not a customer's.
    if (!authorization || path.startsWith('payments/')) return embedded(held)
    held.headers.delete('Authorization')
    const customer = await customerOf(request, authorization)
    return customer instanceof Response ? customer : embedded(held, customer)
  }
}

/** The backend's user of a bearer token as the customer the Worker vouches for, or the backend's refusal. */
async function backendCustomer(
  backend: Transport,
  baseUrl: string,
  request: Request,
  authorization: string,
): Promise<WorkerCustomer | Response> {
  const headers = new Headers({ Accept: 'application/json', Authorization: authorization })
  for (const name of ['X-Tenant', 'X-Locale']) {
    const value = request.headers.get(name)
    if (value) headers.set(name, value)
  }
  const answer = await backend(new Request(`${baseUrl}/api/auth/user`, { headers, signal: request.signal }))
  if (answer.status === 401) return Response.json({ message: 'Unauthenticated.' }, { status: 401 })
  const read = answer.ok ? userRecordAnswer.safeParse(await answer.json().catch(() => null)) : null
  if (!read?.success) return Response.json({ message: 'The customer could not be read' }, { status: 503 })
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
