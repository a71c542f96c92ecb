import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { BlankLayout } from '../components/layouts'
import type { HeadProps } from '../components/page-head'
import type { View } from '../components/view'
import type { AppEnv } from '../env'
import { loadTranslator } from '../i18n/load-translator'
import type { CartLeftBehind } from '../market/cart-on-switch'
import { marketLabel } from '../market/picker'
import { sendPage, viewOf } from '../render/respond'

/** The pick posted again, told: where the pickers post, and their fields (src/market/pick-market.ts). */
export type PickForm = { action: string; from: string; confirmed: string }

type SwitchProps = {
  view: View
  head: HeadProps
  left: CartLeftBehind
  target: string
  segment: string
  from: string
  form: PickForm
}

/** "Your cart stays in Italia": what picking another country does to the cart, then go on or stay. */
function CartSwitchPage({ view, head, left, target, segment, from, form }: SwitchProps) {
  const { t } = view
  const country = left.site.country.name
  return (
    <BlankLayout view={view} head={head}>
      <div className="blank-card market-switch-card">
        <h1>{t('picker.cart_title', { country })}</h1>
        <p className="lead">{t('picker.cart_text', { country, target })}</p>
        <form method="post" action={form.action} className="stacked-form">
          <input type="hidden" name="market" value={segment} />
          <input type="hidden" name={form.from} value={from} />
          <input type="hidden" name={form.confirmed} value="1" />
          <div className="form-actions">
            <button type="submit" className="button">
              <bdi>{t('picker.cart_confirm', { target })}</bdi>
            </button>
            <a href={from}>{t('picker.cart_cancel', { country })}</a>
          </div>
        </form>
      </div>
    </BlankLayout>
  )
}

/**
 * The page a pick of another country answers when the visitor's cart here holds items (docs/decisions/062), in the
 * language of the market they are leaving: their cart stays in that country for their return; going on posts the
 * pick again, told.
 */
export async function sendCartSwitchPage(
  c: Context<AppEnv>,
  left: CartLeftBehind,
  picked: { site: CartLeftBehind['site']; locale: string },
  from: string,
  form: PickForm,
): Promise<Response> {
  const t = await loadTranslator(c.var.lookups.forMarket({ country: left.site.slug, locale: left.locale }))
  const view = viewOf(c, t, null, false)
  const target = marketLabel(picked.site, picked.locale)
  const head: HeadProps = {
    title: `${t('picker.cart_title', { country: left.site.country.name })} · ${t('brand.name')}`,
    robots: 'noindex',
  }
  return sendPage(
    c,
    <CartSwitchPage
      view={view}
      head={head}
      left={left}
      target={target}
      segment={`${picked.site.slug}-${picked.locale}`}
      from={from}
      form={form}
    />,
    { caching: Caching.private, tracking: false },
  )
}
