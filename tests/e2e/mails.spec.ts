import { expect, type Page, test } from '@playwright/test'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import type english from '../../src/i18n/en.json'
import { letterHtml, letterOf, partMarker } from '../../reference-api/letter'

/**
 * The mails' HTML part (reference-api/letter.ts, docs/decisions/050) as a mail program shows it: a phone's width and a
 * desktop's, left to right and right to left, light and dark. Nothing overflows the width, every text keeps its
 * contrast on its background, and nothing is loaded from anywhere.
 */

type Messages = typeof english

const fill = (template: string, params: Record<string, string>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => params[name] ?? '')

/** An order's confirmation as the reference API writes it: the market's texts, its lines and amounts as tables. */
function orderConfirmation(locale: string, messages: Messages, money: (amount: string) => string) {
  const params = {
    name: locale === 'he' ? 'נועה' : 'Giulia',
    code: 'AUR-2026-4F7K2Q',
    delivery: fill(messages.order.delivery_pickup, { dealer: locale === 'he' ? 'אופני תל אביב' : 'Cicli Bergamo' }),
    payment: messages.payment_method.card,
    link: `https://www.aurora-cycles.example/${locale === 'he' ? 'il-he' : 'it-it'}/my-account/orders/AUR-2026-4F7K2Q`,
    lines: partMarker('lines'),
    amounts: partMarker('amounts'),
  }
  const subject = fill(messages.mail.order_confirmation_subject, params)
  return letterHtml(
    letterOf(locale, subject, fill(messages.mail.order_confirmation_body, params), {
      linkLabel: messages.mail.open_link,
      parts: {
        lines: {
          kind: 'table',
          rows: [
            ['1 × Aurora Strada 9, 56 · Verde Bosco, with a very long variant name to wrap', money('4.999,00')],
            ['2 × Aurora Aria, S', money('2.598,00')],
          ],
        },
        amounts: {
          kind: 'table',
          total: true,
          rows: [
            [messages.order.subtotal, money('7.597,00')],
            [messages.order.shipping, money('0,00')],
            [messages.order.tax, money('1.369,96')],
            [messages.order.total, money('7.597,00')],
          ],
        },
      },
    }),
  )
}

/** The newsletter's opt-in: a long link alone (a button) and the unsubscribe footer. */
function newsletterConfirmation(locale: string, messages: Messages) {
  const market = locale === 'he' ? 'il-he' : 'it-it'
  const link = `https://www.aurora-cycles.example/${market}/newsletter/confirm/Q2hpYXJhQmlhbmNoaUV4YW1wbGVUb2tlbjQzY2hhcnM`
  const body = fill(messages.mail.newsletter_confirm_body, { link, hours: '48' })
  return letterHtml(
    letterOf(locale, messages.mail.newsletter_confirm_subject, body, {
      linkLabel: messages.mail.open_link,
      footer: {
        href: `https://www.aurora-cycles.example/${market}/newsletter/unsubscribe/Y2hpYXJhQGV4YW1wbGUuY29t.${'s'.repeat(43)}`,
        label: messages.mail.unsubscribe,
      },
    }),
  )
}

const MAILS = [
  ['order confirmation', 'it', orderConfirmation('it', italian, (amount) => `${amount} €`)],
  ['order confirmation', 'he', orderConfirmation('he', hebrew, (amount) => `\u2067₪${amount}\u2069`)],
  ['newsletter confirmation', 'it', newsletterConfirmation('it', italian)],
  ['newsletter confirmation', 'he', newsletterConfirmation('he', hebrew)],
] as const

/** The contrast ratio (WCAG) of two CSS colours `rgb(r, g, b)`. */
function contrast(foreground: string, background: string): number {
  const luminance = (colour: string) => {
    const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number).map((channel) => {
      const c = channel / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** Each visible text's colour and the background it is painted on (the nearest ancestor with one). */
const textsOnBackgrounds = (page: Page) =>
  page.evaluate(() => {
    const backgroundOf = (element: Element | null): string => {
      for (let node = element; node; node = node.parentElement) {
        const colour = getComputedStyle(node).backgroundColor
        if (colour && colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour
      }
      return 'rgb(255, 255, 255)'
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const found: Array<{ text: string; colour: string; background: string }> = []
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement
      if (!element || !node.textContent?.trim() || element.closest('style, title')) continue
      found.push({
        text: node.textContent.trim().slice(0, 40),
        colour: getComputedStyle(element).color,
        background: backgroundOf(element),
      })
    }
    return found
  })

for (const [kind, locale, html] of MAILS)
  for (const width of [375, 800])
    for (const scheme of ['light', 'dark'] as const)
      test(`the ${kind} (${locale}) fits ${width} px, ${scheme}, in its direction, every text legible`, async ({
        page,
      }, testInfo) => {
        const requests: string[] = []
        page.on('request', (request) => {
          if (!request.url().startsWith('data:')) requests.push(request.url())
        })
        await page.setViewportSize({ width, height: 900 })
        await page.emulateMedia({ colorScheme: scheme })
        await page.setContent(html, { waitUntil: 'load' })

        await expect(page.locator('html')).toHaveAttribute('dir', locale === 'he' ? 'rtl' : 'ltr')
        await expect(page.locator('html')).toHaveAttribute('lang', locale)
        // Nothing wider than the screen: no sideways scrolling, no element past either edge.
        const overflow = await page.evaluate(() => {
          const limit = document.documentElement.clientWidth
          const outside = [...document.body.querySelectorAll('*')]
            .map((element) => ({ tag: element.tagName, box: element.getBoundingClientRect() }))
            .filter(({ box }) => box.width > 0 && (box.right > limit + 0.5 || box.left < -0.5))
            .map(({ tag, box }) => `${tag} ${Math.round(box.left)}–${Math.round(box.right)}`)
          return { scroll: document.documentElement.scrollWidth, limit, outside }
        })
        expect(overflow.outside).toEqual([])
        expect(overflow.scroll).toBeLessThanOrEqual(overflow.limit)
        for (const { text, colour, background } of await textsOnBackgrounds(page))
          expect(contrast(colour, background), `"${text}" ${colour} on ${background}`).toBeGreaterThanOrEqual(4.5)
        expect(requests).toEqual([])
        await page.screenshot({
          path: testInfo.outputPath(`${kind.replace(/ /g, '-')}-${locale}-${width}-${scheme}.png`),
          fullPage: true,
        })
      })
