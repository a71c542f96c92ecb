import { z } from 'zod'

/**
 * The customer of a held shop as the Worker vouches for them to the embedded API (docs/decisions/043): the brand's
 * backend user behind the visitor's bearer token, as the backend answered `GET api/auth/user` for it. The embedded API
 * cannot check the backend's token; it keeps a customer row keyed by `backend_id` instead, created on first use. Never
 * read from a browser's request: in-process it travels beside the request, not in it; over HTTP (the reference API as a
 * Worker of its own) only with the Worker's service token (`WORKER_CUSTOMER_HEADER`).
 */
export const workerCustomerSchema = z.object({
  /** The user's id at the backend (Laravel's is a number; any id is kept as text). */
  backend_id: z.string().min(1).max(100),
  email: z.string().min(3).max(254),
  name: z.string().max(200),
  first_name: z.string().max(200),
  last_name: z.string().max(200),
  email_confirmed: z.boolean(),
})

export type WorkerCustomer = z.infer<typeof workerCustomerSchema>

/** The header the reference API's own Worker reads the vouched customer from, as JSON, with the service token alone. */
export const WORKER_CUSTOMER_HEADER = 'X-Worker-Customer'
