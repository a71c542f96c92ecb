import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import { hashPassword } from '../../reference-api/passwords'
import { issueFormToken } from '../../src/forms/form-token'
import { reportFields } from '../../contract/whistleblower-schemas'
import { consoleLogin, visitConsole } from '../fixtures/console'
import { mailsOf, referenceOf, sendForm, storedSubmission, submissionCount } from '../fixtures/lead-forms'
import { formPost, logIn, nextClient, steadyRateLimiters, visitAs } from '../fixtures/session'
import { textOf, visit } from '../fixtures/worker'

/** The explicit embedding, override and isolate controls: LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI. */
const CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']
const ANY_CONTROL = /[\u202A-\u202E\u2066-\u2069]/
/** "Mario pagamento" on screen: the right-to-left override turns the rest of the line around. */
const SPOOFED = 'Mario \u202Eotnemagap'

const CONTACT = {
  topic: 'other',
  name: 'Giulia Rossi',
  email: 'giulia@example.com',
  order_code: '',
  message: 'Una domanda sul telaio.',
  consent: 'on',
}

/** The message shown under a field (`field-name-error`), as text. */
const fieldError = (html: string, name: string) =>
  textOf(html.match(new RegExp(`id="field-${name}-error">([\\s\\S]*?)</p>`))?.[1] ?? '').trim()

describe('single-line fields', () => {
  it("refuse every direction control in a lead form's name with the field's message in the market's language, storing nothing", async () => {
    const count = await submissionCount()
    for (const control of CONTROLS) {
      const { status, text } = await sendForm('/it-it/contatti', 'contact', {
        ...CONTACT,
        name: `Mario ${control}otnemagap`,
      })
      expect(status, controlName(control)).toBe(422)
      expect(fieldError(text, 'name'), controlName(control)).toBe(italian.validation.direction_control)
    }
    const hebrewPage = await sendForm('/il-he/tsor-kesher', 'contact', { ...CONTACT, name: SPOOFED })
    expect(fieldError(hebrewPage.text, 'name')).toBe(hebrew.validation.direction_control)
    expect(await submissionCount()).toBe(count)
  })

  it('take names and messages in Hebrew and Arabic as written, and a message with its direction controls', async () => {
    const message = 'שלום, הפעמון של ה-Strada שלי רועש.\nمرحبا، لدي سؤال عن \u2067الإطار\u2069.'
    const { status, headers } = await sendForm('/il-he/tsor-kesher', 'contact', {
      ...CONTACT,
      name: 'דנה כהן',
      message,
    })
    expect(status).toBe(303)
    const reference = referenceOf(headers.get('Location'))!
    expect((await storedSubmission(reference))!.fields).toMatchObject({ name: 'דנה כהן', message })
    // The notification carries the letters, not the controls (a plain-text mail cannot isolate a value).
    const notice = (await mailsOf(reference)).find((mail) => mail.kind === 'contact_notice')!
    expect(notice.body).toContain('דנה כהן')
    expect(notice.body).toContain('مرحبا، لدي سؤال عن الإطار.')
    expect(notice.body).not.toMatch(ANY_CONTROL)
  })

  it("refuse them in a new account's name", async () => {
    const email = 'direction-controls@example.com'
    const body = {
      first_name: SPOOFED,
      last_name: 'Rossi',
      email,
      password: 'Gravel-Roads-2027',
      consent: 'on',
      form_token: await issueFormToken(env.SESSION_SECRET as string, 'register', Date.now() - 10_000),
    }
    const { status, text } = await visit(
      '/login/register',
      formPost(body, { Cookie: 'CountryLocale=it-it', 'CF-Connecting-IP': nextClient() }),
    )
    expect(status).toBe(422)
    expect(fieldError(text, 'first_name')).toBe(italian.validation.direction_control)
    expect(await env.DB.prepare('SELECT id FROM users WHERE email = ?').bind(email).first()).toBeNull()
  })

  it("refuse them in an address (the account's and checkout's), and in a named whistleblower report's name", async () => {
    const session = await logIn()
    const addresses = () => env.DB.prepare('SELECT COUNT(*) AS n FROM addresses').first<number>('n')
    const before = await addresses()
    const address = {
      label: '',
      first_name: 'Giulia',
      last_name: 'Rossi',
      company: '',
      line1: 'Via dei Mille 5',
      line2: '',
      postal_code: '24020',
      city: `Gorle\u202E`,
      region: '',
      country_code: 'IT',
      phone: '',
    }
    const { status, text } = await visitAs(
      session,
      '/it-it/my-account/addresses',
      formPost(address),
      steadyRateLimiters(),
    )
    expect(status).toBe(422)
    expect(fieldError(text, 'city')).toBe(italian.validation.direction_control)
    expect(await addresses()).toBe(before)
    const report = {
      category: 'fraud_corruption',
      what: 'Fatture gonfiate.',
      when_where: 'Milano, 2026',
      anonymous: false,
      name: SPOOFED,
      contact: '+39 02 555 0100',
    }
    expect(reportFields.safeParse(report).error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ['name', 'direction_control'],
    ])
    // An anonymous report drops the (hidden) name field: nothing to refuse there.
    expect(reportFields.safeParse({ ...report, anonymous: true }).success).toBe(true)
  })
})

