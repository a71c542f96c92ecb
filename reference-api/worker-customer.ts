import type { User } from '../contract/schemas'
import { type WorkerCustomer, WORKER_CUSTOMER_HEADER, workerCustomerSchema } from '../contract/worker-customer'
import { sameSecret } from './service-token'

/**
 * The API's environment for one call, with the customer the Worker vouches for on a held shop's call
 * (docs/decisions/043), or without any: a customer is never read from the request itself.
 *
 * @example
 * api.fetch(request, withWorkerCustomer(env, customer), ctx)
 */
export const withWorkerCustomer = <E extends object>(
  env: E,
  customer: WorkerCustomer | undefined,
): E & { WORKER_CUSTOMER?: WorkerCustomer } => ({ ...env, WORKER_CUSTOMER: customer })

/**
 * The vouched customer of a call to the reference API as a Worker of its own: its `X-Worker-Customer` header (JSON),
 * read only when the call carries the Worker's service token (`Authorization: Bearer {UPSTREAM_SERVICE_TOKEN}`, set);
 * anyone else's header is ignored.
 *
 * @example
 * const customer = await vouchedOverHttp(c.req.raw, c.env.UPSTREAM_SERVICE_TOKEN)
 */
export async function vouchedOverHttp(request: Request, serviceToken: string | undefined) {
  const header = request.headers.get(WORKER_CUSTOMER_HEADER)
  if (!header || !serviceToken) return undefined
  const given = /^Bearer (.+)$/.exec(request.headers.get('Authorization') ?? '')?.[1] ?? ''
  if (!(await sameSecret(given, serviceToken))) return undefined
  try {
    const read = workerCustomerSchema.safeParse(JSON.parse(header))
    return read.success ? read.data : undefined
  } catch {
    return undefined
  }
}

/** The placeholder address of a backend's user's row: unique per backend id, and nobody's mailbox or login. */
const placeholderEmail = (backendId: string) =>
  `backend-${[...new TextEncoder().encode(backendId)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}@customers.invalid`

/**
 * The user of a held shop's call: the backend's user the Worker vouched for, as a users row of the embedded API keyed
 * by the backend's id (`backend_customers`), created on first use; their name and address kept as the backend says.
 *
 * @example
 * const user = c.env.WORKER_CUSTOMER && (await workerCustomerUser(c.env.DB, c.env.WORKER_CUSTOMER))
 */
export async function workerCustomerUser(db: D1Database, customer: WorkerCustomer): Promise<User | null> {
  const placeholder = placeholderEmail(customer.backend_id)
  const [, , row] = await db.batch<{ id: number; created_at: string }>([
    db
      .prepare(
        `INSERT INTO users (email, first_name, last_name, password_hash) VALUES (?1, ?2, ?3, 'none')
         ON CONFLICT (email) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name`,
      )
      .bind(placeholder, customer.first_name, customer.last_name),
    db
      .prepare(
        `INSERT INTO backend_customers (backend_id, user_id, email) SELECT ?1, id, ?2 FROM users WHERE email = ?3
         ON CONFLICT (backend_id) DO UPDATE SET email = excluded.email`,
      )
      .bind(customer.backend_id, customer.email, placeholder),
    db
      .prepare(
        'SELECT u.id, u.created_at FROM backend_customers b JOIN users u ON u.id = b.user_id WHERE b.backend_id = ?',
      )
      .bind(customer.backend_id),
  ])
  const user = row?.results[0]
  if (!user) return null
  const { email, name, first_name, last_name, email_confirmed } = customer
  return {
    id: user.id,
    email,
    name,
    first_name,
    last_name,
    phone: null,
    locale: null,
    created_at: user.created_at,
    email_confirmed,
  }
}
