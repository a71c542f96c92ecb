import { type AccessCredential, withAccessCredential } from './access-credential'
import type { Areas } from './areas'
import { logEvent } from '../ops/log'
import type { WorkerCustomer } from '../../contract/worker-customer'

/** Sends one request to the content/account API and answers its response. */
export type Transport = (request: Request) => Promise<Response>

/** Sends one call to the embedded API in-process, for the customer the Worker vouches for when one is given. */
export type EmbeddedTransport = (request: Request, customer?: WorkerCustomer) => Promise<Response>

/** The base URL of in-process calls to the embedded API; never resolved on a network. */
export const EMBEDDED_ORIGIN = 'http://embedded.invalid'

/**
 * The transport of a malformed `UPSTREAM_URL` (logged once as `config_invalid`), or of an empty one in a Worker
 * composed without the reference API: every call is a 503.
 */
export const misconfiguredTransport: Transport = async () =>
  Response.json({ message: 'UPSTREAM_URL is not an http(s) URL' }, { status: 503 })

/**
 * HTTP transport: the brand's own backend at `UPSTREAM_URL`, every call with the Worker's Access service token. Without
 * one, reads still go (a backend that is not behind Access answers them), but no write: a form, a sign-up, a password
 * reset, a whistleblower report never reaches a backend that cannot tell the Worker from anyone else. Such a call
 * answers 503 without being sent, logged `upstream_credential_missing` (docs/decisions/040).
 *
 * @example
 * const transport = httpTransport(accessCredentialOf(c.env))
 */
export const httpTransport =
  (credential: AccessCredential | null): Transport =>
  async (request) => {
    if (credential) return fetch(withAccessCredential(request, credential))
    if (request.method === 'GET' || request.method === 'HEAD') return fetch(request)
    logEvent('error', 'upstream_credential_missing', { method: request.method })
    return Response.json({ message: 'The Worker has no service credential for the backend' }, { status: 503 })
  }

/** The answers an in-process transport handed over: only these may be taken as the embedded API checked them. */
const inProcess = new WeakSet<Response>()

/** Whether an answer came from the embedded API in this isolate (not over HTTP, where every answer is checked). */
export const answeredInProcess = (response: Response): boolean => inProcess.has(response)

/**
 * In-process transport: the embedded reference API's `fetch`, called without a network hop. Its answers are known as
 * in-process (`answeredInProcess`), so the upstream client takes one the API checked against the schema it reads it
 * with as it is (docs/decisions/066).
 *
 * @example
 * const transport = embeddedTransport(referenceApiOf(c))
 */
export const embeddedTransport =
  (fetchApi: (request: Request, customer?: WorkerCustomer) => Response | Promise<Response>): EmbeddedTransport =>
  async (request, customer) => {
    const response = await fetchApi(request, customer)
    inProcess.add(response)
    return response
  }

/** A call's path under `api/` (`account/cart`, query included), or '' when the request is not to `{baseUrl}/api/`. */
export const apiPathOf = (request: Request, baseUrl: string) =>
  request.url.startsWith(`${baseUrl}/api/`) ? request.url.slice(baseUrl.length + 5) : ''

/**
 * The transport of a backend that lacks some areas of the contract: a call of an area the Worker holds itself (lead
 * forms, the whistleblower channel, the newsletter, the staff console: src/upstream/areas.ts) or the deployment chose
 * to hold (the catalogue, the shop: `UPSTREAM_HOLD`, docs/decisions/043) goes to the embedded reference API on D1,
 * every other call to the backend (docs/decisions/041).
 *
 * @example
 * const transport = areaTransport(httpTransport(credential), embeddedTransport(api), areas, config.upstream.url)
 */
export const areaTransport =
  (backend: Transport, embedded: Transport, areas: Areas, baseUrl: string): Transport =>
  async (request) => {
    const path = apiPathOf(request, baseUrl)
    if (!areas.heldCall(path)) return backend(request)
    return embedded(new Request(`${EMBEDDED_ORIGIN}/api/${path}`, request))
  }
