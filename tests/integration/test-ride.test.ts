import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import german from '../../demo/messages/de.json'
import french from '../../demo/messages/fr.json'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import english from '../../src/i18n/en.json'
import { api } from '../../reference-api'
import type { View } from '../../src/components/view'
import { openDaysText } from '../../src/pages/lead-forms/test-ride'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { mailsOf, referenceOf, sendForm, storedSubmission, submissionCount } from '../fixtures/lead-forms'
import { clearCaches, ORIGIN, textOf, visit } from '../fixtures/worker'

/** The first day at least `from` days ahead that falls on `weekday` (Monday 0 … Sunday 6), `YYYY-MM-DD`. */
function dayAhead(weekday: number, from = 3): string {
  for (let days = from; ; days++) {
    const date = new Date(Date.now() + days * 86_400_000)
    if ((date.getUTCDay() + 6) % 7 === weekday) return date.toISOString().slice(0, 10)
  }
}
const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
const longDate = (date: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))

const TUESDAY = dayAhead(1)
const SUNDAY = dayAhead(6)
const SATURDAY = dayAhead(5)

/** A complete request in it-it: the Strada 9 at Cicli Bergamasca (closed on Sundays) on a Tuesday morning. */
const RIDE = {
  product: 'aurora-strada-9',
  dealer: 'cicli-bergamasca',
  date: TUESDAY,
  part_of_day: 'morning',
  first_name: 'Giulia',
  last_name: 'Rossi',
  email: 'giulia@example.com',
  phone: '+39 035 555 0101',
  message: 'Sono alta 1,68 m.',
  consent: 'on',
}

