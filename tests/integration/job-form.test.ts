import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { configOf } from '../../src/config'
import { createTranslator } from '../../src/i18n/translator'
import worker from '../../worker'
import { CV_KEY_FORMAT, CV_MAX_BYTES } from '../../contract/form-schemas'
import { crowdedDocxOf, docxOf, executable, expandingDocxOf, odtOf, pdfOf, zipOf } from '../fixtures/cv-files'
import { UPSTREAM_URL, httpUpstream } from '../fixtures/http-upstream'
import { formToken, mailsOf, referenceOf, storedSubmission, submissionCount } from '../fixtures/lead-forms'
import { nextClient } from '../fixtures/session'
import { ORIGIN, textOf, visit } from '../fixtures/worker'

const PATH = '/it-it/lavora-con-noi'
/** Giulia applies for the bike mechanic's position in Bergamo (job 3 of demo/content/jobs.json). */
const GIULIA = {
  position: '3',
  name: 'Giulia Rossi',
  email: 'giulia.rossi@example.com',
  phone: '+39 035 555 0199',
  cover_letter: 'Riparo biciclette da dieci anni nella mia officina di Clusone.',
  consent: 'on',
}
const MB = 1024 * 1024

type Upload = { bytes: Uint8Array<ArrayBuffer>; name: string; type?: string }
const pdf = (size = 0): Upload => ({
  bytes: pdfOf('Curriculum vitae of Giulia, private-cv-marker', size),
  name: 'Giulia Rossi CV.pdf',
  type: 'application/pdf',
})

/**
 * Posts the job form as a browser does (multipart, a token given out 10 s before, a client of its own): the fields,
 * then the file as the `cv` field (an empty file part when `file` is null, as a browser sends an empty file input).
 */
async function apply(
  path: string,
  fields: Record<string, string>,
  file: Upload | null,
  bindings: Partial<Cloudflare.Env> = {},
) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  if (!fields.form_token) form.append('form_token', await formToken(path.split('/')[1]!, 'job'))
  form.append(
    'cv',
    new File([file?.bytes ?? new Uint8Array()], file?.name ?? '', { type: file?.type ?? 'application/octet-stream' }),
  )
  return visit(
    path,
    {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-origin', 'CF-Connecting-IP': nextClient() },
      body: form,
    },
    bindings,
  )
}

/** A SHA-256 of some bytes, to compare megabytes at once. */
const digestOf = async (bytes: ArrayBuffer | Uint8Array<ArrayBuffer>) =>
  btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))))

/** The CVs in the bucket. */
const cvKeys = async () => (await env.FILES.list({ prefix: 'cv/' })).objects.map((object) => object.key).sort()

/** A locale's texts as the demo gives them (English where it has none), to name the expected message. */
const textsOf = (locale: string) => createTranslator(locale, env.TEST_DEMO_MESSAGES[locale] ?? null)

/** The message shown under a field (`field-email-error`), as text. */
const fieldError = (html: string, name: string) =>
  textOf(html.match(new RegExp(`id="field-${name}-error">([\\s\\S]*?)</p>`))?.[1] ?? '').trim()

