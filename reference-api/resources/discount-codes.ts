import { Hono } from 'hono'
import {
  discountCodeInput,
  type StaffDiscountCode,
  staffDiscountCodeAnswer,
  staffDiscountCodeListAnswer,
} from '../../contract/discount-schemas'
import { type ApiEnv, invalid, jsonBody, notFound, positiveInt, refuse, respond } from '../context'
import { staffOnly } from '../staff-auth'
import { staffEvent } from './staff'

/** A code with its uses (orders not cancelled), as staff see it. */
const CODE_QUERY = `SELECT d.id, d.site AS market, d.code, d.kind, d.value, d.minimum_subtotal, d.valid_from, d.valid_until,
    d.usage_limit, d.per_customer_limit, d.active, d.created_at,
    (SELECT COUNT(*) FROM discount_redemptions r JOIN orders o ON o.checkout_key = r.checkout_key
      WHERE r.code_id = d.id AND o.status <> 'cancelled') AS uses
  FROM discount_codes d`

const codeOf = (row: Omit<StaffDiscountCode, 'active'> & { active: number }): StaffDiscountCode => ({
  ...row,
  active: row.active === 1,
})

/**
 * Discount codes for staff (editors; docs/api.md "Discount codes"): `GET api/staff/discount-codes?market=` (newest
 * first), `POST api/staff/discount-codes` (a new code; 409 `code_taken` when the market has it already) and
 * `POST api/staff/discount-codes/{id}/disable`. Each change is a staff event (`discount:{market}:{code}`).
 */
export const discountCodes = new Hono<ApiEnv>()
discountCodes.use('/staff/discount-codes', staffOnly('editor'))
discountCodes.use('/staff/discount-codes/*', staffOnly('editor'))

discountCodes.get('/staff/discount-codes', async (c) => {
  const market = c.req.query('market')
  const filtered = market && /^[a-z]{2,3}$/.test(market)
  const { results } = await c.env.DB.prepare(`${CODE_QUERY} ${filtered ? 'WHERE d.site = ?' : ''} ORDER BY d.id DESC`)
    .bind(...(filtered ? [market] : []))
    .all<Omit<StaffDiscountCode, 'active'> & { active: number }>()
  return respond(c, staffDiscountCodeListAnswer, { data: results.map(codeOf) })
})

discountCodes.post('/staff/discount-codes', async (c) => {
  const input = discountCodeInput.safeParse(await jsonBody(c))
  if (!input.success) return invalid(c, input.error)
  const code = input.data
  const market = await c.env.DB.prepare('SELECT 1 AS found FROM sites WHERE slug = ?').bind(code.market).first('found')
  if (market === null) return refuse(c, 422, 'unknown_market', 'market')
  const id = await c.env.DB.prepare(
    `INSERT INTO discount_codes (site, code, kind, value, minimum_subtotal, valid_from, valid_until, usage_limit,
                                   per_customer_limit, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
  )
    .bind(
      code.market,
      code.code,
      code.kind,
      code.value,
      code.minimum_subtotal,
      code.valid_from,
      code.valid_until,
      code.usage_limit,
      code.per_customer_limit,
      c.var.staff.id,
    )
    .first<number>('id')
  if (id === null) return refuse(c, 409, 'code_taken', 'code')
  await staffEvent(c, 'discount_created', `discount:${code.market}:${code.code}`, code).run()
  const row = await c.env.DB.prepare(`${CODE_QUERY} WHERE d.id = ?`)
    .bind(id)
    .first<Omit<StaffDiscountCode, 'active'> & { active: number }>()
  return row ? respond(c, staffDiscountCodeAnswer, { data: codeOf(row) }, 201) : notFound(c)
})

discountCodes.post('/staff/discount-codes/:id/disable', async (c) => {
  const id = positiveInt(c.req.param('id'))
  if (!id) return notFound(c)
  const row = await c.env.DB.prepare(`${CODE_QUERY} WHERE d.id = ?`)
    .bind(id)
    .first<Omit<StaffDiscountCode, 'active'> & { active: number }>()
  if (!row) return notFound(c)
  if (row.active === 1) {
    await c.env.DB.batch([
      c.env.DB.prepare('UPDATE discount_codes SET active = 0 WHERE id = ?').bind(id),
      staffEvent(c, 'discount_disabled', `discount:${row.market}:${row.code}`, {}),
    ])
  }
  return respond(c, staffDiscountCodeAnswer, { data: codeOf({ ...row, active: 0 }) })
})
