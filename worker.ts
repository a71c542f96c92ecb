import { api } from './reference-api'
import type { Bindings } from './src/env'
import site from './src/index'
import { embedReferenceApi } from './src/upstream/reference-api'

/**
 * The Worker as deployed, composed of two programs that never import each other (docs/decisions/032): the site
 * (src/) and the embedded reference API, which the site's upstream client calls in-process while `UPSTREAM_URL` is
 * empty.
 */
embedReferenceApi((request, env, ctx) => api.fetch(request, env, ctx))

export default {
  fetch: site.fetch,
  scheduled: site.scheduled,
} satisfies ExportedHandler<Bindings>
