import AxeBuilder from '@axe-core/playwright'
import { unsubscribeLink } from '../../src/mail/unsubscribe-link'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import { layoutProblems } from './fixtures/layout'
import { chooseCookies, expect, test } from './fixtures/offline'

/** `npm start`'s session secret (scripts/start.mjs), which signs the newsletter's unsubscribe links locally. */
const LOCAL_SESSION_SECRET = 'local-session-secret-not-for-production'

for (const [market, messages, dir] of [
  ['il-he', hebrew, 'rtl'],
  ['it-it', italian, 'ltr'],
] as const) {
  test(`the newsletter's unsubscribe link in ${market} at phone width: one button, then unsubscribed; a forged link 404`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await chooseCookies(page.request, baseURL!, 'reject')
    const link = await unsubscribeLink(LOCAL_SESSION_SECRET, baseURL!, market, `leaving.${market}@example.com`)
    const path = new URL(link).pathname

    // Wrong: a link whose signature is not the site's.
    const forged = await page.goto(`${path.slice(0, -6)}AAAAAA`)
    expect(forged?.status()).toBe(404)

    // Right: the page asks, in the market's language and direction, and a GET alone unsubscribes nobody.
    const answer = await page.goto(path)
    expect(answer?.status()).toBe(200)
    await expect(page.locator('html')).toHaveAttribute('dir', dir)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.newsletter.unsubscribe_title)
    expect(await page.evaluate(layoutProblems)).toEqual([])
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([])
    await page.getByRole('button', { name: messages.newsletter.unsubscribe_submit }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.newsletter.unsubscribed_title)
  })
}
