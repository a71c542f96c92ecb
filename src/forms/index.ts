import { bodyLimit } from 'hono/body-limit'
import { sameOrigin } from './same-origin'

/** The largest form body the site reads (its forms are a few hundred bytes). */
export const FORM_LIMIT = 16 * 1024

/** What every route that receives a form runs first: the same-origin check, then the body limit. */
export const formGuards = () => [sameOrigin(), bodyLimit({ maxSize: FORM_LIMIT })] as const
