import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ATTACHMENT_MAX_BYTES } from '../../contract/whistleblower-schemas'
import { REPORT_BODY_BYTES } from '../../src/pages/whistleblower/report'
import { openBytes, openText } from '../../src/whistleblower/sealed'
import { receiptFor } from '../../src/whistleblower/receipt'
import { configOf } from '../../src/config'
import { contentSecurityPolicy } from '../../src/security/content-security-policy'
import type { Bindings } from '../../src/env'
import { consoleLogin } from '../fixtures/console'
import { LIVE_SEGMENTS } from '../fixtures/demo-markets'
import { formToken } from '../fixtures/lead-forms'
import { formPost, steadyRateLimiters } from '../fixtures/session'
import {
  addHandlerMessage,
  ANONYMOUS_REPORT,
  caseEvents,
  fileOf,
  multipartPost,
  openCase,
  postReport,
  reportCount,
  reportKeyOf,
  reportRow,
  sendReport,
  setCaseState,
} from '../fixtures/whistleblower'
import { recordingSender, sendUnsentMails } from '../fixtures/mail'
import { ORIGIN, textOf, visit, type Visit } from '../fixtures/worker'

/** A sentence that must never be found in the clear anywhere the site stores or logs something. */
const CANARY = 'Canary-7f3a: the warehouse manager in Bergamo takes cash for fake frame invoices'

/** Every log line written during a test, as text. */
let lines: string[] = []
beforeEach(() => {
  lines = []
  for (const level of ['log', 'warn', 'error', 'info'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
  }
})
afterEach(() => vi.restoreAllMocks())

/** Every text value of every table of D1, as one string per value. */
async function everyStoredText(): Promise<string[]> {
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
  ).all<{ name: string }>()
  const texts: string[] = []
  for (const { name } of tables) {
    // Full-text tables answer through their own virtual table; their shadow tables hold the same words.
    const { results } = await env.DB.prepare(`SELECT * FROM "${name}"`)
      .all<Record<string, unknown>>()
      .catch(() => ({ results: [] as Record<string, unknown>[] }))
    for (const row of results) for (const value of Object.values(row)) if (typeof value === 'string') texts.push(value)
  }
  return texts
}