/** The values of a select's options, in order (the placeholder's empty value left out), and the one selected. */
function optionsOf(html: string, name: string) {
  const select = html.match(new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`))?.[1] ?? ''
  const options = [...select.matchAll(/<option value="([^"]*)"( selected="")?>([^<]*)<\/option>/g)]
  return {
    values: options.map((m) => m[1]).filter(Boolean),
    labels: options.filter((m) => m[1]).map((m) => m[3]!.replace(/[\u2068\u2069]/g, '')),
    selected: options.find((m) => m[2] && m[1])?.[1] ?? null,
  }
}

/** A field's message as the page shows it (`field-email-error`), or null. */
const messageOf = (html: string, field: string) =>
  textOf(html.match(new RegExp(`<p class="field-error" id="field-${field}-error">([^<]*)</p>`))?.[1] ?? '') || null

/** A visit from a browser the edge located (Cloudflare's `request.cf`). */
const visitFrom = (path: string, latitude: string, longitude: string, country: string) =>
  visit(path, new Request(`${ORIGIN}${path}`, { cf: { latitude, longitude, country } } as RequestInit))

beforeEach(clearCaches)

describe('the test ride form', () => {
  it("shows the market's bicycles by type, its dealers that offer test rides, the day window and the part of day", async () => {
    const { status, text, headers } = await visit('/it-it/prova-su-strada')
    expect(status).toBe(200)
    expect(headers.get('Cache-Control')).toBe('no-store')
    const models = optionsOf(text, 'product')
    expect(models.values).toContain('aurora-strada-9')
    expect(models.values).toContain('aurora-e-cargo')
    expect(models.values).not.toContain('aurora-aria-helmet')
    expect(text).toMatch(/<optgroup label="Biciclette">[\s\S]*<optgroup label="E-bike">/)
    // Officina Navigli and Ciclofficina del Giglio offer no test rides; the rest are listed by town.
    expect(optionsOf(text, 'dealer').values).toEqual(['cicli-bergamasca', 'bici-felsinea', 'ruota-capitolina'])
    expect(optionsOf(text, 'dealer').labels).toEqual([
      'Cicli Bergamasca — Bergamo',
      'Bici Felsinea — Bologna',
      'Ruota Capitolina — Roma',
    ])
    expect(textOf(text)).toContain(italian.test_ride.by_town)
    expect(text).toContain(`type="date" required="" dir="ltr" min="${daysFromToday(1)}" max="${daysFromToday(60)}"`)
    expect(text).toContain('name="part_of_day" value="morning"')
    expect(text).toContain('name="part_of_day" value="afternoon"')
    expect(textOf(text)).toContain(italian.forms.test_ride.title)
    expect(text).toContain('data-island="test-ride-days"')
  })

  it("reads its lists from the market's cached reads: a second view asks the API nothing", async () => {
    const upstream = httpUpstream()
    try {
      const paths = (from: number) =>
        upstream.requests.slice(from).map((request) => new URL(request.url).pathname.replace(/^\/api\//, ''))
      const first = await visit('/it-it/prova-su-strada', {}, { UPSTREAM_URL })
      expect(first.status).toBe(200)
      expect(paths(0)).toEqual(expect.arrayContaining(['front/product-types', 'front/products', 'front/dealers']))
      const before = upstream.requests.length
      expect((await visit('/it-it/prova-su-strada?model=aurora-strada-9', {}, { UPSTREAM_URL })).status).toBe(200)
      expect(paths(before)).toEqual([])
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('says which product types are bicycles in the contract (`registrable`)', async () => {
    const request = new Request('http://embedded.invalid/api/front/product-types', {
      headers: { 'X-Tenant': 'it', 'X-Locale': 'it' },
    })
    const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
    const { data } = (await response.json()) as { data: Array<{ slug: string; registrable: boolean }> }
    expect(data.map(({ slug, registrable }) => [slug, registrable])).toEqual([
      ['bikes', true],
      ['e-bikes', true],
      ['accessories', false],
    ])
  })

  it("tells the opening days of the dealer it starts with, in the page's language", async () => {
    const italy = await visit('/it-it/prova-su-strada?dealer=cicli-bergamasca')
    expect(textOf(italy.text)).toContain('Giorni di apertura di \u2068Cicli Bergamasca\u2069: da lunedì a sabato.')
    // Yarkon Bikes closes on Saturdays: its week reads from Sunday to Friday.
    const israel = await visit('/il-he/nesiat-mivchan?dealer=yarkon-bikes')
    expect(textOf(israel.text)).toContain('ימי הפתיחה של \u2068Yarkon Bikes\u2069: מיום ראשון עד יום שישי.')
    const none = await visit('/it-it/prova-su-strada')
    expect(textOf(none.text)).toContain(italian.test_ride.days_choose_dealer)
  })
})

describe('the opening days as words', () => {
  const view = {
    locale: 'en',
    t: (key: string, params?: Record<string, unknown>) =>
      key === 'test_ride.day_range' ? `${params?.first} to ${params?.last}` : english.test_ride.every_day,
  } as unknown as View

  it('names a run of three days or more as a range, shorter runs day by day, and a week without a closed day "every day"', () => {
    expect(openDaysText(view, '1111100')).toBe('Monday to Friday')
    expect(openDaysText(view, '1111101')).toBe('Sunday to Friday')
    expect(openDaysText(view, '1010101')).toBe('Monday, Wednesday, Friday, and Sunday')
    expect(openDaysText(view, '1100011')).toBe('Saturday to Tuesday')
    expect(openDaysText(view, '0110111')).toBe('Tuesday, Wednesday, and Friday to Sunday')
    expect(openDaysText(view, '1111111')).toBe('every day')
  })
})

describe('prefill from ?model= and ?dealer=', () => {
  it('chooses a model and a dealer of the lists', async () => {
    const { text } = await visit('/it-it/prova-su-strada?model=aurora-e-cargo&dealer=ruota-capitolina')
    expect(optionsOf(text, 'product').selected).toBe('aurora-e-cargo')
    expect(optionsOf(text, 'dealer').selected).toBe('ruota-capitolina')
  })

  it("ignores an accessory, an unknown or another market's model and dealers that are not in the list, without an error", async () => {
    for (const query of [
      'model=aurora-aria-helmet&dealer=officina-navigli',
      'model=no-such-bike&dealer=velowerk-limmat',
      'model=%3Cscript%3E&dealer=%22%3E',
      'model=&dealer=',
    ]) {
      const { status, text } = await visit(`/it-it/prova-su-strada?${query}`)
      expect(status, query).toBe(200)
      expect(optionsOf(text, 'product').selected, query).toBeNull()
      expect(optionsOf(text, 'dealer').selected, query).toBeNull()
      expect(text).not.toContain('<script>')
    }
    // The e-Cargo is not sold in the United States.
    const { text } = await visit('/us-en/test-drive?model=aurora-e-cargo')
    expect(optionsOf(text, 'product').values).not.toContain('aurora-e-cargo')
    expect(optionsOf(text, 'product').selected).toBeNull()
  })
})

describe('the dealers nearest first', () => {
  it('lists them from the town typed (?near=), with their distances, and keeps the model chosen in the search', async () => {
    const rome = await visit('/it-it/prova-su-strada?model=aurora-strada-9&near=Roma')
    expect(optionsOf(rome.text, 'dealer').values).toEqual(['ruota-capitolina', 'bici-felsinea', 'cicli-bergamasca'])
    expect(optionsOf(rome.text, 'dealer').labels[0]).toMatch(/^Ruota Capitolina — Roma · \d+ km$/)
    expect(textOf(rome.text)).toContain(italian.dealer.nearest_to.replace('{{place}}', 'Roma'))
    expect(rome.text).toMatch(
      /<form[^>]*class="ride-near"[^>]*role="search"[\s\S]*?name="model" value="aurora-strada-9"[\s\S]*?name="near"[^>]*value="Roma"/,
    )
    expect(optionsOf(rome.text, 'product').selected).toBe('aurora-strada-9')
    const bergamo = await visit('/it-it/prova-su-strada?near=24125')
    expect(optionsOf(bergamo.text, 'dealer').values[0]).toBe('cicli-bergamasca')
  })

  it("lists them from the visitor's position at the edge when no town is typed", async () => {
    const { text } = await visitFrom('/it-it/prova-su-strada', '44.49', '11.34', 'IT')
    expect(optionsOf(text, 'dealer').values[0]).toBe('bici-felsinea')
    expect(textOf(text)).toContain(italian.dealer.near_you)
  })

  it('says so when the town is unknown, and lists them by town', async () => {
    const { status, text } = await visit('/it-it/prova-su-strada?near=Atlantide')
    expect(status).toBe(200)
    expect(optionsOf(text, 'dealer').values).toEqual(['cicli-bergamasca', 'bici-felsinea', 'ruota-capitolina'])
    expect(textOf(text)).toContain(italian.test_ride.place_unknown.replace('{{place}}', 'Atlantide'))
  })
})

describe('booking a test ride', () => {
  it("stores it in it-it, mails the dealer and the sales recipient in Italian and the visitor in Italian with the dealer's address and the day, and shows the reference", async () => {
    const { status, headers } = await sendForm('/it-it/prova-su-strada', 'test_ride', RIDE)
    expect(status).toBe(303)
    expect(headers.get('Location')).toMatch(/^\/it-it\/prova-su-strada\/sent\?reference=TR-/)
    const reference = referenceOf(headers.get('Location'))!
    const stored = await storedSubmission(reference)
    expect(stored).toMatchObject({ kind: 'test_ride', site: 'it', locale: 'it', email: 'giulia@example.com' })
    expect(stored!.fields).toMatchObject({
      product: 'aurora-strada-9',
      dealer: 'cicli-bergamasca',
      date: TUESDAY,
      part_of_day: 'morning',
      phone: '+39 035 555 0101',
    })

    const mails = await mailsOf(reference)
    expect(mails.map(({ recipient, kind }) => [recipient, kind])).toEqual([
      ['info@cicli-bergamasca.example', 'test_ride_notice'],
      ['sales.it@aurora-cycles.example', 'test_ride_notice'],
      ['giulia@example.com', 'test_ride_acknowledgement'],
    ])
    const [notice, , acknowledgement] = mails
    expect(notice!.body).toContain(`${italian.forms.field.date}: ${longDate(TUESDAY, 'it')}`)
    expect(notice!.body).toContain(`${italian.forms.field.part_of_day}: ${italian.forms.part_of_day.morning}`)
    expect(notice!.body).toContain(reference)
    expect(acknowledgement!.body).toMatch(/^Gentile Giulia,\n/)
    expect(acknowledgement!.body).toContain('Aurora Strada 9')
    expect(acknowledgement!.body).toContain('Cicli Bergamasca, Via Borgo Palazzo 118, 24125 Bergamo')
    expect(acknowledgement!.body).toContain(longDate(TUESDAY, 'it'))
    expect(acknowledgement!.body).toContain(italian.forms.part_of_day.morning)
    expect(acknowledgement!.body).toContain(reference)

    const confirmation = await visit(headers.get('Location')!)
    expect(confirmation.status).toBe(200)
    expect(textOf(confirmation.text)).toContain(reference)
    expect(textOf(confirmation.text)).toContain(italian.forms.test_ride.sent)
    expect(textOf(confirmation.text)).toContain(italian.forms.test_ride.next)
  })

  it('acknowledges in Hebrew in il-he, with the day in Hebrew', async () => {
    const { status, headers } = await sendForm('/il-he/nesiat-mivchan', 'test_ride', {
      ...RIDE,
      dealer: 'yarkon-bikes',
      date: SUNDAY,
      part_of_day: 'afternoon',
      first_name: 'נועה',
      last_name: 'לוי',
      email: 'noa@example.com',
      phone: '+972 3 555 0101',
    })
    expect(status).toBe(303)
    const reference = referenceOf(headers.get('Location'))!
    expect(await storedSubmission(reference)).toMatchObject({ kind: 'test_ride', site: 'il', locale: 'he' })
    const mails = await mailsOf(reference)
    expect(mails.map((mail) => mail.recipient)).toEqual([
      'info@yarkon-bikes.example',
      'sales.il@aurora-cycles.example',
      'noa@example.com',
    ])
    const acknowledgement = mails[2]!
    expect(acknowledgement.body).toMatch(/^שלום נועה,\n/)
    expect(acknowledgement.body).toContain(longDate(SUNDAY, 'he'))
    expect(acknowledgement.body).toContain(hebrew.forms.part_of_day.afternoon)
    expect(acknowledgement.body).toContain('Yarkon Bikes, ')
    expect(mails[0]!.body).toContain(`${hebrew.forms.field.dealer}: Yarkon Bikes`)
  })

  it("notifies in the market's first language (German in Switzerland) and acknowledges in the visitor's (French or German)", async () => {
    const ride = {
      ...RIDE,
      dealer: 'cycles-du-leman',
      date: TUESDAY,
      email: 'camille@example.com',
      phone: '+41 22 555 01 01',
    }
    const inFrench = await sendForm('/ch-fr/essai', 'test_ride', ride)
    expect(inFrench.status).toBe(303)
    const [dealerNotice, salesNotice, frenchAck] = await mailsOf(referenceOf(inFrench.headers.get('Location'))!)
    expect(dealerNotice!.recipient).toBe('info@cycles-du-leman.example')
    expect(salesNotice!.recipient).toBe('sales.ch@aurora-cycles.example')
    for (const notice of [dealerNotice!, salesNotice!]) {
      expect(notice.body).toContain(`${german.forms.field.date}: ${longDate(TUESDAY, 'de')}`)
      expect(notice.body).toContain(`${german.forms.field.part_of_day}: ${german.forms.part_of_day.morning}`)
    }
    expect(frenchAck!.body).toMatch(/^Bonjour Giulia,/)
    expect(frenchAck!.body).toContain(longDate(TUESDAY, 'fr'))
    expect(frenchAck!.body).toContain(french.forms.part_of_day.morning)

    const inGerman = await sendForm('/ch-de/probefahrt', 'test_ride', { ...ride, email: 'jonas@example.com' })
    expect(inGerman.status).toBe(303)
    const [notice, , germanAck] = await mailsOf(referenceOf(inGerman.headers.get('Location'))!)
    expect(notice!.body).toContain(`${german.forms.field.date}: ${longDate(TUESDAY, 'de')}`)
    expect(germanAck!.body).toMatch(/^Hallo Giulia,/)
    expect(germanAck!.body).toContain(longDate(TUESDAY, 'de'))
    expect(germanAck!.body).toContain(german.forms.part_of_day.morning)
  })
})

describe("the fields' messages", () => {
  it('names every missing field with its own message and keeps nothing', async () => {
    const before = await submissionCount()
    const { status, text } = await sendForm('/it-it/prova-su-strada', 'test_ride', {})
    expect(status).toBe(422)
    expect(messageOf(text, 'product')).toBe(italian.validation.model)
    expect(messageOf(text, 'dealer')).toBe(italian.validation.dealer)
    expect(messageOf(text, 'date')).toContain(italian.validation.required)
    expect(messageOf(text, 'part_of_day')).toBe(italian.validation.part_of_day)
    for (const field of ['first_name', 'last_name', 'email', 'phone'])
      expect(messageOf(text, field), field).toContain(italian.validation.required)
    // The consent and its message belong to every form (src/components/lead-form-frame.tsx).
    expect(messageOf(text, 'consent')).toBeTruthy()
    expect(messageOf(text, 'message')).toBeNull()
    expect(text).toContain('aria-describedby="field-date-hint field-date-error field-date-days"')
    expect(await submissionCount()).toBe(before)
  })

  it('refuses malformed values with their messages and keeps what was typed', async () => {
    const { status, text } = await sendForm('/it-it/prova-su-strada', 'test_ride', {
      ...RIDE,
      email: 'giulia-at-example',
      phone: 'call me',
      // A day of no calendar, inside the window (tomorrow's month has no 32nd).
      date: `${daysFromToday(1).slice(0, 7)}-32`,
      part_of_day: 'night',
      first_name: 'G'.repeat(81),
      message: 'x'.repeat(2001),
    })
    expect(status).toBe(422)
    expect(messageOf(text, 'email')).toBe(italian.validation.email)
    expect(messageOf(text, 'phone')).toBe(italian.validation.phone)
    expect(messageOf(text, 'date')).toBe(italian.validation.date)
    expect(messageOf(text, 'part_of_day')).toBe(italian.validation.part_of_day)
    expect(messageOf(text, 'first_name')).toBe(italian.validation.too_long)
    expect(messageOf(text, 'message')).toBe(italian.validation.too_long)
    expect(text).toContain('value="giulia-at-example"')
    expect(text).toContain('value="call me"')
    expect(optionsOf(text, 'product').selected).toBe('aurora-strada-9')
    expect(optionsOf(text, 'dealer').selected).toBe('cicli-bergamasca')
  })

  it("refuses a model the market does not sell as a bicycle and a dealer without test rides (the API's check)", async () => {
    const before = await submissionCount()
    for (const [field, values, message] of [
      ['product', { product: 'aurora-aria-helmet' }, italian.validation.model],
      ['product', { product: 'no-such-bike' }, italian.validation.model],
      ['dealer', { dealer: 'officina-navigli' }, italian.validation.dealer],
      ['dealer', { dealer: 'velowerk-limmat' }, italian.validation.dealer],
    ] as const) {
      const { status, text } = await sendForm('/it-it/prova-su-strada', 'test_ride', { ...RIDE, ...values })
      expect(status, JSON.stringify(values)).toBe(422)
      expect(messageOf(text, field)).toBe(message)
    }
    const { status } = await sendForm('/us-en/test-drive', 'test_ride', {
      ...RIDE,
      product: 'aurora-e-cargo',
      dealer: 'flatiron-cycle-works',
    })
    expect(status).toBe(422)
    expect(await submissionCount()).toBe(before)
  })
})

describe('the day', () => {
  it('refuses today and a day more than 60 days ahead, and takes tomorrow and the 60th day', async () => {
    const before = await submissionCount()
    for (const date of [daysFromToday(0), daysFromToday(61), '2020-01-07']) {
      const { status, text } = await sendForm('/it-it/prova-su-strada', 'test_ride', { ...RIDE, date })
      expect(status, date).toBe(422)
      expect(messageOf(text, 'date'), date).toBe(italian.validation.date_window)
      expect(text).toContain(`value="${date}"`)
    }
    expect(await submissionCount()).toBe(before)
    // Ruota Capitolina opens from Monday to Saturday: pick the first and the last days of the window it is open.
    const open = (days: number) =>
      (new Date(Date.now() + days * 86_400_000).getUTCDay() + 6) % 7 === 6 ? days + (days === 1 ? 1 : -1) : days
    for (const days of [open(1), open(60)]) {
      const { status } = await sendForm('/it-it/prova-su-strada', 'test_ride', {
        ...RIDE,
        dealer: 'ruota-capitolina',
        date: daysFromToday(days),
      })
      expect(status, daysFromToday(days)).toBe(303)
    }
  })

  it('refuses a day the dealer is closed with its message, in Italian and in Hebrew, and stores nothing', async () => {
    const before = await submissionCount()
    const italy = await sendForm('/it-it/prova-su-strada', 'test_ride', { ...RIDE, date: SUNDAY })
    expect(italy.status).toBe(422)
    expect(messageOf(italy.text, 'date')).toBe(italian.validation.dealer_closed)
    expect(italy.text).toContain(`value="${SUNDAY}"`)
    expect(italy.text).toContain('&quot;refused&quot;:true')
    const israel = await sendForm('/il-he/nesiat-mivchan', 'test_ride', {
      ...RIDE,
      dealer: 'yarkon-bikes',
      date: SATURDAY,
    })
    expect(israel.status).toBe(422)
    expect(messageOf(israel.text, 'date')).toBe(hebrew.validation.dealer_closed)
    expect(await submissionCount()).toBe(before)
  })
})

describe('where test rides are switched off (de-de)', () => {
  it("answers 404 to the form's page and its posts, and stores nothing", async () => {
    const before = await submissionCount()
    expect((await visit('/de-de/probefahrt')).status).toBe(404)
    expect((await visit('/de-de/probefahrt?model=aurora-strada-9')).status).toBe(404)
    const posted = await sendForm('/de-de/probefahrt', 'test_ride', { ...RIDE, dealer: 'radhaus-isar' })
    expect(posted.status).toBe(404)
    expect((await visit('/de-de/probefahrt/sent?reference=TR-ABCD-EFGH')).status).toBe(404)
    expect(await submissionCount()).toBe(before)
  })

  it("drops the links to it from the product page, the dealer page, the locator's cards and the menus", async () => {
    for (const path of [
      '/de-de/products/aurora-strada-9',
      '/de-de/dealers/radhaus-isar',
      '/de-de/haendler',
      '/de-de',
    ]) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(200)
      expect(text, path).not.toContain('/de-de/probefahrt')
      expect(textOf(text), path).not.toContain(german.dealer.book_test_ride)
    }
  })

  it("keeps them where it is on: the product page's ?model=, the dealer page's and the locator's ?dealer= for dealers with test rides", async () => {
    const product = await visit('/it-it/products/aurora-strada-9')
    expect(product.text).toContain('href="/it-it/prova-su-strada?model=aurora-strada-9"')
    const dealer = await visit('/it-it/dealers/cicli-bergamasca')
    expect(dealer.text).toContain('href="/it-it/prova-su-strada?dealer=cicli-bergamasca"')
    const noTestRides = await visit('/it-it/dealers/officina-navigli')
    expect(noTestRides.text).not.toContain('/it-it/prova-su-strada?dealer=')
    const locator = await visit('/it-it/rivenditori')
    expect(locator.text).toMatch(
      /<a href="\/it-it\/prova-su-strada\?dealer=cicli-bergamasca">[^<]+<span class="visually-hidden"> \(Cicli Bergamasca\)<\/span><\/a>/,
    )
    expect(locator.text).not.toContain('/it-it/prova-su-strada?dealer=officina-navigli')
    expect(locator.text).not.toContain('/it-it/prova-su-strada?dealer=ciclofficina-del-giglio')
  })
})
