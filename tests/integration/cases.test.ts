import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { openText } from '../../src/whistleblower/sealed'
import { contentDisposition } from '../../src/console/cases/attachment-download'
import { consoleLogin, demoStaff } from '../fixtures/console'
import { mailsTo, reporterReply, sealedReport, trailOf } from '../fixtures/cases'
import { formPost, nextClient } from '../fixtures/session'
import { textOf, visit } from '../fixtures/worker'

let handler: string
let editor: string

beforeAll(async () => {
  handler = await consoleLogin('case_handler')
  editor = await consoleLogin('editor')
})

const HANDLER_ID = () => demoStaff('case_handler').id
const as = (cookie: string, path: string, init: RequestInit = {}) =>
  visit(path, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), Cookie: cookie } })
const post = (
  cookie: string,
  path: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) => visit(path, formPost(fields, { Cookie: cookie, ...headers }))

describe("the console's cases: who may see them", () => {
  it('sends a visitor without a console session to sign in, from every case page', async () => {
    const report = await sealedReport()
    for (const path of [
      '/_console/cases',
      `/_console/cases/${report.id}`,
      `/_console/cases/${report.id}/attachments/1`,
    ]) {
      const { status, headers } = await visit(path)
      expect(status, path).toBe(303)
      expect(headers.get('Location')).toBe(`/_console/login?next=${encodeURIComponent(path)}`)
    }
    expect(await trailOf(report.id)).toEqual([])
  })

  it('answers 403 to an editor on every case page and action, and records nothing', async () => {
    const report = await sealedReport({
      attachments: [{ name: 'x.pdf', type: 'application/pdf', bytes: new Uint8Array([1]) }],
    })
    for (const path of [
      '/_console/cases',
      `/_console/cases/${report.id}`,
      `/_console/cases/${report.id}/attachments/${report.attachments[0]?.id}`,
    ]) {
      const page = await as(editor, path)
      expect(page.status, path).toBe(403)
      expect(page.text).toContain('not for your role')
      expect(page.text).not.toContain(report.receipt_code)
    }
    for (const action of ['acknowledge', 'messages', 'notes', 'close']) {
      expect((await post(editor, `/_console/cases/${report.id}/${action}`, { text: 'Hi' })).status, action).toBe(403)
    }
    expect(await trailOf(report.id)).toEqual([])
  })

  it('shows the cases section in the nav of case handlers only', async () => {
    const home = await as(handler, '/_console')
    expect(home.text).toContain('href="/_console/cases"')
    const editorHome = await as(editor, '/_console')
    expect(editorHome.text).not.toContain('href="/_console/cases"')
  })

  it('refuses cross-site posts on every case action, changing nothing', async () => {
    const report = await sealedReport()
    for (const action of ['acknowledge', 'messages', 'notes', 'close']) {
      const { status } = await post(
        handler,
        `/_console/cases/${report.id}/${action}`,
        { text: 'From elsewhere' },
        { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      )
      expect(status, action).toBe(403)
    }
    expect(await trailOf(report.id)).toEqual([])
    const stored = await env.DB.prepare('SELECT state FROM whistleblower_reports WHERE id = ?')
      .bind(report.id)
      .first<string>('state')
    expect(stored).toBe('received')
  })
})

describe('the list of cases', () => {
  it('lists cases with market, category, state, received and deadlines, overdue ones first and marked', async () => {
    const day = 24 * 3600 * 1000
    const fresh = await sealedReport({
      receivedAt: new Date(Date.now() - day).toISOString(),
      category: 'environment',
      site: 'ae',
      locale: 'ar',
    })
    const late = await sealedReport({
      receivedAt: new Date(Date.now() - 10 * day).toISOString(),
      category: 'fraud_corruption',
    })
    const page = await as(handler, '/_console/cases')
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toContain('no-store')
    expect(page.headers.get('X-Robots-Tag')).toContain('noindex')
    const text = textOf(page.text)
    expect(page.text.indexOf(late.receipt_code)).toBeLessThan(page.text.indexOf(fresh.receipt_code))
    const lateRow = page.text.slice(
      page.text.indexOf(late.receipt_code),
      page.text.indexOf('</tr>', page.text.indexOf(late.receipt_code)),
    )
    expect(lateRow).toContain('Overdue')
    expect(lateRow).toContain('Fraud or corruption')
    const freshRow = page.text.slice(
      page.text.indexOf(fresh.receipt_code),
      page.text.indexOf('</tr>', page.text.indexOf(fresh.receipt_code)),
    )
    expect(freshRow).not.toContain('Overdue')
    expect(freshRow).toContain('ae-ar')
    expect(freshRow).toContain('Environment')
    expect(freshRow).toContain('Received')
    expect(text).toMatch(/\d+ cases? (is|are) overdue/)
    // The list reads no case: nothing of what the reporters wrote, nothing recorded.
    expect(page.text).not.toContain(late.report.what)
    expect(await trailOf(late.id)).toEqual([])
  })

  it('lists the open cases a page at a time, soonest due first, and pages on with "Due later"', async () => {
    const day = 24 * 3600 * 1000
    const codes: string[] = []
    // 27 cases received a day apart, the oldest (the most overdue) first: more than a page.
    for (let i = 0; i < 27; i++)
      codes.push((await sealedReport({ receivedAt: new Date(Date.now() - (60 - i) * day).toISOString() })).receipt_code)
    const openTable = (html: string) => html.slice(0, html.indexOf('Closed cases, newest first'))
    const first = await as(handler, '/_console/cases')
    expect(first.status).toBe(200)
    expect(openTable(first.text)).toContain(codes[0])
    expect(openTable(first.text)).not.toContain(codes[26])
    expect(textOf(first.text)).toMatch(/At least \d+ cases are overdue/)
    const later = /<a href="(\/_console\/cases\?open=[A-Za-z0-9_-]+)" rel="next">Due later<\/a>/.exec(first.text)
    expect(later).not.toBeNull()
    const next = await as(handler, later?.[1] ?? '')
    expect(next.status).toBe(200)
    expect(openTable(next.text)).toContain(codes[26])
    expect(openTable(next.text)).not.toContain(codes[0])
    expect(next.text).toContain('<a href="/_console/cases">Soonest due</a>')
  })

  it('lists the closed cases below the open ones, newest first, a page at a time by keyset', async () => {
    const open = await sealedReport({ receivedAt: '2026-01-20T09:00:00.000Z' })
    const closed: string[] = []
    for (let i = 0; i < 27; i++) {
      // Pairs received at the same moment: the page's boundary falls inside one.
      const report = await sealedReport({
        receivedAt: `2025-01-${String(1 + Math.floor(i / 2)).padStart(2, '0')}T09:00:00.000Z`,
      })
      await env.DB.prepare(
        "UPDATE whistleblower_reports SET state = 'closed', acknowledged_at = received_at, feedback_at = received_at, closed_at = received_at WHERE id = ?",
      )
        .bind(report.id)
        .run()
      closed.unshift(report.receipt_code)
    }
    const first = await as(handler, '/_console/cases')
    const closedTable = (html: string) => html.slice(html.indexOf('Closed cases, newest first'))
    expect(first.text.indexOf(open.receipt_code)).toBeLessThan(first.text.indexOf('Closed cases, newest first'))
    expect(closedTable(first.text)).not.toContain(open.receipt_code)
    expect(closedTable(first.text).split('<tr').length - 2).toBe(25)
    const walked: string[] = []
    let page = first
    for (let pages = 0; pages < 10; pages++) {
      walked.push(...closed.filter((code) => closedTable(page.text).includes(code)))
      const older = /<a href="(\/_console\/cases\?after=[A-Za-z0-9_-]+)" rel="next">Older<\/a>/.exec(page.text)
      if (!older) break
      page = await as(handler, older[1] ?? '')
      expect(page.status).toBe(200)
      expect(page.text).toContain('<a href="/_console/cases">Newest</a>')
    }
    expect(walked).toEqual(closed)
    expect((await as(handler, '/_console/cases?after=bm90LWEtY3Vyc29y')).status).toBe(400)
  })
})

describe('one case', () => {
  it('shows the report opened, its attachments as download links, and records the reading in the trail it shows', async () => {
    const report = await sealedReport({
      anonymous: false,
      name: 'Marta Bianchi',
      contact: '+39 035 555 0199',
      involved: 'The quality manager',
      notify: 'marta@example.com',
      attachments: [{ name: 'test-report.pdf', type: 'application/pdf', bytes: new Uint8Array([37, 80, 68, 70]) }],
    })
    const page = await as(handler, `/_console/cases/${report.id}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toContain('no-store')
    const text = textOf(page.text)
    expect(text).toContain(report.report.what)
    expect(text).toContain('Bergamo workshop, October 2026')
    expect(text).toContain('The quality manager')
    expect(text).toContain('Marta Bianchi')
    expect(text).toContain('+39 035 555 0199')
    // The address is only for "there is news" mails: the page says one was left, not which.
    expect(page.text).not.toContain('marta@example.com')
    expect(page.text).toContain(`href="/_console/cases/${report.id}/attachments/${report.attachments[0]?.id}"`)
    expect(page.text).toContain('test-report.pdf')
    expect(page.text).not.toMatch(/<(img|iframe|object|embed)\b/)
    expect(await trailOf(report.id)).toEqual([{ action: 'opened', staff_id: HANDLER_ID(), detail: '' }])
    const trail = page.text.slice(page.text.indexOf('id="trail"'))
    expect(textOf(trail)).toContain('Chiara Conti')
    expect(textOf(trail)).toContain('Opened the case')
  })

  it("shows the reporter's own times by day only (received, their messages, their trail entries), handlers' to the minute", async () => {
    const day = 24 * 3600 * 1000
    const at = (daysAgo: number, hours: number, minutes: number) => {
      const time = new Date(Date.now() - daysAgo * day)
      time.setUTCHours(hours, minutes, 12, 345)
      return time.toISOString()
    }
    const receivedAt = at(3, 14, 37)
    const report = await sealedReport({ receivedAt })
    const reply = await reporterReply(report.id, report.key, 'Here is more.')
    await env.DB.prepare('UPDATE whistleblower_messages SET created_at = ? WHERE id = ?')
      .bind(at(2, 9, 41), reply)
      .run()
    await env.DB.batch([
      env.DB.prepare(`INSERT INTO case_events (report_id, action, at) VALUES (?, 'received', ?)`).bind(
        report.id,
        receivedAt,
      ),
      env.DB.prepare(`INSERT INTO case_events (report_id, action, at) VALUES (?, 'reporter_opened', ?)`).bind(
        report.id,
        at(2, 9, 40),
      ),
      env.DB.prepare(
        `INSERT INTO case_events (report_id, action, detail, at) VALUES (?, 'reporter_replied', ?, ?)`,
      ).bind(report.id, `message:${reply}`, at(2, 9, 41)),
    ])
    const [received, replied] = [receivedAt.slice(0, 10), at(2, 9, 41).slice(0, 10)]
    const acknowledgementDue = new Date(Date.parse(receivedAt) + 7 * day).toISOString().slice(0, 10)
    const today = new Date().toISOString().slice(0, 10)
    const page = await as(handler, `/_console/cases/${report.id}`)
    expect(page.status).toBe(200)
    // No time of the day on any day of the reporter's, neither shown nor in a `datetime` attribute.
    for (const reporterDay of [received, replied, acknowledgementDue])
      expect(page.text, reporterDay).not.toMatch(new RegExp(`${reporterDay}[ T][0-9]{2}:[0-9]{2}`))
    const text = textOf(page.text)
    expect(text).toMatch(new RegExp(`Received\\s+${received}\\s`))
    expect(text).toMatch(new RegExp(`Due\\s+${acknowledgementDue}\\s`))
    expect(textOf(page.text.slice(page.text.indexOf('id="conversation"'), page.text.indexOf('id="notes"')))).toMatch(
      new RegExp(`Reporter\\s+·\\s+${replied}\\s`),
    )
    const rows = page.text.slice(page.text.indexOf('id="trail"')).split('</tr>').map(textOf)
    const rowOf = (what: string) => rows.find((row) => row.includes(what)) ?? ''
    expect(rowOf('Sent the report')).toMatch(new RegExp(`^\\s*${received}\\s+Reporter`))
    expect(rowOf('Opened the status page')).toMatch(new RegExp(`^\\s*${replied}\\s+Reporter`))
    expect(rowOf(`Answered (message ${reply})`)).toMatch(new RegExp(`^\\s*${replied}\\s+Reporter`))
    expect(rowOf('Opened the case')).toMatch(new RegExp(`^\\s*${today} [0-9]{2}:[0-9]{2} UTC\\s+Chiara Conti`))
    // The open cases come 25 a page, soonest due first: the page with this one, after the overdue ones of other tests.
    let list = await as(handler, '/_console/cases')
    for (let pages = 1; !list.text.includes(report.receipt_code) && pages < 10; pages++) {
      const later = /href="(\/_console\/cases\?open=[^"]+)" rel="next"/.exec(list.text)?.[1]
      if (!later) break
      list = await as(handler, later.replaceAll('&amp;', '&'))
    }
    expect(list.text).toContain(report.receipt_code)
    for (const reporterDay of [received, acknowledgementDue])
      expect(list.text, reporterDay).not.toMatch(new RegExp(`${reporterDay}[ T][0-9]{2}:[0-9]{2}`))
  })

  it('shows an anonymous report as anonymous', async () => {
    const report = await sealedReport({ anonymous: true })
    const text = textOf((await as(handler, `/_console/cases/${report.id}`)).text)
    expect(text).toMatch(/Reporter\s+Anonymous/)
    expect(text).toContain('No address left')
  })

  it('answers 404 for a case that does not exist or a malformed id', async () => {
    for (const path of [
      '/_console/cases/999999',
      '/_console/cases/abc',
      '/_console/cases/0',
      '/_console/cases/1/attachments/x',
    ]) {
      expect((await as(handler, path)).status, path).toBe(404)
    }
  })

  it('answers 503, never a 500, for a case sealed under another secret', async () => {
    const report = await sealedReport()
    expect((await as(handler, `/_console/cases/${report.id}`)).status).toBe(200)
    const other = await visit(`/_console/cases/${report.id}`, { headers: { Cookie: handler } }, {
      WHISTLEBLOWER_KEY: 'another-secret',
    } as Partial<Cloudflare.Env>)
    expect(other.status).toBe(503)
    expect(other.text).not.toContain(report.report.what)
  })
})

describe('an attachment', () => {
  it('downloads as an attachment with its name and its original bytes, never inline or kept, and is recorded', async () => {
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x00, 0xff])
    const report = await sealedReport({ attachments: [{ name: 'Prüfbericht "März".pdf', type: 'text/html', bytes }] })
    const attachment = report.attachments[0] as { id: number; objectKey: string }
    const stored = new Uint8Array(await ((await env.FILES.get(attachment.objectKey)) as R2ObjectBody).arrayBuffer())
    expect(stored).not.toEqual(bytes)
    const { status, headers } = await visit(`/_console/cases/${report.id}/attachments/${attachment.id}`, {
      headers: { Cookie: handler },
    })
    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toBe('application/octet-stream')
    expect(headers.get('Content-Disposition')).toBe(
      `attachment; filename="Pr_fbericht _M_rz_.pdf"; filename*=UTF-8''Pr%C3%BCfbericht%20%22M%C3%A4rz%22.pdf`,
    )
    expect(headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(headers.get('Cache-Control')).toContain('no-store')
    const body = await fetchBytes(`/_console/cases/${report.id}/attachments/${attachment.id}`)
    expect(body).toEqual(bytes)
    const trail = await trailOf(report.id)
    expect(trail.filter((each) => each.action === 'file_downloaded')).toEqual([
      { action: 'file_downloaded', staff_id: HANDLER_ID(), detail: String(attachment.id) },
      { action: 'file_downloaded', staff_id: HANDLER_ID(), detail: String(attachment.id) },
    ])
  })

  it('answers 404 for an attachment of another case', async () => {
    const report = await sealedReport({
      attachments: [{ name: 'a.txt', type: 'text/plain', bytes: new Uint8Array([65]) }],
    })
    const other = await sealedReport()
    expect((await as(handler, `/_console/cases/${other.id}/attachments/${report.attachments[0]?.id}`)).status).toBe(404)
    expect(await trailOf(other.id)).toEqual([])
  })

  it('reads nothing but a whistleblower attachment from the bucket, whatever key the API answers', async () => {
    await env.FILES.put('cv/00000000-0000-4000-8000-000000000000', 'a CV')
    const report = await sealedReport({
      attachments: [{ name: 'a.txt', type: 'text/plain', bytes: new Uint8Array([65]) }],
    })
    const attachment = report.attachments[0] as { id: number }
    await env.DB.prepare('UPDATE whistleblower_files SET object_key = ? WHERE id = ?')
      .bind('cv/00000000-0000-4000-8000-000000000000', attachment.id)
      .run()
    const { status, text } = await as(handler, `/_console/cases/${report.id}/attachments/${attachment.id}`)
    expect(status).toBe(404)
    expect(text).not.toContain('a CV')
  })

  it("answers 404 when the attachment's bytes are gone from the bucket", async () => {
    const report = await sealedReport({
      attachments: [{ name: 'a.txt', type: 'text/plain', bytes: new Uint8Array([65]) }],
    })
    await env.FILES.delete((report.attachments[0] as { objectKey: string }).objectKey)
    expect((await as(handler, `/_console/cases/${report.id}/attachments/${report.attachments[0]?.id}`)).status).toBe(
      404,
    )
  })

  it('downloads an attachment whatever its sealed name: 119 emoji after a letter, a lone surrogate', async () => {
    const emoji = `a${'😀'.repeat(119)}.jpg`
    const report = await sealedReport({
      attachments: [
        { name: emoji, type: 'image/jpeg', bytes: new Uint8Array([1]) },
        { name: 'scan\ud800.pdf', type: 'application/pdf', bytes: new Uint8Array([2]) },
      ],
    })
    const [first, second] = report.attachments as Array<{ id: number }>
    const long = await as(handler, `/_console/cases/${report.id}/attachments/${first?.id}`)
    expect(long.status).toBe(200)
    expect(long.headers.get('Content-Disposition')).toBe(
      `attachment; filename="a${'_'.repeat(238)}.jpg"; filename*=UTF-8''${encodeURIComponent(emoji)}`,
    )
    const lone = await as(handler, `/_console/cases/${report.id}/attachments/${second?.id}`)
    expect(lone.status).toBe(200)
    expect(lone.headers.get('Content-Disposition')).toBe(`attachment; filename="scan_.pdf"; filename*=UTF-8''scan_.pdf`)
    expect((await as(handler, `/_console/cases/${report.id}`)).status).toBe(200)
  })

  it('cuts a long name at 200 characters, never inside one, and makes a header of any name', () => {
    const cut = contentDisposition('😀'.repeat(250))
    expect(cut).toBe(
      `attachment; filename="${'_'.repeat(400)}"; filename*=UTF-8''${encodeURIComponent('😀'.repeat(200))}`,
    )
    expect(contentDisposition(`x${'😀'.repeat(250)}`)).toContain(
      `filename*=UTF-8''x${encodeURIComponent('😀'.repeat(199))}`,
    )
    for (const name of [
      '\udc00',
      '\ud83d',
      `${'\ud83d'.repeat(300)}`,
      'a"b;c%d\'e(f)*',
      'line\r\nbreak\u0000\u001b\u0085',
      '\u2028\u202e.exe',
      'x'.repeat(100_000),
    ]) {
      const header = contentDisposition(name)
      expect(() => new Headers({ 'Content-Disposition': header }), JSON.stringify(name)).not.toThrow()
      expect(header, JSON.stringify(name)).toMatch(
        /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]+$/,
      )
      expect(header.split('"')).toHaveLength(3)
    }
  })

  it('names a download safely whatever the reporter called it', () => {
    expect(contentDisposition('../../etc/passwd')).toBe(
      `attachment; filename=".._.._etc_passwd"; filename*=UTF-8''.._.._etc_passwd`,
    )
    expect(contentDisposition('a\r\nSet-Cookie: x=1')).not.toMatch(/[\r\n]/)
    expect(contentDisposition('')).toContain('filename="attachment"')
    expect(contentDisposition('صورة.jpg')).toBe(
      `attachment; filename="____.jpg"; filename*=UTF-8''%D8%B5%D9%88%D8%B1%D8%A9.jpg`,
    )
  })
})

/** The bytes of a console answer (visit reads bodies as text). */
async function fetchBytes(path: string): Promise<Uint8Array> {
  const { app } = await import('../../src/app')
  const { createExecutionContext, waitOnExecutionContext } = await import('cloudflare:test')
  const ctx = createExecutionContext()
  const response = await app.request(`https://site.test${path}`, { headers: { Cookie: handler } }, env, ctx)
  const bytes = new Uint8Array(await response.arrayBuffer())
  await waitOnExecutionContext(ctx)
  return bytes
}

describe('changes to a case', () => {
  it('acknowledges a case: the state changes, the trail shows it, one "news" mail goes to the address left', async () => {
    const report = await sealedReport({ notify: 'ack-page@example.com', what: 'CANARY-5521 the frames crack' })
    const { status, headers } = await post(handler, `/_console/cases/${report.id}/acknowledge`)
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe(`/_console/cases/${report.id}?done=acknowledged`)
    const page = await as(handler, headers.get('Location') as string)
    expect(textOf(page.text)).toContain('The case is acknowledged')
    expect(page.text).not.toContain('Acknowledge receipt')
    const mails = await mailsTo('ack-page@example.com')
    expect(mails).toHaveLength(1)
    expect(mails[0]?.body).toContain('https://site.test/it-it/whistleblower-form/status')
    expect(mails[0]?.body).not.toContain('CANARY-5521')
    expect((await trailOf(report.id)).map((each) => [each.action, each.detail])).toEqual([
      ['opened', 'acknowledge'],
      ['acknowledged', ''],
      ['opened', ''],
    ])
    const trail = textOf(page.text.slice(page.text.indexOf('id="trail"')))
    expect(trail).toContain('Opened the case to acknowledge it')
    expect(trail).toContain('Acknowledged the case')
  })

  it('acknowledges without any mail when no address was left, and says so when already done', async () => {
    const report = await sealedReport()
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')
    expect((await post(handler, `/_console/cases/${report.id}/acknowledge`)).status).toBe(303)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')).toBe(before)
    const again = await post(handler, `/_console/cases/${report.id}/acknowledge`)
    expect(again.headers.get('Location')).toBe(`/_console/cases/${report.id}?refused=already_acknowledged`)
    expect(textOf((await as(handler, again.headers.get('Location') as string)).text)).toContain('already acknowledged')
  })

  it('changes nothing and answers 503 when a mail must link the status page but the site has no public origin', async () => {
    const report = await sealedReport({ notify: 'no-origin@example.com' })
    const { status } = await visit(`/_console/cases/${report.id}/acknowledge`, formPost({}, { Cookie: handler }), {
      PUBLIC_ORIGIN: '',
    } as Partial<Cloudflare.Env>)
    expect(status).toBe(503)
    expect(
      await env.DB.prepare('SELECT state FROM whistleblower_reports WHERE id = ?')
        .bind(report.id)
        .first<string>('state'),
    ).toBe('received')
    expect(await mailsTo('no-origin@example.com')).toEqual([])
  })

  it('writes to the reporter sealed, shows the conversation, and keeps notes apart', async () => {
    const report = await sealedReport({ notify: 'conv@example.com' })
    await reporterReply(report.id, report.key, 'I have photos of it.')
    const sent = await post(handler, `/_console/cases/${report.id}/messages`, {
      text: 'Could you send the batch number?',
    })
    expect(sent.status).toBe(303)
    expect(sent.headers.get('Location')).toBe(`/_console/cases/${report.id}?done=message_sent#conversation`)
    const noted = await post(handler, `/_console/cases/${report.id}/notes`, { text: 'Lab says batch 42 is suspect.' })
    expect(noted.headers.get('Location')).toBe(`/_console/cases/${report.id}?done=note_added#notes`)
    const rows = (
      await env.DB.prepare('SELECT author, sealed_body FROM whistleblower_messages WHERE report_id = ? ORDER BY id')
        .bind(report.id)
        .all<{ author: string; sealed_body: string }>()
    ).results
    expect(rows.map((row) => row.author)).toEqual(['reporter', 'handler', 'note'])
    expect(JSON.stringify(rows)).not.toContain('batch')
    expect(await openText(report.key, rows[1]?.sealed_body as string)).toBe('Could you send the batch number?')
    const page = await as(handler, `/_console/cases/${report.id}`)
    const conversation = textOf(
      page.text.slice(page.text.indexOf('id="conversation"'), page.text.indexOf('id="notes"')),
    )
    expect(conversation).toContain('I have photos of it.')
    expect(conversation).toContain('Could you send the batch number?')
    expect(conversation).not.toContain('Lab says')
    const notes = textOf(page.text.slice(page.text.indexOf('id="notes"'), page.text.indexOf('id="outcome"')))
    expect(notes).toContain('Lab says batch 42 is suspect.')
    expect(notes).toContain('Chiara Conti')
    expect(textOf(page.text)).toMatch(/State\s+In progress/)
    expect(await mailsTo('conv@example.com')).toHaveLength(1)
    expect((await trailOf(report.id)).map((each) => each.action)).toEqual([
      'opened',
      'acknowledged',
      'message_sent',
      'opened',
      'note_added',
      'opened',
    ])
  })

  it('answers 422 with the text kept when a message is empty or too long, sending nothing', async () => {
    const report = await sealedReport()
    const empty = await post(handler, `/_console/cases/${report.id}/messages`, { text: '   ' })
    expect(empty.status).toBe(422)
    expect(empty.text).toContain('Write something first.')
    expect(empty.text).toMatch(/aria-invalid="true"/)
    const long = 'x'.repeat(10_001)
    const tooLong = await post(handler, `/_console/cases/${report.id}/notes`, { text: long })
    expect(tooLong.status).toBe(422)
    expect(tooLong.text).toContain('at most 10,000 characters')
    expect(tooLong.text).toContain(long)
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM whistleblower_messages WHERE report_id = ?')
      .bind(report.id)
      .first<number>('n')
    expect(count).toBe(0)
  })

  it('takes a long message in any script (more than the default 16 KiB form)', async () => {
    const report = await sealedReport()
    const arabic = 'هل يمكنك إرسال رقم الدفعة؟ '.repeat(350).slice(0, 9_000)
    const sent = await post(handler, `/_console/cases/${report.id}/messages`, { text: arabic })
    expect(sent.status).toBe(303)
    const page = await as(handler, `/_console/cases/${report.id}`)
    expect(page.text).toContain('dir="auto"')
    expect(page.text).toContain(arabic.trim().slice(0, 100))
  })

  it('closes a case with its outcome: no more messages to the reporter, notes still taken', async () => {
    const report = await sealedReport({ notify: 'close-page@example.com' })
    const closed = await post(handler, `/_console/cases/${report.id}/close`, {
      text: 'The batch was recalled; thank you.',
    })
    expect(closed.headers.get('Location')).toBe(`/_console/cases/${report.id}?done=closed`)
    const page = await as(handler, `/_console/cases/${report.id}`)
    const text = textOf(page.text)
    expect(text).toContain('The batch was recalled; thank you.')
    expect(text).toMatch(/State\s+Closed/)
    expect(page.text).not.toContain(`action="/_console/cases/${report.id}/messages"`)
    expect(page.text).not.toContain(`action="/_console/cases/${report.id}/close"`)
    const late = await post(handler, `/_console/cases/${report.id}/messages`, { text: 'One more thing' })
    expect(late.headers.get('Location')).toBe(`/_console/cases/${report.id}?refused=case_closed`)
    expect((await post(handler, `/_console/cases/${report.id}/notes`, { text: 'Archived the photos.' })).status).toBe(
      303,
    )
    expect(await mailsTo('close-page@example.com')).toHaveLength(1)
    expect((await trailOf(report.id)).map((each) => each.action)).toEqual([
      'opened',
      'acknowledged',
      'closed',
      'opened',
      'opened',
      'opened',
      'note_added',
    ])
  })

  it('shows every kind of recorded action on the case, with who did it', async () => {
    const report = await sealedReport({
      attachments: [{ name: 'photo.jpg', type: 'image/jpeg', bytes: new Uint8Array([1, 2]) }],
    })
    await as(handler, `/_console/cases/${report.id}`)
    await visit(`/_console/cases/${report.id}/attachments/${report.attachments[0]?.id}`, {
      headers: { Cookie: handler },
    })
    await post(handler, `/_console/cases/${report.id}/acknowledge`)
    await post(handler, `/_console/cases/${report.id}/messages`, { text: 'Hello' })
    await post(handler, `/_console/cases/${report.id}/notes`, { text: 'Note' })
    await post(handler, `/_console/cases/${report.id}/close`, { text: 'Done' })
    const page = await as(handler, `/_console/cases/${report.id}`)
    const trail = textOf(page.text.slice(page.text.indexOf('id="trail"')))
    for (const line of [
      'Opened the case',
      // The file's name is what the reporter wrote: isolated.
      `Downloaded attachment ${report.attachments[0]?.id} ( photo.jpg )`,
      'Acknowledged the case',
      'Wrote to the reporter (message',
      'Added an internal note (note',
      'Closed the case with an outcome',
    ]) {
      expect(trail, line).toContain(line)
    }
    expect(page.text).toContain('(<bdi>photo.jpg</bdi>)')
    const actions = new Set((await trailOf(report.id)).map((each) => each.action))
    expect([...actions].sort()).toEqual([
      'acknowledged',
      'closed',
      'file_downloaded',
      'message_sent',
      'note_added',
      'opened',
    ])
  })
})

describe("what the reporter sees of the handler's work", () => {
  it("shows the acknowledgement and the handler's message on the status page, never a note or a handler's name", async () => {
    const report = await sealedReport({ realPassphrase: true })
    await post(handler, `/_console/cases/${report.id}/notes`, { text: 'NOTE-CANARY the manager knew' })
    await post(handler, `/_console/cases/${report.id}/messages`, { text: 'Thank you. Which batch was it?' })
    const status = await visit(
      '/it-it/whistleblower-form/status',
      formPost({ code: report.receipt_code, passphrase: report.passphrase }, { 'CF-Connecting-IP': nextClient() }),
    )
    expect(status.status).toBe(200)
    const text = textOf(status.text)
    expect(text).toContain('Thank you. Which batch was it?')
    expect(status.text).not.toContain('NOTE-CANARY')
    expect(status.text).not.toContain('Chiara Conti')
    expect(status.text).not.toContain('Hanna')
  })
})

describe('the log', () => {
  it('holds nothing a reporter or a handler wrote, no address and no token, whatever the case pages do', async () => {
    const report = await sealedReport({
      notify: 'log-canary@example.com',
      what: 'LOG-CANARY-REPORT',
      attachments: [{ name: 'LOG-CANARY-FILE.pdf', type: 'application/pdf', bytes: new Uint8Array([1]) }],
    })
    const lines: string[] = []
    for (const level of ['log', 'warn', 'error'] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
    try {
      await as(handler, `/_console/cases/${report.id}`)
      await as(handler, `/_console/cases/${report.id}/attachments/${report.attachments[0]?.id}`)
      await post(handler, `/_console/cases/${report.id}/messages`, { text: 'LOG-CANARY-MESSAGE' })
      await post(handler, `/_console/cases/${report.id}/notes`, { text: 'LOG-CANARY-NOTE' })
      await post(handler, `/_console/cases/${report.id}/close`, { text: 'LOG-CANARY-OUTCOME' })
      await visit(`/_console/cases/${report.id}`, { headers: { Cookie: handler } }, {
        WHISTLEBLOWER_KEY: 'another-secret',
      } as Partial<Cloudflare.Env>)
    } finally {
      vi.restoreAllMocks()
    }
    expect(lines.length).toBeGreaterThan(5)
    const all = lines.join('\n')
    for (const secret of ['LOG-CANARY', 'log-canary@example.com', report.receipt_code, handler.split('=')[1] as string])
      expect(all).not.toContain(secret)
    expect(all).toContain('"event":"case_unreadable"')
  })
})