describe('staff pages', () => {
  it('isolate every value a visitor wrote on a lead, one stored before the forms refused direction controls included', async () => {
    const fields = {
      topic: 'other',
      name: SPOOFED,
      email: 'mario@example.com',
      order_code: null,
      message: 'Ciao \u202Eoloc\nseconda riga',
      consent: true,
    }
    await env.DB.prepare(
      `INSERT INTO form_submissions (reference, submission_key, kind, site, locale, email, fields) VALUES ('CT-BIDI-0001', 'bidi-submission-key-0000001', 'contact', 'it', 'it', ?, ?)`,
    )
      .bind(fields.email, JSON.stringify(fields))
      .run()
    const id = await env.DB.prepare(`SELECT id FROM form_submissions WHERE reference = 'CT-BIDI-0001'`).first<number>(
      'id',
    )
    const cookie = await consoleLogin('editor')
    const lead = await visitConsole(cookie, `/_console/leads/${id}`)
    expect(lead.status).toBe(200)
    expect(lead.text).toContain(`<dd><bdi>${SPOOFED}</bdi></dd>`)
    expect(lead.text).toContain('<dd><bdi>mario@example.com</bdi></dd>')
    expect(lead.text).toContain('<dd><bdi>Ciao \u202Eoloc\nseconda riga</bdi></dd>')
    // Nothing the visitor wrote stands outside an isolate.
    expect(lead.text.replace(/<bdi>[^<]*<\/bdi>/g, '')).not.toMatch(ANY_CONTROL)
    const list = await visitConsole(cookie, '/_console/leads?kind=contact')
    expect(list.text).toContain('<td><bdi>mario@example.com</bdi></td>')
  })

  it("isolate a mail's recipient and subject in the outbox", async () => {
    await env.DB.prepare(
      `INSERT INTO outbox (recipient, subject, body, kind) VALUES ('mario@example.com', ?, 'Ciao', 'contact_acknowledgement')`,
    )
      .bind(`Grazie, ${SPOOFED}`)
      .run()
    const id = await env.DB.prepare(
      `SELECT id FROM outbox WHERE recipient = 'mario@example.com' ORDER BY id DESC LIMIT 1`,
    ).first<number>('id')
    const cookie = await consoleLogin('editor')
    const list = await visitConsole(cookie, '/_console/outbox?kind=contact_acknowledgement')
    expect(list.text).toContain(`<bdi>Grazie, ${SPOOFED}</bdi>`)
    expect(list.text).toContain('<td><bdi>mario@example.com</bdi></td>')
    const mail = await visitConsole(cookie, `/_console/outbox/${id}`)
    expect(mail.text).toContain('<dd><bdi>mario@example.com</bdi></dd>')
    expect(mail.text).toContain('<h1>Grazie, Mario otnemagap</h1>')
  })
})

describe('plain-text mails', () => {
  it('leave out the direction controls of a name stored before the forms refused them, and keep its letters', async () => {
    const email = 'stored-before@example.com'
    await env.DB.prepare(`INSERT INTO users (email, first_name, last_name, password_hash) VALUES (?, ?, 'Rossi', ?)`)
      .bind(email, `${SPOOFED} דנה`, await hashPassword('Old-Password-2026'))
      .run()
    const { status } = await visit(
      '/login/forgot',
      formPost({ forgot_email: email }, { Cookie: 'CountryLocale=it-it', 'CF-Connecting-IP': nextClient() }),
    )
    expect(status).toBe(303)
    const mail = await env.DB.prepare('SELECT subject, body FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1')
      .bind(email)
      .first<{ subject: string; body: string }>()
    expect(mail!.body).toContain('Mario otnemagap דנה')
    expect(mail!.subject + mail!.body).not.toMatch(ANY_CONTROL)
  })
})

const controlName = (control: string) => `U+${control.codePointAt(0)!.toString(16).toUpperCase()}`
