/** Sends one request to the content/account API and answers its response. */
export type Transport = (request: Request) => Promise<Response>

/** The base URL of in-process calls to the embedded API; never resolved on a network. */
export const EMBEDDED_ORIGIN = 'http://embedded.invalid'

/**
 * The transport of a malformed `UPSTREAM_URL` (logged once as `config_invalid`), or of an empty one in a Worker
 * composed without the reference API: every call is a 503.
 */
export const misconfiguredTransport: Transport = async () =>
  Response.json({ message: 'UPSTREAM_URL is not an http(s) URL' }, { status: 503 })

/** HTTP transport: the brand's own backend at `UPSTREAM_URL`. */
export const httpTransport: Transport = (request) => fetch(request)

/**
 * In-process transport: the embedded reference API's `fetch`, called without a network hop.
 *
 * @example
 * const transport = embeddedTransport(referenceApiOf(c))
 */
export const embeddedTransport =
  (fetchApi: (request: Request) => Response | Promise<Response>): Transport =>
  async (request) =>
    fetchApi(request)
