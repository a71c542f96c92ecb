import {
  addressesAnswer,
  bikeModelsAnswer,
  bikesAnswer,
  orderAnswer,
  ordersAnswer,
  profileAnswer,
} from '../../contract/account-schemas'
import { cartAnswer } from '../../contract/cart-schemas'
import {
  dealerAnswer,
  dealersAnswer,
  newsArticleAnswer,
  placeAnswer,
  productAnswer,
  productListAnswer,
  productTypesAnswer,
  searchAnswer,
} from '../../contract/catalogue-schemas'
import { checkoutAnswer } from '../../contract/checkout-schemas'
import { jobsAnswer } from '../../contract/form-schemas'
import { pageIndexAnswer } from '../../contract/page-index-schemas'
import { z } from 'zod'
import { contentPageAnswer, loginAnswer, menuAnswer, newsListAnswer, seoAnswer } from '../../contract/schemas'
import { marketListAnswer, outboxAnswer, staffAnswer, submissionListAnswer } from '../../contract/staff-schemas'
import { featureListAnswer } from '../../src/upstream/readers/features'
import { siteRecord, siteRecordAnswer } from '../../src/upstream/readers/site-records'
import { translationsAnswer } from '../../src/upstream/readers/translations'
import { userRecordAnswer } from '../../src/upstream/readers/user-record'
import type { AreaProbe } from './probe'

/**
 * The original's calls are read as the site reads them (src/upstream/readers/: a site record without a currency, a
 * plain Laravel user, flat translation keys, features by name), so the kit passes what the site can run on. The
 * sites list is read record by record: a record the site would drop (and log) is named here.
 */
const everySiteRecord = z.object({ data: z.array(siteRecord) })

/** What the areas learn from the backend and the command line as they go (the market, a product, a token…). */
export type CheckContext = {
  country?: string
  locale?: string
  /** The home page's SEO model, from the site record. */
  seoModel?: { id: string | number; type: string }
  /** A page key of the market's `pageLinks`. */
  pageKey?: string
  /** A customer's token: `--token`, or the login's with `--email`/`--password`. */
  token?: string
  credentials?: { email: string; password: string }
  /** A staff member's token (`--staff-token`). */
  staffToken?: string
  /** Only GET calls: no login, so no token from one. */
  readsOnly?: boolean
}

/**
 * One area of the contract: its name, whether the site cannot run without it, and its calls. An optional area's id is
 * its name in `UPSTREAM_AREAS` (src/upstream/areas.ts), so a deployment's declaration names the kit's areas.
 */
export type Area = {
  id: string
  name: string
  /** The original's eight calls: without them no market page is served. */
  required: boolean
  /** Makes the area's calls; answers a note when part of it could not be read (no token given). */
  check: (probe: AreaProbe, context: CheckContext) => Promise<string | undefined>
}

const q = encodeURIComponent
/** The original's header menu asks for its bikes as type 1. */
const MENU_TYPE_ID = 1
/** An address no backend knows, for the refused login. */
const NOBODY = { email: 'conformance-check@invalid.example', password: 'not-the-password-1' }

