import { describe, expect, it } from 'vitest'
import type { CaseFile } from '../../contract/staff-schemas'
import {
  notifyOf,
  openAttachment,
  openCaseFile,
  sealForCase,
  statusUrl,
  UnreadableCase,
} from '../../src/whistleblower/case-file'
import { newReportKey, openText, sealBytes, sealText } from '../../src/whistleblower/sealed'
import { openRecipient } from '../../src/whistleblower/sealed-recipient'
import { keyring } from '../fixtures/keyrings'

const SECRET = keyring({ WHISTLEBLOWER_KEY: 'unit-test-whistleblower-key' })
const ANOTHER = keyring({ WHISTLEBLOWER_KEY: 'another-secret' })

/** A case file as the API answers it, sealed with a fresh key. */
async function caseFile(more: { notify?: string; outcome?: string } = {}) {
  const { key, wrapped } = await newReportKey(SECRET)
  const file: CaseFile = {
    id: 3,
    receipt_code: 'WB-K7M2-Q9XD-4HNP-T3RS',
    site: 'ae',
    locale: 'ar',
    category: 'environment',
    state: 'in_progress',
    anonymous: false,
    received_at: '2026-11-01T10:00:00.000Z',
    acknowledged_at: '2026-11-02T10:00:00.000Z',
    feedback_at: '2026-11-02T10:00:00.000Z',
    closed_at: null,
    wrapped_key: wrapped,
    sealed_report: await sealText(
      key,
      JSON.stringify({
        what: 'Oil into the river',
        when_where: 'Dubai plant, nightly',
        involved: null,
        name: 'Sara',
        contact: '+971 4 555 0100',
      }),
    ),
    sealed_notify: more.notify ? await sealText(key, more.notify) : null,
    sealed_outcome: more.outcome ? await sealText(key, more.outcome) : null,
    messages: [
      {
        id: 1,
        author: 'handler',
        staff_name: 'Hanna',
        sealed_body: await sealText(key, 'Which night?'),
        created_at: '2026-11-02T10:00:00.000Z',
      },
      {
        id: 2,
        author: 'reporter',
        staff_name: null,
        sealed_body: await sealText(key, 'Every Monday.'),
        created_at: '2026-11-03T10:00:00.000Z',
      },
    ],
    attachments: [
      {
        id: 9,
        message_id: 2,
        sealed_meta: await sealText(key, JSON.stringify({ name: 'river.jpg', type: 'image/jpeg' })),
        size: 40,
        created_at: '2026-11-03T10:00:00.000Z',
      },
    ],
    events: [{ action: 'opened', staff_name: 'Hanna', detail: '', at: '2026-11-02T09:00:00.000Z' }],
  }
  return { key, file }
}

describe('a case file at the edge', () => {
  it("opens the report, the address, the outcome, the messages and the attachments' names", async () => {
    const { file } = await caseFile({ notify: 'sara@example.com', outcome: 'Stopped.' })
    const opened = await openCaseFile(SECRET, file)
    expect(opened.report).toEqual({
      what: 'Oil into the river',
      when_where: 'Dubai plant, nightly',
      involved: null,
      name: 'Sara',
      contact: '+971 4 555 0100',
    })
    expect(opened.notifyEmail).toBe('sara@example.com')
    expect(opened.outcome).toBe('Stopped.')
    expect(opened.messages.map((each) => [each.author, each.body])).toEqual([
      ['handler', 'Which night?'],
      ['reporter', 'Every Monday.'],
    ])
    expect(opened.attachments).toEqual([
      { id: 9, message_id: 2, name: 'river.jpg', type: 'image/jpeg', size: 40, created_at: '2026-11-03T10:00:00.000Z' },
    ])
    expect(opened).not.toHaveProperty('wrapped_key')
    expect(opened.events).toHaveLength(1)
  })

  it('refuses a case sealed under another secret', async () => {
    const { file } = await caseFile()
    await expect(openCaseFile(ANOTHER, file)).rejects.toBeInstanceOf(UnreadableCase)
    await expect(
      openAttachment(ANOTHER, file, file.attachments[0] as { sealed_meta: string }, new Uint8Array(40)),
    ).rejects.toBeInstanceOf(UnreadableCase)
    await expect(sealForCase(ANOTHER, file, 'x')).rejects.toBeInstanceOf(UnreadableCase)
  })

  it("seals a handler's text with the case's own key, differently each time", async () => {
    const { key, file } = await caseFile()
    const once = await sealForCase(SECRET, file, 'Please send the invoice.')
    expect(await openText(key, once)).toBe('Please send the invoice.')
    expect(await sealForCase(SECRET, file, 'Please send the invoice.')).not.toBe(once)
  })

  it('opens an attachment: its name, its type and its bytes', async () => {
    const { key, file } = await caseFile()
    const bytes = new Uint8Array([0, 255, 1, 2, 3])
    expect(
      await openAttachment(SECRET, file, file.attachments[0] as { sealed_meta: string }, await sealBytes(key, bytes)),
    ).toEqual({ name: 'river.jpg', type: 'image/jpeg', bytes })
  })

  it('links the status page of the market the report came from, the address sealed again for the mail sender', async () => {
    expect(statusUrl('https://www.brand.example', { site: 'ae', locale: 'ar' })).toBe(
      'https://www.brand.example/ae-ar/whistleblower-form/status',
    )
    const { file } = await caseFile({ notify: 'sara@example.com' })
    const notify = await notifyOf(SECRET, 'https://site.test', file)
    expect(notify).toEqual({
      sealed_recipient: expect.stringMatching(/^sealed:v2:legacy:/),
      status_url: 'https://site.test/ae-ar/whistleblower-form/status',
    })
    expect(atob(notify!.sealed_recipient.slice('sealed:v2:legacy:'.length))).not.toContain('sara')
    expect(await openRecipient(SECRET, notify!.sealed_recipient)).toBe('sara@example.com')
  })

  it('asks for no mail when the reporter left no address, and needs the public origin when they did', async () => {
    const { file } = await caseFile()
    expect(await notifyOf(SECRET, null, file)).toBeNull()
    const withAddress = await caseFile({ notify: 'sara@example.com' })
    await expect(notifyOf(SECRET, null, withAddress.file)).rejects.toThrow('PUBLIC_ORIGIN')
  })
})
