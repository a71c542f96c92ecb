import { describe, expect, it } from 'vitest'
import { mailsOf, referenceOf, sendForm, storedSubmission, submissionCount } from '../fixtures/lead-forms'
import { textOf, visit } from '../fixtures/worker'

const CONTACT = { topic: 'warranty', name: 'Giulia Rossi', email: 'giulia@example.com', order_code: '', message: 'The bell rattles.', consent: 'on' }

describe('the contact form', () => {
  it('shows its form on the contact page, with a token and without a cache', async () => {
    const { status, text, headers } = await visit('/it-it/contatti')
    expect(status).toBe(200)
    expect(text).toContain('name="form_token"')
    expect(text).toContain('name="topic"')
    expect(headers.get('Cache-Control')).toBe('no-store')
  })

  it('stores a message, mails the contact recipient and the visitor, and sends the visitor to the confirmation', async () => {
    const { status, headers } = await sendForm('/it-it/contatti', 'contact', CONTACT)
    expect(status).toBe(303)
    const reference = referenceOf(headers.get('Location'))
    expect(reference).toMatch(/^CT-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    const stored = await storedSubmission(reference!)
    expect(stored).toMatchObject({ kind: 'contact', site: 'it', locale: 'it', email: 'giulia@example.com' })
    const mails = await mailsOf(reference!)
    expect(mails.map((mail) => mail.kind)).toEqual(['contact_notice', 'contact_acknowledgement'])
    const confirmation = await visit(headers.get('Location')!)
    expect(confirmation.status).toBe(200)
    expect(textOf(confirmation.text)).toContain(reference!)
  })

  it('keeps the values and names the fields on an error', async () => {
    const before = await submissionCount()
    const { status, text } = await sendForm('/it-it/contatti', 'contact', { ...CONTACT, email: 'not-an-address', consent: '' })
    expect(status).toBe(422)
    expect(text).toContain('The bell rattles.')
    expect(text).toContain('id="field-email-error"')
    expect(text).toContain('id="field-consent-error"')
    expect(await submissionCount()).toBe(before)
  })
})