/** The whistleblowers' "there is news" mails in the outbox, sent or not. */
const newsMailCount = () =>
  env.DB.prepare(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'whistleblower_news'`).first<number>('n')

/** Every object in the bucket, read whole, as text (latin1: any byte sequence survives). */
async function everyStoredObject(): Promise<Array<{ key: string; text: string; bytes: Uint8Array }>> {
  const objects: Array<{ key: string; text: string; bytes: Uint8Array }> = []
  let cursor: string | undefined
  do {
    const page = await env.FILES.list({ cursor })
    for (const { key } of page.objects) {
      const bytes = new Uint8Array(await (await env.FILES.get(key))!.arrayBuffer())
      objects.push({ key, bytes, text: new TextDecoder('latin1').decode(bytes) })
    }
    cursor = page.truncated ? page.cursor : undefined
  } while (cursor)
  return objects
}

const wbObjects = async () => (await everyStoredObject()).filter((object) => object.key.startsWith('wb/'))

/** What every answer of the channel must be: no cookie, nothing kept, no referrer, no origin but the site's own. */
function expectNoTrace({ headers, text }: Visit) {
  expect(headers.get('Set-Cookie')).toBeNull()
  expect(headers.getSetCookie()).toEqual([])
  expect(headers.get('Cache-Control')).toBe('no-store')
  expect(headers.get('Referrer-Policy')).toBe('no-referrer')
  const policy = headers.get('Content-Security-Policy') ?? ''
  expect(policy).not.toMatch(/https?:|\*|frame-src/)
  // Nothing is loaded from elsewhere: every script, style, image, frame and form is the site's own; the only other
  // origin a page may name is the national authority it links to (a plain link, nothing is fetched from it).
  for (const [, attribute] of text.matchAll(
    /<(?:script|link|img|iframe|source|form)\b[^>]*?\b(?:src|href|action)="([^"]*)"/g,
  )) {
    expect(attribute, 'a resource of the page').not.toMatch(/^(https?:)?\/\//)
  }
  for (const [, href] of text.matchAll(/<a\b[^>]*?\bhref="(https?:\/\/[^"]*)"/g)) {
    expect(href, 'the only link elsewhere is a national authority').toMatch(
      /^https:\/\/(www\.anticorruzione\.it|www\.bundesjustizamt\.de|aead\.gr|www\.defenseurdesdroits\.fr|www\.kpk-rs\.si|www\.ombudsman\.hr|www\.huisvoorklokkenluiders\.nl)\//,
    )
  }
  // No tag manager, no tracker, no consent banner (nothing to consent to), no Turnstile.
  // A container id stands alone (`GTM-XXXX`); a receipt code's group may end in "GTM" (WB-TGTM-…) and is no tag.
  expect(text).not.toMatch(
    /googletagmanager|gtag\(|\bGTM-|class="consent-form"|action="\/_consent"|clarity|facebook|intercom|turnstile/i,
  )
}

/** The request log lines of the channel's paths: path, status and duration only. */
function expectBareRequestLines() {
  const requests = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.event === 'request' && String(line.path).includes('/whistleblower-form'))
  expect(requests.length).toBeGreaterThan(0)
  for (const line of requests)
    expect(Object.keys(line).sort()).toEqual(['durationMs', 'event', 'level', 'path', 'status'])
}

const NAMED = {
  category: 'product_safety',
  what: 'Brake levers of the 2026 series crack under load; the test reports were changed.',
  when_where: 'Quality lab, October 2026.',
  involved: '',
  identity: 'named',
  name: 'Giulia Rossi',
  contact: 'Mobile +39 035 555 0101, after 6 pm',
  notify_email: 'giulia.private@example.com',
}

describe('the report page', () => {
  it('explains who reads reports, the protection, anonymity and the national authority, then shows the form; no trace', async () => {
    const page = await visit('/it-it/whistleblower-form')
    expect(page.status).toBe(200)
    expectNoTrace(page)
    const text = textOf(page.text)
    expect(text).toContain('team compliance di Aurora Cycles')
    expect(text).toContain('Le ritorsioni contro chi segnala in buona fede sono vietate')
    expect(text).toContain('Può segnalare in forma anonima')
    expect(page.text).toMatch(
      /<a href="https:\/\/www\.anticorruzione\.it\/-\/whistleblowing" rel="noreferrer noopener" target="_blank">ANAC – Autorità Nazionale Anticorruzione<\/a>/,
    )
    expect(page.text).toContain('<meta name="robots" content="noindex, nofollow"/>')
    expect(page.text).toMatch(/<form class="stacked-form wb-form"[^>]*encType="multipart\/form-data" method="post">/)
    for (const name of [
      'form_token',
      'homepage',
      'category',
      'what',
      'when_where',
      'involved',
      'identity',
      'name',
      'contact',
      'notify_email',
      'attachments',
    ]) {
      expect(page.text).toContain(`name="${name}"`)
    }
    // No privacy consent to tick (the Directive's processing is a legal obligation) and no Turnstile.
    expect(page.text).not.toContain('name="consent"')
    expectBareRequestLines()
  })

  it('names the national authority where the market has one, the competent authorities where it has none, and RTL texts in Arabic', async () => {
    expect(textOf((await visit('/es-es/whistleblower-form')).text)).toContain(
      'directamente a las autoridades competentes de su país',
    )
    const arabic = await visit('/ae-ar/whistleblower-form')
    expect(arabic.status).toBe(200)
    expect(arabic.text).toContain('<html lang="ar" dir="rtl"')
    expect(textOf(arabic.text)).toContain('الإبلاغ عن مخالفة')
    expectNoTrace(arabic)
  })

  it('asks for a name where the market takes no anonymous reports (Germany): no anonymous choice, name and contact required', async () => {
    const page = await visit('/de-de/whistleblower-form')
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('name="identity"')
    expect(textOf(page.text)).toContain('In diesem Land werden Meldungen mit Namen')
    const { status, text } = await postReport('de-de', { ...ANONYMOUS_REPORT, what: CANARY })
    expect(status).toBe(422)
    expect(text).toContain('id="field-name-error"')
    expect(text).toContain('id="field-contact-error"')
    expect(await reportRow('none')).toBeNull()
  })

  it("has a policy that allows no origin but the site's own: not the brand's API host other pages take images from, no tracker", () => {
    const config = configOf({
      ...env,
      UPSTREAM_URL: 'https://api.brand.example',
      TURNSTILE_SITE_KEY: 'key',
      TURNSTILE_SECRET_KEY: 'secret',
    } as Bindings)
    const sources = {
      'script-src': ['https://www.googletagmanager.com'],
      'img-src': ['https://www.google-analytics.com'],
    }
    expect(contentSecurityPolicy({ scripts: { nonce: 'n' }, kind: 'form', config, sources })).toMatch(
      /api\.brand\.example.*googletagmanager|googletagmanager.*api\.brand\.example/,
    )
    expect(contentSecurityPolicy({ scripts: { nonce: 'n' }, kind: 'whistleblower', config, sources })).not.toMatch(
      /https?:/,
    )
  })

  it('never reads a session nor sets or clears any cookie, whatever the visitor sends', async () => {
    const cookies =
      '__Host-AuthTkn=an-ended-session-id-0123456789abcdef; CountryLocale=de-de; __Host-Consent=v1.a1.m1.f1'
    for (const path of [
      '/it-it/whistleblower-form',
      '/it-it/whistleblower-form/status',
      '/nl-nl/whistleblower-form',
      '/xx-yy/whistleblower-form',
    ]) {
      const answer = await visit(path, { headers: { Cookie: cookies } })
      expect(answer.headers.getSetCookie(), path).toEqual([])
      expect(answer.headers.get('Cache-Control'), path).toBe('no-store')
      expect(answer.headers.get('Referrer-Policy'), path).toBe('no-referrer')
    }
  })

  it("is not in the platform's invocation logs (URL, headers, client): only the Worker's own bare line", () => {
    expect(env.TEST_WRANGLER_TOML).toMatch(/\n\[observability\.logs\]\n(?:[a-z_]+ = \S+\n)*invocation_logs = false\n/)
  })

  it('stays open while its market is in maintenance (nl-nl), whose other pages answer 503', async () => {
    expect((await visit('/nl-nl')).status).toBe(503)
    const page = await visit('/nl-nl/whistleblower-form')
    expect(page.status).toBe(200)
    expect(page.text).toContain('Huis voor Klokkenluiders')
    const { code, passphrase } = await sendReport('nl-nl')
    expect((await openCase('nl-nl', code, passphrase)).status).toBe(200)
  })

  it('answers 503 with the channel unavailable when WHISTLEBLOWER_KEY is missing, and stores nothing', async () => {
    const before = await reportCount()
    const page = await visit('/it-it/whistleblower-form', {}, { WHISTLEBLOWER_KEY: undefined })
    expect(page.status).toBe(503)
    expect(textOf(page.text)).toContain('Il canale di segnalazione non è disponibile al momento')
    expect(page.text).not.toContain('name="form_token"')
    expectNoTrace(page)
    const posted = await postReport('it-it', ANONYMOUS_REPORT, [], { WHISTLEBLOWER_KEY: undefined })
    expect(posted.status).toBe(503)
    expect(posted.receipt).toBeNull()
    expectNoTrace(posted)
    expect((await visit('/it-it/whistleblower-form/status', {}, { WHISTLEBLOWER_KEY: undefined })).status).toBe(503)
    expect(await reportCount()).toBe(before)
  })
})

describe('sending a report', () => {
  it('stores an anonymous report encrypted: the canary is in no table, no object and no log line, and the receipt is shown once', async () => {
    const evidence = fileOf('ledger.pdf', `%PDF-1.7 ${CANARY}`)
    const typedName = 'Typed Before Choosing Anonymity'
    const { status, receipt, text, headers } = await postReport(
      'it-it',
      {
        ...ANONYMOUS_REPORT,
        what: CANARY,
        involved: `${CANARY} (involved)`,
        name: typedName,
        contact: 'contact typed too',
      },
      [evidence],
    )
    expect(status).toBe(200)
    expectNoTrace({ status, text, headers } as Visit)
    expect(receipt!.code).toMatch(/^WB-([0-9A-HJKMNP-TV-Z]{4}-){3}[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(receipt!.passphrase).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){5}[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(text).toContain(`<bdi dir="ltr" class="wb-code" id="wb-receipt-code">${receipt!.code}</bdi>`)
    expect(textOf(text)).toContain('vengono mostrati solo questa volta')
    // The print button is a lazy island: the page works (and says how to print) without it.
    expect(text).toContain('data-island="print-button"')

    const row = (await reportRow(receipt!.code))!
    expect(row).toMatchObject({
      site: 'it',
      locale: 'it',
      category: 'fraud_corruption',
      anonymous: 1,
      state: 'received',
      sealed_notify: null,
    })
    expect(row.passphrase_hash).toMatch(/^pbkdf2-sha256\$100000\$/)
    const report = JSON.parse(await openText(await reportKeyOf(receipt!.code), row.sealed_report))
    expect(report).toEqual({
      what: CANARY,
      when_where: ANONYMOUS_REPORT.when_where,
      involved: `${CANARY} (involved)`,
      name: null,
      contact: null,
    })
    expect((await caseEvents(receipt!.code)).map((event) => event.action)).toEqual(['received'])

    const stored = await everyStoredText()
    for (const secret of [CANARY, 'Canary-7f3a', typedName, receipt!.passphrase, 'ledger.pdf']) {
      expect(
        stored.filter((value) => value.includes(secret)),
        secret,
      ).toEqual([])
    }
    const objects = await wbObjects()
    const { results: files } = await env.DB.prepare(
      'SELECT object_key, size FROM whistleblower_files WHERE report_id = ?',
    )
      .bind(row.id)
      .all<{ object_key: string; size: number }>()
    expect(files).toHaveLength(1)
    const object = objects.find((each) => each.key === files[0]!.object_key)!
    expect(object.bytes.byteLength).toBe(files[0]!.size)
    expect(
      new TextDecoder().decode(
        await openBytes(await reportKeyOf(receipt!.code), object.bytes as Uint8Array<ArrayBuffer>),
      ),
    ).toBe(`%PDF-1.7 ${CANARY}`)
    for (const each of objects) expect(each.text, each.key).not.toContain('Canary-7f3a')
    expect(lines.join('\n')).not.toContain('Canary-7f3a')
    expect(lines.join('\n')).not.toContain(receipt!.passphrase)
    expectBareRequestLines()
  })

  it('stores a named report with its notification address, all sealed: the name and the address are in no table, before a "news" mail, while it is queued and once it is sent', async () => {
    const name = 'Giulia Canary-Rossi'
    const receipt = await sendReport('it-it', { ...NAMED, name, what: `${CANARY} (named)` })
    const row = (await reportRow(receipt.code))!
    expect(row).toMatchObject({ anonymous: 0, category: 'product_safety' })
    const key = await reportKeyOf(receipt.code)
    expect(JSON.parse(await openText(key, row.sealed_report))).toMatchObject({
      name,
      contact: NAMED.contact,
      involved: null,
    })
    expect(await openText(key, row.sealed_notify!)).toBe(NAMED.notify_email)
    const secrets = ['Canary-7f3a', name, NAMED.notify_email, NAMED.contact]
    const expectNoneInTheClear = async (moment: string) => {
      const stored = await everyStoredText()
      for (const secret of secrets)
        expect(
          stored.filter((value) => value.includes(secret)),
          `${secret} ${moment}`,
        ).toEqual([])
    }
    await expectNoneInTheClear('once stored')

    // A handler writes to the reporter: the "there is news" mail is queued, its recipient sealed for the mail sender.
    const handler = await consoleLogin('case_handler')
    const written = await visit(
      `/_console/cases/${row.id}/messages`,
      formPost({ text: 'Which batch was it?' }, { Cookie: handler }),
    )
    expect(written.status).toBe(303)
    expect(await newsMailCount()).toBe(1)
    await expectNoneInTheClear('with the mail queued')

    // Sent: the sender opens the address only now, the mail names nothing but the status page, and its row is gone.
    const sender = recordingSender()
    await sendUnsentMails(sender)
    const news = sender.mails.filter((mail) => mail.kind === 'whistleblower_news')
    expect(news.map((mail) => mail.to)).toEqual([NAMED.notify_email])
    expect(news[0]?.body).toContain(`${ORIGIN}/it-it/whistleblower-form/status`)
    for (const secret of [...secrets, 'giulia', 'Which batch'])
      expect(`${news[0]?.subject}\n${news[0]?.body}`).not.toContain(secret)
    expect(await newsMailCount()).toBe(0)
    await expectNoneInTheClear('once the mail is sent')
    expect(lines.join('\n')).not.toMatch(/Canary|giulia\.private/)
  })

  it('gives each field its message and keeps what was typed (never the files), storing nothing', async () => {
    const before = await reportCount()
    const objects = (await wbObjects()).length
    const answer = await postReport(
      'it-it',
      { identity: 'named', what: CANARY, when_where: '', notify_email: 'not-an-address' },
      [fileOf('a.pdf', 'x')],
    )
    expect(answer.status).toBe(422)
    expectNoTrace(answer)
    expect(answer.text).toContain('La preghiamo di correggere i campi evidenziati.')
    for (const field of ['category', 'when_where', 'name', 'notify_email'])
      expect(answer.text, field).toContain(`id="field-${field}-error"`)
    expect(answer.text).toContain(`>${CANARY}</textarea>`)
    expect(answer.text).toContain('id="field-attachments-again"')
    expect(await reportCount()).toBe(before)
    expect((await wbObjects()).length).toBe(objects)
  })

  it('asks a named reporter for a way to be reached: a contact or an address', async () => {
    const answer = await postReport('it-it', { ...NAMED, contact: '', notify_email: '' })
    expect(answer.status).toBe(422)
    expect(textOf(answer.text)).toContain('Indichi un recapito oppure un indirizzo e-mail per gli avvisi.')
  })

  it('refuses a fourth attachment and stores nothing, neither the report nor any file', async () => {
    const before = await reportCount()
    const objects = (await wbObjects()).length
    const files = [1, 2, 3, 4].map((n) => fileOf(`evidence-${n}.pdf`, `file ${n}`))
    const answer = await postReport('it-it', ANONYMOUS_REPORT, files)
    expect(answer.status).toBe(422)
    expectNoTrace(answer)
    expect(textOf(answer.text)).toContain('Alleghi al massimo 3 file.')
    expect(answer.receipt).toBeNull()
    expect(await reportCount()).toBe(before)
    expect((await wbObjects()).length).toBe(objects)
  })

  it("refuses a file of 10 MB and one byte with its field's message, and takes three of exactly 10 MB", async () => {
    const objects = (await wbObjects()).length
    const tooLarge = await postReport('it-it', ANONYMOUS_REPORT, [
      fileOf('big.bin', new Uint8Array(ATTACHMENT_MAX_BYTES + 1)),
    ])
    expect(tooLarge.status).toBe(422)
    expect(textOf(tooLarge.text)).toContain('Ogni file può essere di al massimo 10 MB')
    expect((await wbObjects()).length).toBe(objects)
    const largest = [1, 2, 3].map((n) =>
      fileOf(`scan-${n}.bin`, new Uint8Array(ATTACHMENT_MAX_BYTES), 'application/octet-stream'),
    )
    const receipt = await sendReport('it-it', ANONYMOUS_REPORT, largest)
    const row = (await reportRow(receipt.code))!
    const { results } = await env.DB.prepare('SELECT size FROM whistleblower_files WHERE report_id = ?')
      .bind(row.id)
      .all<{ size: number }>()
    expect(results.map((file) => file.size)).toEqual([
      ATTACHMENT_MAX_BYTES + 28,
      ATTACHMENT_MAX_BYTES + 28,
      ATTACHMENT_MAX_BYTES + 28,
    ])
  })

  it('answers 413 to a body larger than three attachments and the texts, with no trace', async () => {
    const body = new FormData()
    body.append('what', 'x'.repeat(REPORT_BODY_BYTES + 1))
    const answer = await visit('/it-it/whistleblower-form', {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-origin', 'CF-Connecting-IP': '203.0.113.9' },
      body,
    })
    expect(answer.status).toBe(413)
    expectNoTrace(answer)
  })

  it("stores a report sent twice (a double click) once, with the first one's files, and shows the same receipt both times", async () => {
    const before = await reportCount()
    const token = await formToken('it-it', 'whistleblower')
    const first = await postReport('it-it', { ...ANONYMOUS_REPORT, form_token: token }, [fileOf('one.pdf', 'first')])
    const objects = (await wbObjects()).length
    const second = await postReport('it-it', { ...ANONYMOUS_REPORT, form_token: token }, [fileOf('one.pdf', 'first')])
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.receipt).toEqual(first.receipt)
    expect(await reportCount()).toBe(before + 1)
    expect((await wbObjects()).length).toBe(objects)
    expect((await openCase('it-it', first.receipt!.code, first.receipt!.passphrase)).status).toBe(200)
  })

  it("never gives a sent report's receipt to a bot re-posting its token, and stores no key the receipt comes from", async () => {
    const token = await formToken('it-it', 'whistleblower')
    const sent = await postReport('it-it', { ...ANONYMOUS_REPORT, form_token: token })
    const caught = await postReport('it-it', {
      ...ANONYMOUS_REPORT,
      form_token: token,
      homepage: 'https://spam.example',
    })
    expect(caught.status).toBe(200)
    expect(caught.receipt).not.toBeNull()
    expect(caught.receipt!.code).not.toBe(sent.receipt!.code)
    expect((await openCase('it-it', caught.receipt!.code, caught.receipt!.passphrase)).status).toBe(404)
    // The stored key gives nothing back: the receipt is derived from the token's id, which D1 never holds.
    const row = await env.DB.prepare('SELECT submission_key FROM whistleblower_reports WHERE receipt_code = ?')
      .bind(sent.receipt!.code)
      .first<{ submission_key: string }>()
    expect(row!.submission_key).not.toBe(token.split('.')[0])
    expect(row!.submission_key).toMatch(/^[0-9a-f]{64}$/)
    expect((await receiptFor(env.WHISTLEBLOWER_KEY as string, row!.submission_key)).passphrase).not.toBe(
      sent.receipt!.passphrase,
    )
  })

  it('shows a bot (honeypot, a form back in under 3 s, a forged token) a receipt, and stores nothing', async () => {
    const before = await reportCount()
    const attempts = [
      await postReport('it-it', { ...ANONYMOUS_REPORT, homepage: 'https://spam.example' }),
      await postReport('it-it', { ...ANONYMOUS_REPORT, form_token: await formToken('it-it', 'whistleblower', 1) }),
      await postReport('it-it', { ...ANONYMOUS_REPORT, form_token: 'forged' }),
      await postReport('it-it', { ...ANONYMOUS_REPORT, form_token: await formToken('es-es', 'whistleblower') }),
    ]
    for (const attempt of attempts) {
      expect(attempt.status).toBe(200)
      expect(attempt.receipt).not.toBeNull()
      expectNoTrace(attempt)
    }
    expect(await reportCount()).toBe(before)
  })

  it('limits reports per client (FORM_ATTEMPTS): 429 with the form kept and no trace', async () => {
    const limiters = steadyRateLimiters()
    const post = async () =>
      visit(
        '/it-it/whistleblower-form',
        multipartPost(
          { ...ANONYMOUS_REPORT, category: '', form_token: await formToken('it-it', 'whistleblower') },
          {},
          { 'CF-Connecting-IP': '203.0.113.77' },
        ),
        limiters,
      )
    for (let i = 0; i < 10; i++) expect((await post()).status).toBe(422)
    const refused = await post()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe('60')
    expect(textOf(refused.text)).toContain('Troppi tentativi')
    expectNoTrace(refused)
  })

  it('refuses a report posted from another site (403)', async () => {
    const init = multipartPost(
      { ...ANONYMOUS_REPORT, form_token: await formToken('it-it', 'whistleblower') },
      {},
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    )
    const answer = await visit('/it-it/whistleblower-form', init)
    expect(answer.status).toBe(403)
    expect(answer.headers.getSetCookie()).toEqual([])
  })
})

describe('following a case', () => {
  it("opens with the receipt code and passphrase typed loosely: state and date, the report, its files, the handler's messages but never notes", async () => {
    const receipt = await sendReport('it-it', { ...ANONYMOUS_REPORT, what: 'Report text for the status page' }, [
      fileOf('photo.jpg', new Uint8Array(2500), 'image/jpeg'),
    ])
    await setCaseState(receipt.code, 'acknowledged')
    await addHandlerMessage(receipt.code, 'Grazie. Può dirci in quale magazzino?')
    await addHandlerMessage(receipt.code, 'Internal note: check supplier 42', 'note')
    const typed = {
      code: receipt.code.toLowerCase().replace(/-/g, ' '),
      passphrase: receipt.passphrase.replace(/-/g, '').toLowerCase(),
    }
    const page = await openCase('it-it', typed.code, typed.passphrase)
    expect(page.status).toBe(200)
    expectNoTrace(page)
    const text = textOf(page.text)
    expect(page.text).toMatch(
      /<li class="current" aria-current="step"><span class="wb-state-name">Presa in carico confermata<\/span><time/,
    )
    expect(text).toMatch(/Ricevuto\s+\d{1,2} [a-z]+ 20\d\d/)
    expect(text).toContain('Grazie. Può dirci in quale magazzino?')
    expect(text).toContain('Team compliance')
    expect(text).not.toContain('Internal note')
    expect(text).toContain('Report text for the status page')
    expect(page.text).toMatch(/<bdi>photo\.jpg<\/bdi> <span class="hint">\(3 kB\)<\/span>/)
    // The reply form carries the case's key, so that it is not typed again during this visit.
    expect(page.text).toContain(`name="code" value="${receipt.code}"`)
    expect(page.text).toContain(`name="passphrase" value="${receipt.passphrase}"`)
    expect((await caseEvents(receipt.code)).map((event) => [event.action, event.staff_id])).toEqual([
      ['received', null],
    ])
    expectBareRequestLines()
  })

  it('answers a wrong passphrase, an unknown code and a malformed one alike: same status, same page (nonces aside)', async () => {
    const receipt = await sendReport('it-it')
    const wrong = await openCase('it-it', receipt.code, 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF')
    const unknown = await openCase('it-it', 'WB-0000-0000-0000-0000', receipt.passphrase)
    const malformed = await openCase('it-it', 'hello', 'world')
    const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""')
    for (const answer of [wrong, unknown, malformed]) {
      expect(answer.status).toBe(404)
      expectNoTrace(answer)
      expect(textOf(answer.text)).toContain(
        'Non è stato possibile aprire un caso con questo codice di ricevuta e questa passphrase.',
      )
    }
    expect(withoutNonces(wrong.text)).toBe(withoutNonces(unknown.text))
    expect(withoutNonces(malformed.text)).toBe(withoutNonces(unknown.text))
    expect(wrong.text).not.toContain(receipt.code)
    expect((await caseEvents(receipt.code)).map((event) => event.action)).toEqual(['received'])
  })

  it('limits attempts per client (WHISTLEBLOWER_ATTEMPTS, 10 a minute): then 429, even with the right pair', async () => {
    const receipt = await sendReport('it-it')
    const limiters = steadyRateLimiters()
    const client = { 'CF-Connecting-IP': '203.0.113.200' }
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await visit(
            '/it-it/whistleblower-form/status',
            multipartPost({ code: receipt.code, passphrase: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF' }, {}, client),
            limiters,
          )
        ).status,
      ).toBe(404)
    }
    const refused = await visit('/it-it/whistleblower-form/status', multipartPost(receipt, {}, client), limiters)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe('60')
    expect(textOf(refused.text)).toContain('Troppi tentativi')
    expectNoTrace(refused)
  })

  it("takes the reporter's answer with a file, shows it with a confirmation, keeps the state, and stores it once when sent twice", async () => {
    const receipt = await sendReport('it-it')
    await setCaseState(receipt.code, 'acknowledged')
    const opened = await openCase('it-it', receipt.code, receipt.passphrase)
    const token = /name="form_token" value="([^"]+)"/.exec(opened.text)![1]!
    const reply = () =>
      visit(
        '/it-it/whistleblower-form/status',
        multipartPost(
          {
            intent: 'reply',
            code: receipt.code,
            passphrase: receipt.passphrase,
            form_token: token,
            message: `${CANARY} (answer)`,
          },
          { attachments: [fileOf('more.pdf', 'more')] },
        ),
      )
    const first = await reply()
    expect(first.status).toBe(200)
    expectNoTrace(first)
    expect(textOf(first.text)).toContain('Il Suo messaggio è stato inviato.')
    expect(textOf(first.text)).toContain(`${CANARY} (answer)`)
    expect(first.text).toContain('<bdi>more.pdf</bdi>')
    const second = await reply()
    expect(second.status).toBe(200)
    const row = (await reportRow(receipt.code))!
    expect(row.state).toBe('acknowledged')
    const { results: messages } = await env.DB.prepare(
      "SELECT id FROM whistleblower_messages WHERE report_id = ? AND author = 'reporter'",
    )
      .bind(row.id)
      .all()
    expect(messages).toHaveLength(1)
    const { results: files } = await env.DB.prepare('SELECT message_id FROM whistleblower_files WHERE report_id = ?')
      .bind(row.id)
      .all<{ message_id: number | null }>()
    expect(files).toEqual([{ message_id: (messages[0] as { id: number }).id }])
    expect((await caseEvents(receipt.code)).filter((event) => event.action === 'reporter_replied')).toHaveLength(1)
    expect((await everyStoredText()).filter((value) => value.includes('Canary-7f3a'))).toEqual([])
    expect(lines.join('\n')).not.toContain('Canary-7f3a')
  })

  it('brings an answer back with its text when the bucket fails (503), storing nothing', async () => {
    const receipt = await sendReport('it-it')
    const opened = await openCase('it-it', receipt.code, receipt.passphrase)
    const token = /name="form_token" value="([^"]+)"/.exec(opened.text)![1]!
    const failing = {
      put: async () => Promise.reject(new Error('R2 unavailable')),
      delete: async () => {},
    } as unknown as R2Bucket
    const answer = await visit(
      '/it-it/whistleblower-form/status',
      multipartPost(
        {
          intent: 'reply',
          code: receipt.code,
          passphrase: receipt.passphrase,
          form_token: token,
          message: 'Kept when the files fail',
        },
        { attachments: [fileOf('more.pdf', 'more')] },
      ),
      { FILES: failing },
    )
    expect(answer.status).toBe(503)
    expectNoTrace(answer)
    expect(answer.text).toContain('Kept when the files fail')
    const row = (await reportRow(receipt.code))!
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM whistleblower_messages WHERE report_id = ?')
        .bind(row.id)
        .first('n'),
    ).toBe(0)
  })

  it('gives an empty answer its message, keeping the case open on the page', async () => {
    const receipt = await sendReport('it-it')
    const opened = await openCase('it-it', receipt.code, receipt.passphrase)
    const token = /name="form_token" value="([^"]+)"/.exec(opened.text)![1]!
    const answer = await visit(
      '/it-it/whistleblower-form/status',
      multipartPost({ intent: 'reply', ...receipt, form_token: token, message: '  ' }),
    )
    expect(answer.status).toBe(422)
    expect(answer.text).toContain('id="field-message-error"')
    expect(answer.text).toContain(`name="code" value="${receipt.code}"`)
  })

  it('shows a closed case with its outcome and no reply form, and refuses an answer to it (409), storing nothing', async () => {
    const receipt = await sendReport('it-it')
    const opened = await openCase('it-it', receipt.code, receipt.passphrase)
    const token = /name="form_token" value="([^"]+)"/.exec(opened.text)![1]!
    await setCaseState(receipt.code, 'closed', 'The supplier contract was ended.')
    const closed = await openCase('it-it', receipt.code, receipt.passphrase)
    expect(closed.status).toBe(200)
    expect(textOf(closed.text)).toContain('The supplier contract was ended.')
    expect(closed.text).not.toContain('name="intent"')
    const objects = (await wbObjects()).length
    const answer = await visit(
      '/it-it/whistleblower-form/status',
      multipartPost(
        { intent: 'reply', ...receipt, form_token: token, message: 'One more thing' },
        { attachments: [fileOf('late.pdf', 'late')] },
      ),
    )
    expect(answer.status).toBe(409)
    expectNoTrace(answer)
    expect(textOf(answer.text)).toContain('Questo caso è chiuso e non accetta nuovi messaggi.')
    const row = (await reportRow(receipt.code))!
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM whistleblower_messages WHERE report_id = ?')
        .bind(row.id)
        .first('n'),
    ).toBe(0)
    expect((await wbObjects()).length).toBe(objects)
  })

  it("shows the follow-up form in every live market's language, its code field left to right; an opened case's code isolated left to right (ae-ar)", async () => {
    const languages = env.TEST_DEMO_MESSAGES as unknown as Record<string, { whistleblower: { status_title: string } }>
    for (const market of LIVE_SEGMENTS) {
      const locale = market.split('-')[1]!
      const { status, text } = await visit(`/${market}/whistleblower-form/status`)
      expect(status, market).toBe(200)
      expect(text, market).toContain(`<html lang="${locale}"`)
      expect(text, market).toContain(`<h1 id="wb-status-title">${languages[locale]!.whistleblower.status_title}</h1>`)
      const input = /<input id="field-code"[^>]*>/.exec(text)?.[0] ?? ''
      expect(input, market).toContain('dir="ltr"')
      expect(input, market).toContain('name="code"')
    }
    const receipt = await sendReport('ae-ar', { ...ANONYMOUS_REPORT })
    const page = await openCase('ae-ar', receipt.code, receipt.passphrase)
    expect(page.status).toBe(200)
    expect(page.text).toContain(`<bdi dir="ltr" class="wb-code">${receipt.code}</bdi>`)
    expect(textOf(page.text)).toContain('قضيتك')
  })
})
