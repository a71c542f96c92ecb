import { Hono } from 'hono'
import { featuresAnswer, menuAnswer } from '../../upstream/schemas'
import { type ApiEnv, positiveInt, respond } from '../context'

type MenuRow = {
  id: number
  slug: string
  image: string | null
  name: string
  tagline: string
  type_id: number
  type_slug: string
  type_name: string
}

/** `GET api/front/menu/products?type_id=N` (the header's product menu) and `GET api/get-features`. */
export const catalogue = new Hono<ApiEnv>()
  .get('/front/menu/products', async (c) => {
    const typeId = positiveInt(c.req.query('type_id'))
    if (!typeId) return c.json({ message: 'type_id must be a positive whole number' }, 422)
    const { results } = await c.env.DB
      .prepare(
        `SELECT p.id, p.slug, p.image, t.id AS type_id, t.slug AS type_slug,
                COALESCE(n.name, en.name) AS name, COALESCE(n.tagline, en.tagline, '') AS tagline,
                COALESCE(tn.name, ten.name, t.slug) AS type_name
           FROM products p
           JOIN product_types t ON t.id = p.type_id
           LEFT JOIN product_names n ON n.product_id = p.id AND n.locale = ?1
           LEFT JOIN product_names en ON en.product_id = p.id AND en.locale = 'en'
           LEFT JOIN product_type_names tn ON tn.type_id = t.id AND tn.locale = ?1
           LEFT JOIN product_type_names ten ON ten.type_id = t.id AND ten.locale = 'en'
          WHERE p.type_id = ?2
          ORDER BY p.featured DESC, p.position, p.id`,
      )
      .bind(c.var.locale, typeId)
      .all<MenuRow>()
    return respond(c, menuAnswer, {
      data: results.map((r) => ({
        id: r.id,
        slug: r.slug,
        name: r.name,
        tagline: r.tagline,
        image: r.image,
        type: { id: r.type_id, slug: r.type_slug, name: r.type_name },
      })),
    })
  })
  .get('/get-features', async (c) => {
    const { results } = await c.env.DB
      .prepare('SELECT key, name, enabled FROM features ORDER BY key')
      .all<{ key: string; name: string; enabled: number }>()
    return respond(c, featuresAnswer, { data: results.map((f) => ({ ...f, enabled: f.enabled === 1 })) })
  })
