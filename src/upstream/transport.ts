/** Sends one request to the content/account API and answers its response. */
export type Transport = (request: Request) => Promise<Response>

/** The base URL of in-process calls to the embedded API; never resolved on a network. */
export const EMBEDDED_ORIGIN = 'http://embedded.invalid'

/** HTTP transport: the brand's own backend at `UPSTREAM_URL`. */
export const httpTransport: Transport = (request) => fetch(request)

/**
 * In-process transport: the embedded reference API's `fetch`, called without a network hop.
 *
 * @example
 * const transport = embeddedTransport((request) => api.fetch(request, env, ctx))
 */
export const embeddedTransport = (fetchApi: (request: Request) => Response | Promise<Response>): Transport =>
  async (request) => fetchApi(request)
