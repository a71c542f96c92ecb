import type { View } from './view'

/** The notices a redirect may ask a page to show (`?notice=…`): the keys of the translated `notice.*` texts. */
export const NOTICES = [
  'password_changed',
  'reset_link_sent',
  'address_saved',
  'address_deleted',
  'default_address_set',
  'bike_registered',
  'profile_saved',
  'password_updated',
  'newsletter_requested',
  'newsletter_unsubscribed',
  'logged_out',
  'session_ended',
  'consent_saved',
  'email_confirmed',
  'confirmation_sent',
  'cart_added',
  'cart_updated',
  'cart_removed',
  'cart_unavailable',
  'cart_not_enough',
  'cart_changed',
  'cart_choose_size',
  'cart_discount_applied',
  'cart_discount_removed',
  'cart_discount_ended',
] as const
export type Notice = (typeof NOTICES)[number]

/** A `?notice=` value as a known notice, or null. */
export const noticeOf = (value: string | undefined): Notice | null => NOTICES.find((notice) => notice === value) ?? null

/**
 * A toast: dark, bottom centre, gone after a second (PRODUCT.md §5). Pure CSS, so it works without JavaScript;
 * `role="status"` has screen readers announce it.
 */
export function Toast({ view }: { view: View }) {
  if (!view.notice) return null
  return (
    <p className="toast" role="status" data-notice={view.notice}>
      {view.t(noticeText(view.notice))}
    </p>
  )
}

/** A notice's text key: the cart's live in its own `cart.*` texts (`cart_added` → `cart.added`), the others in `notice.*`. */
export const noticeText = (notice: Notice) =>
  notice.startsWith('cart_') ? `cart.${notice.slice('cart_'.length)}` : `notice.${notice}`

/** A same-site path that shows a notice when it loads. */
export function withNotice(path: string, notice: Notice): string {
  const url = new URL(path, 'https://site.invalid')
  url.searchParams.set('notice', notice)
  return url.pathname + url.search
}