/** Every log line the Worker writes while `work` runs. */
async function logLinesOf(work: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = []
  for (const level of ['log', 'warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
  try {
    await work()
  } finally {
    vi.restoreAllMocks()
  }
  return lines
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('the work-with-us page', () => {
  it("lists the market's open positions above a multipart form, each with a link that chooses it", async () => {
    const { status, text, headers } = await visit(PATH)
    expect(status).toBe(200)
    expect(headers.get('Cache-Control')).toBe('no-store')
    const page = textOf(text)
    expect(page).toContain('Meccanico di biciclette')
    expect(page).toContain('Responsabile vendite Nord Italia')
    expect(page).toContain('Milano, con trasferte')
    expect(page).toContain('Monti, regoli e collaudi le nostre bici')
    expect(text).toContain('href="/it-it/lavora-con-noi?position=3#lead-form-title"')
    expect(text.indexOf('class="job-openings"')).toBeLessThan(text.indexOf('class="stacked-form lead-form"'))
    expect(text).toMatch(/enctype="multipart\/form-data"/i)
    expect(text).toMatch(/<input id="field-cv" type="file" accept="\.pdf,\.docx,\.odt"[^>]* name="cv"\/>/)
    expect(text).toContain(`<option value="" selected="">${textsOf('it')('forms.job.open_application')}</option>`)
    expect(text).toMatch(/<option value="3">Meccanico di biciclette · Bergamo<\/option>/)
    expect(text).not.toContain('id="field-cv-again"')
    // The size is a left-to-right run kept whole in right-to-left text.
    expect(text).toContain('\u20665 MB\u2069')
  })

  it("never lists a closed position or another market's", async () => {
    const { text } = await visit(PATH)
    expect(textOf(text)).not.toContain('Stage in marketing')
    expect(textOf(text)).not.toContain('Senior Frame Engineer')
    expect(text).not.toContain('<option value="5"')
    expect(text).not.toContain('<option value="1"')
  })

  it("lists positions in the visitor's language where the market has several", async () => {
    const french = textOf((await visit('/ch-fr/travailler-avec-nous')).text)
    const german = textOf((await visit('/ch-de/karriere')).text)
    expect(french).toContain('Mécanicien·ne cycles (80–100 %)')
    expect(german).toContain('Velomechaniker:in (80–100 %)')
    expect(german).not.toContain('Mécanicien')
    expect(textOf((await visit('/il-he/drushim')).text)).toContain('טכנאי/ת אופניים חשמליים')
  })

  it('promises an open application where the market has no open position', async () => {
    const { status, text } = await visit('/es-es/trabaja-con-nosotros')
    expect(status).toBe(200)
    expect(textOf(text)).toContain(textsOf('es')('jobs.no_positions'))
    expect(text).not.toContain('class="job-list"')
    // Nothing to choose: the application is an open one.
    expect(text).not.toContain('id="field-position"')
  })

  it('shows the position again, with its message, when the one chosen closed and none is left', async () => {
    const { status, text } = await apply('/es-es/trabaja-con-nosotros', { ...GIULIA, position: '3' }, pdf())
    expect(status).toBe(422)
    expect(fieldError(text, 'position')).toBe(textsOf('es')('validation.position'))
    expect(text).toMatch(
      new RegExp(
        `<select id="field-position"[^>]*><option value="">${textsOf('es')('forms.job.open_application')}</option></select>`,
      ),
    )
  })

  it('chooses the position of ?position= when it is open in the market, and ignores any other', async () => {
    expect((await visit(`${PATH}?position=4`)).text).toMatch(/<option value="4" selected="">/)
    for (const position of ['5', '1', '8', 'abc', '-3', '4.5']) {
      const { status, text } = await visit(`${PATH}?position=${position}`)
      expect(status, position).toBe(200)
      expect(text, position).toContain('<option value="" selected="">')
    }
  })
})

describe('an application', () => {
  it('stores the application with its CV, mails the jobs recipient and the applicant, and sends them to the confirmation', async () => {
    const before = await cvKeys()
    const file = pdf(1.2 * MB)
    const { status, headers } = await apply(PATH, GIULIA, file)
    expect(status).toBe(303)
    const reference = referenceOf(headers.get('Location'))
    expect(reference).toMatch(/^JB-[0-9A-Z]{4}-[0-9A-Z]{4}$/)

    const stored = (await storedSubmission(reference!))!
    expect(stored).toMatchObject({ kind: 'job', site: 'it', locale: 'it', email: 'giulia.rossi@example.com' })
    expect(stored.file_key).toMatch(CV_KEY_FORMAT)
    expect(stored.fields).toMatchObject({
      position: 3,
      name: 'Giulia Rossi',
      cv: { key: stored.file_key, type: 'pdf', size: file.bytes.length, name: 'Giulia Rossi CV.pdf' },
    })
    expect(await cvKeys()).toEqual([...before, stored.file_key].sort())

    const object = (await env.FILES.get(stored.file_key!))!
    expect(await digestOf(await object.arrayBuffer())).toBe(await digestOf(file.bytes))
    expect(object.size).toBe(file.bytes.length)
    expect(object.httpMetadata?.contentType).toBe('application/pdf')
    expect(object.httpMetadata?.contentDisposition).toBe('attachment')

    const [notice, acknowledgement, ...others] = await mailsOf(reference!)
    expect(others).toEqual([])
    // Italy has no jobs desk of its own: the brand's (the international site's) receives it.
    expect(notice).toMatchObject({ kind: 'job_notice', recipient: 'jobs@aurora-cycles.example' })
    expect(notice!.body).toContain(reference!)
    expect(notice!.body).toContain('Meccanico di biciclette')
    expect(notice!.body).toContain('PDF')
    expect(notice!.body).toContain('1,2 MB')
    expect(notice!.body).not.toContain('private-cv-marker')
    expect(notice!.body).not.toContain('%PDF')
    expect(notice!.body).not.toContain(btoa('%PDF-1.7'))
    const t = textsOf('it')
    expect(acknowledgement).toMatchObject({
      kind: 'job_acknowledgement',
      recipient: 'giulia.rossi@example.com',
      subject: t('mail.lead_ack_subject', { form: t('forms.job.name'), reference: reference! }),
    })

    const confirmation = await visit(headers.get('Location')!)
    expect(confirmation.status).toBe(200)
    expect(textOf(confirmation.text)).toContain(reference!)
  })

  it('tells the market in its first language and the applicant in theirs', async () => {
    const { status, headers } = await apply('/ch-fr/travailler-avec-nous', { ...GIULIA, position: '9' }, pdf())
    expect(status).toBe(303)
    const reference = referenceOf(headers.get('Location'))!
    const [notice, acknowledgement] = await mailsOf(reference)
    const [german, french] = [textsOf('de'), textsOf('fr')]
    expect(notice!.subject).toBe(german('mail.lead_notice_subject', { form: german('forms.job.name'), reference }))
    expect(notice!.body).toContain('Velomechaniker:in (80–100 %)')
    expect(acknowledgement!.subject).toBe(
      french('mail.lead_ack_subject', { form: french('forms.job.name'), reference }),
    )
  })

  it("goes to the market's own jobs desk where it has one, and takes an open application", async () => {
    const { status, headers } = await apply('/de-de/karriere', { ...GIULIA, position: '' }, pdf())
    expect(status).toBe(303)
    const reference = referenceOf(headers.get('Location'))!
    expect((await storedSubmission(reference))!.fields).toMatchObject({ position: null })
    const [notice] = await mailsOf(reference)
    expect(notice!.recipient).toBe('jobs.de@aurora-cycles.example')
    expect(notice!.body).toContain(textsOf('de')('forms.job.open_application'))
  })

  it.each([
    [
      'a DOCX',
      'docx',
      {
        bytes: docxOf('Lebenslauf'),
        name: 'lebenslauf.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    [
      'an ODT',
      'odt',
      { bytes: odtOf('Lebenslauf'), name: 'lebenslauf.odt', type: 'application/vnd.oasis.opendocument.text' },
      'application/vnd.oasis.opendocument.text',
    ],
    [
      'a PDF the browser calls anything',
      'pdf',
      { bytes: pdfOf('Lebenslauf'), name: 'Lebenslauf', type: 'application/octet-stream' },
      'application/pdf',
    ],
  ])('accepts %s, recognised from its bytes, and keeps it with that type', async (_, type, file, contentType) => {
    const { status, headers } = await apply('/ch-de/karriere', { ...GIULIA, position: '8' }, file)
    expect(status).toBe(303)
    const stored = (await storedSubmission(referenceOf(headers.get('Location'))!))!
    expect(stored.fields).toMatchObject({ cv: { type, size: file.bytes.length } })
    const object = (await env.FILES.get(stored.file_key!))!
    expect(new Uint8Array(await object.arrayBuffer())).toEqual(file.bytes)
    expect(object.httpMetadata?.contentType).toBe(contentType)
  })

  it('accepts a DOCX whose parts are deflated, as word processors write them, that expands to megabytes', async () => {
    const bytes = await expandingDocxOf(4 * MB)
    const { status, headers } = await apply(PATH, GIULIA, { bytes, name: 'cv.docx' })
    expect(status).toBe(303)
    const stored = (await storedSubmission(referenceOf(headers.get('Location'))!))!
    expect(stored.fields).toMatchObject({ cv: { type: 'docx', size: bytes.length } })
  })

  it('takes a CV of exactly 5 MB with the longest cover letter', async () => {
    const { status } = await apply(PATH, { ...GIULIA, cover_letter: 'è'.repeat(5000) }, pdf(CV_MAX_BYTES))
    expect(status).toBe(303)
  })

  it('keeps the file name without folders or invisible characters, and names a nameless file by its type', async () => {
    const nameOf = async (name: string) => {
      const { status, headers } = await apply(PATH, GIULIA, { ...pdf(), name })
      expect(status).toBe(303)
      return ((await storedSubmission(referenceOf(headers.get('Location'))!))!.fields.cv as { name: string }).name
    }
    expect(await nameOf('C:\\Users\\giulia\\\u202ecv-fdp.pdf')).toBe('cv-fdp.pdf')
    expect(await nameOf(`${'a'.repeat(150)}.pdf`)).toBe('a'.repeat(100))
    expect(await nameOf('\u202e\u200b')).toBe('cv.pdf')
  })
})

describe('a refused application', () => {
  it.each([
    ['an executable renamed .pdf', { bytes: executable(), name: 'cv.pdf', type: 'application/pdf' }, 'cv_type'],
    [
      'a ZIP of other files named .docx',
      {
        bytes: zipOf([['notes.txt', 'hello']]),
        name: 'cv.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
      'cv_type',
    ],
    [
      'a spreadsheet (a ZIP with [Content_Types].xml but no word/)',
      {
        bytes: zipOf([
          ['[Content_Types].xml', '<Types/>'],
          ['xl/workbook.xml', '<workbook/>'],
        ]),
        name: 'cv.docx',
      },
      'cv_type',
    ],
    [
      'an ODF spreadsheet named .odt',
      { bytes: odtOf('x', 'application/vnd.oasis.opendocument.spreadsheet'), name: 'cv.odt' },
      'cv_type',
    ],
    ['a damaged DOCX (cut short)', { bytes: docxOf('Lebenslauf').slice(0, 300), name: 'cv.docx' }, 'cv_type'],
    [
      'plain text named .pdf',
      { bytes: new TextEncoder().encode('my CV: PDF-1.7'), name: 'cv.pdf', type: 'application/pdf' },
      'cv_type',
    ],
    ['an empty file', { bytes: new Uint8Array(), name: 'cv.pdf', type: 'application/pdf' }, 'cv_required'],
    ['no file', null, 'cv_required'],
    ['a PDF one byte over 5 MB', pdf(CV_MAX_BYTES + 1), 'cv_too_large'],
    [
      'a DOCX of 200 KB that expands to 200 MiB',
      async () => ({ bytes: await expandingDocxOf(200 * MB), name: 'cv.docx' }),
      'cv_expands',
    ],
    [
      'a DOCX that says 1 KB and expands to 30 MiB',
      async () => ({ bytes: await expandingDocxOf(30 * MB, 1024), name: 'cv.docx' }),
      'cv_type',
    ],
    ['a DOCX of 5,000 entries', { bytes: crowdedDocxOf(5000), name: 'cv.docx' }, 'cv_expands'],
  ])(
    "refuses %s with the CV field's message, stores nothing, and keeps everything typed",
    async (_, upload, message) => {
      const [count, keys] = [await submissionCount(), await cvKeys()]
      const file = typeof upload === 'function' ? await upload() : upload
      const { status, text } = await apply(PATH, GIULIA, file)
      expect(status).toBe(422)
      expect(fieldError(text, 'cv')).toBe(textsOf('it')(`validation.${message}`))
      expect(text).toMatch(/<input id="field-cv" type="file"[^>]*aria-invalid="true"/)
      expect(text).toContain('value="Giulia Rossi"')
      expect(text).toContain('value="giulia.rossi@example.com"')
      expect(text).toContain('Riparo biciclette da dieci anni')
      expect(text).toMatch(/<option value="3" selected="">/)
      // The file is the one thing not kept, and the form says so beside it.
      expect(textOf(text)).toContain(textsOf('it')('jobs.cv_again'))
      expect(text).toMatch(/aria-describedby="[^"]*field-cv-again/)
      expect(await submissionCount()).toBe(count)
      expect(await cvKeys()).toEqual(keys)
    },
  )

  it('answers 413 with the error page to a 6 MB file, before reading it', async () => {
    const [count, keys] = [await submissionCount(), await cvKeys()]
    for (const size of [6_000_000, 6 * MB]) {
      const { status, text } = await apply(PATH, GIULIA, pdf(size))
      expect(status, String(size)).toBe(413)
      expect(text).toContain('This form is too large.')
    }
    expect(await submissionCount()).toBe(count)
    expect(await cvKeys()).toEqual(keys)
  })

  it("names every field's problem at once, in the visitor's language, and keeps the CV out of storage", async () => {
    const keys = await cvKeys()
    const { status, text } = await apply(PATH, { position: '', name: '', email: '', phone: '', cover_letter: '' }, null)
    expect(status).toBe(422)
    const t = textsOf('it')
    expect(textOf(text)).toContain(t('validation.summary'))
    expect(fieldError(text, 'name')).toBe(t('validation.required'))
    expect(fieldError(text, 'email')).toContain(t('validation.required'))
    expect(fieldError(text, 'phone')).toContain(t('validation.required'))
    expect(fieldError(text, 'consent')).toBe(t('validation.consent'))
    expect(fieldError(text, 'cv')).toBe(t('validation.cv_required'))
    expect(fieldError(text, 'position')).toBe('')
    expect(fieldError(text, 'cover_letter')).toBe('')

    const wrong = await apply(
      PATH,
      {
        ...GIULIA,
        position: 'abc',
        name: 'G'.repeat(121),
        email: 'giulia.rossi-at-example.com',
        phone: 'call me',
        cover_letter: 'x'.repeat(5001),
      },
      pdf(),
    )
    expect(wrong.status).toBe(422)
    expect(fieldError(wrong.text, 'position')).toBe(t('validation.position'))
    expect(fieldError(wrong.text, 'name')).toBe(t('validation.too_long'))
    expect(fieldError(wrong.text, 'email')).toBe(t('validation.email'))
    expect(fieldError(wrong.text, 'phone')).toBe(t('validation.phone'))
    expect(fieldError(wrong.text, 'cover_letter')).toBe(t('validation.too_long'))
    expect(fieldError(wrong.text, 'cv')).toBe('')
    expect(wrong.text).toContain('value="giulia.rossi-at-example.com"')
    expect(await cvKeys()).toEqual(keys)
  })

  it.each([
    ['closed', '5'],
    ['of another market', '1'],
    ['of another market that the market also sells in', '8'],
  ])('refuses a position that is %s, without storing the CV', async (_, position) => {
    const [count, keys] = [await submissionCount(), await cvKeys()]
    const { status, text } = await apply(PATH, { ...GIULIA, position }, pdf())
    expect(status).toBe(422)
    expect(fieldError(text, 'position')).toBe(textsOf('it')('validation.position'))
    expect(await submissionCount()).toBe(count)
    expect(await cvKeys()).toEqual(keys)
  })

  it('deletes the stored CV when the API refuses the application (a position closed since the page was shown)', async () => {
    await visit(PATH) // the positions are cached as the visitor saw them
    await env.DB.prepare('UPDATE jobs SET open = 0 WHERE id = 4').run()
    try {
      const [count, keys] = [await submissionCount(), await cvKeys()]
      const { status, text } = await apply(PATH, { ...GIULIA, position: '4' }, pdf())
      expect(status).toBe(422)
      expect(fieldError(text, 'position')).toBe(textsOf('it')('validation.position'))
      expect(await submissionCount()).toBe(count)
      expect(await cvKeys()).toEqual(keys)
    } finally {
      await env.DB.prepare('UPDATE jobs SET open = 1 WHERE id = 4').run()
    }
  })

  it('deletes the stored CV when the API fails, and shows the form again with what was typed', async () => {
    const upstream = httpUpstream()
    upstream.fail('forms/job', 500)
    const keys = await cvKeys()
    const { status, text } = await apply(PATH, GIULIA, pdf(), { UPSTREAM_URL })
    expect(status).toBe(503)
    expect(textOf(text)).toContain(textsOf('it')('forms.unavailable'))
    expect(text).toContain('value="giulia.rossi@example.com"')
    expect(await cvKeys()).toEqual(keys)
  })

  it('keeps the CV when the API gave no answer (it may have stored the application), and logs only that', async () => {
    const upstream = httpUpstream()
    upstream.fail('forms/job', 'slow')
    const keys = await cvKeys()
    let status = 0
    const lines = await logLinesOf(async () => {
      status = (await apply(PATH, GIULIA, pdf(), { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '200' })).status
    })
    expect(status).toBe(503)
    expect(await cvKeys()).toHaveLength(keys.length + 1)
    expect(lines.filter((line) => line.includes('"event":"cv_kept_outcome_unknown"'))).toHaveLength(1)
  })

  it('answers 503 with the form kept, and stores nothing, when the bucket cannot keep the CV', async () => {
    const count = await submissionCount()
    const bucket = { put: async () => Promise.reject(new Error('R2 unavailable')) } as unknown as R2Bucket
    const lines: string[] = []
    const { status, text } = await (async () => {
      for (const level of ['log', 'warn', 'error'] as const)
        vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
      return apply(PATH, GIULIA, pdf(), { FILES: bucket })
    })()
    expect(status).toBe(503)
    expect(textOf(text)).toContain(textsOf('it')('forms.unavailable'))
    expect(text).toContain('value="giulia.rossi@example.com"')
    expect(await submissionCount()).toBe(count)
    expect(lines.some((line) => line.includes('"event":"cv_not_stored"'))).toBe(true)
  })

  it("still answers the API's refusal when the CV cannot be deleted (the retention will)", async () => {
    const bucket = new Proxy(env.FILES, {
      get(target, name) {
        if (name === 'delete') return async () => Promise.reject(new Error('R2 unavailable'))
        const value = Reflect.get(target, name)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    await visit(PATH)
    await env.DB.prepare('UPDATE jobs SET open = 0 WHERE id = 4').run()
    try {
      vi.spyOn(console, 'error').mockImplementation(() => {})
      const { status, text } = await apply(PATH, { ...GIULIA, position: '4' }, pdf(), { FILES: bucket })
      expect(status).toBe(422)
      expect(fieldError(text, 'position')).toBe(textsOf('it')('validation.position'))
    } finally {
      await env.DB.prepare('UPDATE jobs SET open = 1 WHERE id = 4').run()
    }
  })

  it("sends the API the CV's key, type, size and name, never its bytes", async () => {
    const upstream = httpUpstream()
    const { status } = await apply(PATH, GIULIA, pdf(MB), { UPSTREAM_URL })
    expect(status).toBe(303)
    const call = upstream.requests.find((request) => new URL(request.url).pathname === '/api/forms/job')!
    const body = await call.text()
    expect(body.length).toBeLessThan(2000)
    expect(JSON.parse(body).cv).toEqual({
      key: expect.stringMatching(CV_KEY_FORMAT),
      type: 'pdf',
      size: MB,
      name: 'Giulia Rossi CV.pdf',
    })
    expect(body).not.toContain('private-cv-marker')
  })

  it('stores nothing, not even the file, for a bot that filled the honeypot', async () => {
    const [count, keys] = [await submissionCount(), await cvKeys()]
    const { status } = await apply(PATH, { ...GIULIA, homepage: 'https://spam.example' }, pdf())
    expect(status).toBe(303)
    expect(await submissionCount()).toBe(count)
    expect(await cvKeys()).toEqual(keys)
  })
})

describe('privacy', () => {
  it('writes nothing of the application, the file or the e-mail address into the log lines', async () => {
    const lines = await logLinesOf(async () => {
      await apply(PATH, GIULIA, pdf())
      await apply(PATH, GIULIA, { bytes: executable(), name: 'Giulia Rossi CV.pdf', type: 'application/pdf' })
      await apply(PATH, { ...GIULIA, email: 'giulia.rossi-at-example.com' }, pdf())
    })
    const all = lines.join('\n')
    for (const secret of [
      'Giulia',
      'giulia.rossi',
      'example.com',
      '555 0199',
      'Riparo',
      'CV.pdf',
      'private-cv-marker',
      'cv/',
    ]) {
      expect(all, secret).not.toContain(secret)
    }
  })

  it('serves a stored CV at no address', async () => {
    const { headers } = await apply(PATH, GIULIA, pdf())
    const key = (await storedSubmission(referenceOf(headers.get('Location'))!))!.file_key!
    const id = key.slice('cv/'.length)
    for (const path of [
      `/${key}`,
      `/files/${key}`,
      `/files/${id}`,
      `/it-it/${key}`,
      `/it-it/files/${key}`,
      `/api/${key}`,
      `/api/files/${key}`,
      `/r2/${key}`,
    ]) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(404)
      expect(text, path).not.toContain('private-cv-marker')
    }
  })

  it('keeps the form off a market that switched it off: 404 on GET and POST, and no link to it', async () => {
    expect((await visit('/pt-pt/trabalhe-connosco')).status).toBe(404)
    const [count, keys] = [await submissionCount(), await cvKeys()]
    expect((await apply('/pt-pt/trabalhe-connosco', GIULIA, pdf())).status).toBe(404)
    expect(await submissionCount()).toBe(count)
    expect(await cvKeys()).toEqual(keys)
    expect((await visit('/pt-pt')).text).not.toContain('trabalhe-connosco')
    expect((await visit('/it-it')).text).toContain('href="/it-it/lavora-con-noi"')
  })
})

describe('the retention', () => {
  const DAY = 24 * 60 * 60 * 1000

  /** Runs the Worker's Cron Trigger as Cloudflare would at `time`, with these bindings changed. */
  async function runCron(time: number, bindings: Partial<Cloudflare.Env> = {}) {
    const ctx = createExecutionContext()
    worker.scheduled(
      createScheduledController({ scheduledTime: new Date(time), cron: '17 3 * * *' }),
      { ...env, ...bindings },
      ctx,
    )
    await waitOnExecutionContext(ctx)
  }

  /** A stored submission with its two mails, created at `time`. */
  async function submissionAt(time: number, reference: string) {
    const createdAt = new Date(time).toISOString()
    await env.DB.prepare(
      `INSERT INTO form_submissions (reference, submission_key, kind, site, locale, email, fields, created_at)
       VALUES (?1, ?2, 'contact', 'it', 'it', 'old@example.com', '{}', ?3)`,
    )
      .bind(reference, `key-${reference}-0000000000000000`, createdAt)
      .run()
    for (const kind of ['contact_notice', 'contact_acknowledgement']) {
      await env.DB.prepare(
        `INSERT INTO outbox (recipient, subject, body, kind, submission_id, created_at) SELECT 'x@example.com', 's', 'b', ?1, id, ?2 FROM form_submissions WHERE reference = ?3`,
      )
        .bind(kind, createdAt, reference)
        .run()
    }
  }
  const mailCount = async (reference: string) => (await mailsOf(reference)).length

  it('deletes the submissions older than the retention period with their mails, and logs counts only', async () => {
    const now = Date.now()
    await submissionAt(now - 366 * DAY, 'CT-OLD0-0001')
    await submissionAt(now - 364 * DAY, 'CT-NEW0-0001')
    const [count, keys] = [await submissionCount(), await cvKeys()]
    const lines = await logLinesOf(() => runCron(now))
    expect(await storedSubmission('CT-OLD0-0001')).toBeNull()
    expect(await mailCount('CT-OLD0-0001')).toBe(0)
    expect(
      await env.DB.prepare(
        'SELECT COUNT(*) AS n FROM outbox WHERE submission_id IS NOT NULL AND submission_id NOT IN (SELECT id FROM form_submissions)',
      ).first('n'),
    ).toBe(0)
    expect(await storedSubmission('CT-NEW0-0001')).not.toBeNull()
    expect(await mailCount('CT-NEW0-0001')).toBe(2)
    expect(await submissionCount()).toBe(count - 1)
    // Every CV so far was uploaded today.
    expect(await cvKeys()).toEqual(keys)
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { level: 'info', event: 'retention', days: 365, submissions: 1, reporterMails: 0, files: 0 },
    ])
  })

  it('deletes a whistleblower\'s "there is news" mail once sent, or unsent after 30 days, and no other mail', async () => {
    const now = Date.now()
    const mail = (recipient: string, kind: string, days: number, sent: boolean) =>
      env.DB.prepare(
        'INSERT INTO outbox (recipient, subject, body, kind, created_at, sent_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
        .bind(
          recipient,
          's',
          'b',
          kind,
          new Date(now - days * DAY).toISOString(),
          sent ? new Date(now - days * DAY).toISOString() : null,
        )
        .run()
    await mail('sent@example.com', 'whistleblower_news', 1, true)
    await mail('stale@example.com', 'whistleblower_news', 31, false)
    await mail('waiting@example.com', 'whistleblower_news', 29, false)
    await mail('customer@example.com', 'password_reset', 31, true)
    const lines = await logLinesOf(() => runCron(now))
    const left = await env.DB.prepare(
      "SELECT recipient FROM outbox WHERE recipient LIKE '%@example.com' AND kind IN ('whistleblower_news', 'password_reset') ORDER BY recipient",
    ).all<{ recipient: string }>()
    expect(left.results.map((row) => row.recipient)).toEqual(['customer@example.com', 'waiting@example.com'])
    expect(JSON.parse(lines[0] as string)).toMatchObject({ event: 'retention', reporterMails: 2 })
  })

  it("follows the deployment's SUBMISSION_RETENTION_DAYS", async () => {
    const now = Date.now()
    await submissionAt(now - 31 * DAY, 'CT-OLD0-0030')
    await submissionAt(now - 29 * DAY, 'CT-NEW0-0030')
    await runCron(now, { SUBMISSION_RETENTION_DAYS: '30' })
    expect(await storedSubmission('CT-OLD0-0030')).toBeNull()
    expect(await storedSubmission('CT-NEW0-0030')).not.toBeNull()
  })

  it('never reads a retention period that is no whole number of days from 1 to 3650 (a year instead)', () => {
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)))
    for (const days of ['0', '-5', '1.5', 'forever', '99999'])
      expect(configOf({ ...env, SUBMISSION_RETENTION_DAYS: days }).retentionDays, days).toBe(365)
    expect(configOf({ ...env, SUBMISSION_RETENTION_DAYS: '90' }).retentionDays).toBe(90)
    expect(lines.map((line) => JSON.parse(line))).toEqual(
      Array(5).fill({ level: 'error', event: 'config_invalid', variable: 'SUBMISSION_RETENTION_DAYS' }),
    )
  })

  it("deletes the CVs uploaded before the cut-off whatever the upstream, and leaves a brand backend's submissions alone", async () => {
    const old = (await env.FILES.put(`cv/${crypto.randomUUID()}`, pdfOf('old')))!
    await new Promise((resolve) => setTimeout(resolve, 20))
    const recent = (await env.FILES.put(`cv/${crypto.randomUUID()}`, pdfOf('recent')))!
    await env.FILES.put('other/keep-me', 'not a CV')
    const cutOff = (old.uploaded.getTime() + recent.uploaded.getTime()) / 2
    const listed = (await env.FILES.list({ prefix: 'cv/' })).objects
    const expired = listed.filter((object) => object.uploaded.getTime() < cutOff).map((object) => object.key)
    const count = await submissionCount()
    const lines = await logLinesOf(() => runCron(cutOff + 365 * DAY, { UPSTREAM_URL }))
    expect(await cvKeys()).toEqual(
      listed
        .map((object) => object.key)
        .filter((key) => !expired.includes(key))
        .sort(),
    )
    expect(expired).toContain(old.key)
    expect(await cvKeys()).toContain(recent.key)
    expect(await env.FILES.head('other/keep-me')).not.toBeNull()
    expect(await submissionCount()).toBe(count)
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { level: 'info', event: 'retention', days: 365, submissions: null, reporterMails: null, files: expired.length },
    ])
  })

  it("pages through the bucket's listing", async () => {
    for (let n = 0; n < 5; n++) await env.FILES.put(`cv/${crypto.randomUUID()}`, pdfOf(`cv ${n}`))
    const cursors: Array<string | undefined> = []
    const bucket = new Proxy(env.FILES, {
      get(target, name) {
        if (name === 'list')
          return (options: R2ListOptions) => {
            cursors.push(options.cursor)
            return target.list({ ...options, limit: 2 })
          }
        const value = Reflect.get(target, name)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    await runCron(Date.now() + 400 * DAY, { UPSTREAM_URL, FILES: bucket })
    expect(await cvKeys()).toEqual([])
    expect(cursors.length).toBeGreaterThanOrEqual(3)
    expect(cursors[0]).toBeUndefined()
    expect(cursors.slice(1).every(Boolean)).toBe(true)
  })

  it('still deletes the old submissions when the bucket fails, and fails the run so that it is seen', async () => {
    await submissionAt(Date.now() - 400 * DAY, 'CT-OLD0-0404')
    const bucket = { list: async () => Promise.reject(new Error('R2 unavailable')) } as unknown as R2Bucket
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)))
    const ctx = createExecutionContext()
    const failed = vi.fn()
    worker.scheduled(
      createScheduledController({ scheduledTime: new Date(), cron: '17 3 * * *' }),
      { ...env, FILES: bucket },
      {
        ...ctx,
        waitUntil: (promise: Promise<unknown>) => ctx.waitUntil(promise.catch(failed)),
      } as ExecutionContext,
    )
    await waitOnExecutionContext(ctx)
    expect(failed).toHaveBeenCalledOnce()
    expect(await storedSubmission('CT-OLD0-0404')).toBeNull()
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        level: 'error',
        event: 'retention',
        days: 365,
        submissions: 1,
        reporterMails: 0,
        files: 0,
        error: 'Error: R2 unavailable',
      },
    ])
  })
})

describe('a job application sent twice', () => {
  it("stores one application and keeps one CV (the first one's)", async () => {
    const token = await formToken('it-it', 'job')
    const before = await cvKeys()
    const first = await apply(PATH, { ...GIULIA, form_token: token }, pdf())
    const second = await apply(PATH, { ...GIULIA, form_token: token }, pdf())
    expect([first.status, second.status]).toEqual([303, 303])
    const reference = referenceOf(first.headers.get('Location'))!
    expect(referenceOf(second.headers.get('Location'))).toBe(reference)
    const added = (await cvKeys()).filter((key) => !before.includes(key))
    expect(added).toEqual([(await storedSubmission(reference))!.file_key])
  })
})
