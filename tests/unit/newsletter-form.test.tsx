import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { NewsletterForm } from '../../src/components/newsletter-form'
import type { MarketView } from '../../src/components/view'

/** A view whose translator answers each key itself, so the test reads which message the form chose. */
const view = { t: (key: string) => `[${key}]`, market: { segment: 'it-it' } } as unknown as MarketView
const form = (privacyUrl: string | null) =>
  renderToStaticMarkup(
    <NewsletterForm view={view} token="t" privacyUrl={privacyUrl} labelledBy="h" idPrefix="footer-newsletter" />,
  )

describe('the newsletter form', () => {
  it('says what the address is used for as the newsletter does it, never a lead form\'s "to answer this request"', () => {
    const withoutPage = form(null)
    expect(withoutPage).toContain('[newsletter.privacy_text]')
    expect(withoutPage).not.toContain('[forms.privacy_text]')
    expect(form('/it-it/informativa-privacy')).toContain('href="/it-it/informativa-privacy"')
  })
})