/** Every area of docs/api.md the kit reads, in the order it reads them (the markets first: they give the market). */
export const AREAS: Area[] = [
  {
    id: 'sites',
    name: 'Markets (api/sites)',
    required: true,
    async check(probe, context) {
      const sites = await probe.read('sites', everySiteRecord)
      const country = context.country ?? sites?.data[0]?.slug
      if (!country) return 'no market to read'
      const site = (await probe.read(`sites/${q(country)}`, siteRecordAnswer))?.data
      context.country = country
      context.locale ??= site?.locales[0]
      if (site?.seo) context.seoModel = { id: site.seo.model_id, type: site.seo.model_type }
      context.pageKey = Object.keys(site?.pageLinks ?? {})[0]
      return undefined
    },
  },
  {
    id: 'translations',
    name: 'Translations',
    required: true,
    async check(probe, { country, locale }) {
      if (!country || !locale) return 'no market to read'
      await probe.read(`country-wise-locale-content/${q(country)}/${q(locale)}`, translationsAnswer)
      return undefined
    },
  },
  {
    id: 'features',
    name: 'Features',
    required: true,
    async check(probe) {
      await probe.read('get-features', featureListAnswer)
      return undefined
    },
  },
  {
    id: 'menu',
    name: 'Product menu',
    required: true,
    async check(probe) {
      await probe.read(`front/menu/products?type_id=${MENU_TYPE_ID}`, menuAnswer)
      return undefined
    },
  },
  {
    id: 'seo',
    name: 'SEO records',
    required: true,
    async check(probe, { seoModel = { id: 1, type: 'Page' } }) {
      await probe.read(`front/seo/${q(String(seoModel.id))}/${q(seoModel.type)}`, seoAnswer)
      return undefined
    },
  },
  {
    id: 'login',
    name: 'Login and user',
    required: true,
    async check(probe, context) {
      await probe.refuses('auth/login', [401, 422], { method: 'POST', body: NOBODY })
      if (!context.token && context.credentials && !context.readsOnly) {
        const login = await probe.read('auth/login', loginAnswer, { method: 'POST', body: context.credentials })
        context.token = login?.access_token
      }
      if (!context.token) {
        await probe.refuses('auth/user', [401])
        return 'the user not read: give --token, or --email and --password'
      }
      await probe.read('auth/user', userRecordAnswer, { token: context.token })
      return undefined
    },
  },
  {
    id: 'content',
    name: 'Content pages',
    required: false,
    async check(probe, { pageKey = 'about-us' }) {
      await probe.read(`front/pages/${q(pageKey)}`, contentPageAnswer)
      await probe.read('front/page-index', pageIndexAnswer)
      return undefined
    },
  },
  {
    id: 'catalogue',
    name: 'Catalogue',
    required: false,
    async check(probe) {
      const type = (await probe.read('front/product-types', productTypesAnswer))?.data[0]
      if (!type) return undefined
      const product = (await probe.read(`front/products?type=${q(type.slug)}&page=1&per_page=50`, productListAnswer))
        ?.data[0]
      if (product) await probe.read(`front/products/${q(product.slug)}`, productAnswer)
      return undefined
    },
  },
  {
    id: 'news',
    name: 'News',
    required: false,
    async check(probe) {
      const article = (await probe.read('front/news?page=1&per_page=3', newsListAnswer))?.data[0]
      if (!article) return undefined
      await probe.read(`front/news/${q(article.slug)}`, newsArticleAnswer)
      await probe.read(`front/news/id/${article.id}`, newsArticleAnswer)
      return undefined
    },
  },
  {
    id: 'dealers',
    name: 'Dealers',
    required: false,
    async check(probe) {
      const dealer = (await probe.read('front/dealers?page=1&per_page=50', dealersAnswer))?.data[0]
      if (!dealer) return undefined
      await probe.read(`front/dealers/${q(dealer.slug)}`, dealerAnswer)
      await probe.read(`front/places?q=${q(dealer.city)}`, placeAnswer, { absent: true })
      return undefined
    },
  },
  {
    id: 'search',
    name: 'Search',
    required: false,
    async check(probe) {
      await probe.read('front/search?type=all&q=bike&page=1&per_page=10', searchAnswer)
      return undefined
    },
  },
  {
    id: 'account',
    name: 'Account',
    required: false,
    async check(probe, { token }) {
      if (!token) {
        await probe.refuses('account/profile', [401])
        return 'not read: give --token, or --email and --password'
      }
      await probe.read('account/profile', profileAnswer, { token })
      await probe.read('account/addresses', addressesAnswer, { token })
      await probe.read('account/bikes', bikesAnswer, { token })
      await probe.read('account/bike-models', bikeModelsAnswer, { token })
      const order = (await probe.read('account/orders?page=1&per_page=10', ordersAnswer, { token }))?.data[0]
      if (order) await probe.read(`account/orders/${q(order.code)}`, orderAnswer, { token })
      return undefined
    },
  },
  {
    id: 'cart-checkout',
    name: 'Cart and checkout',
    required: false,
    async check(probe, { token }) {
      await probe.refuses('account/cart', [401])
      if (!token) return 'not read: give --token, or --email and --password'
      const cart = (await probe.read('account/cart', cartAnswer, { token, absent: true }))?.data
      if (cart) await probe.read(`account/checkout/${q(cart.code)}`, checkoutAnswer, { token, absent: true })
      return undefined
    },
  },
  {
    id: 'forms',
    name: 'Lead forms',
    required: false,
    async check(probe) {
      await probe.read('jobs', jobsAnswer)
      await probe.refuses('forms/contact', [422], { method: 'POST', body: {} })
      return undefined
    },
  },
  {
    id: 'whistleblower',
    name: 'Whistleblower channel',
    required: false,
    async check(probe) {
      await probe.refuses('whistleblower/status', [422], { method: 'POST', body: {} })
      return undefined
    },
  },
  {
    id: 'newsletter',
    name: 'Newsletter',
    required: false,
    async check(probe) {
      await probe.refuses('newsletter/subscriptions', [422], { method: 'POST', body: {} })
      return undefined
    },
  },
  {
    id: 'staff',
    name: 'Staff console',
    required: false,
    async check(probe, { staffToken: token }) {
      if (!token) {
        await probe.refuses('staff/me', [401])
        return 'not read: give --staff-token (an editor’s)'
      }
      await probe.read('staff/me', staffAnswer, { token })
      await probe.read('staff/markets', marketListAnswer, { token })
      await probe.read('staff/submissions?page=1&per_page=10', submissionListAnswer, { token })
      await probe.read('staff/outbox?page=1&per_page=10', outboxAnswer, { token })
      return undefined
    },
  },
]
