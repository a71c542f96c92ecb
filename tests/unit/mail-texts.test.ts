import { describe, expect, it } from 'vitest'
import english from '../../src/i18n/en.json'

const others = import.meta.glob<{ default: typeof english }>('../../demo/messages/*.json', { eager: true })
const locales: Array<[string, typeof english]> = [
  ['en', english],
  ...Object.entries(others).map(
    ([path, module]) => [/(\w+)\.json$/.exec(path)?.[1] ?? path, module.default] as [string, typeof english],
  ),
]
const LEAD_KINDS = ['test_ride', 'dealer', 'distributor', 'job', 'contact'] as const

/** The words that tell a reader a mail was sent them, in a language: the lead pages' own sentences. */
const sentSentences = (messages: typeof english) => LEAD_KINDS.map((kind) => messages.forms[kind].mail_sent)

describe("the mails' texts", () => {
  it.each(locales)('never tell the reader, inside a mail, that a mail was sent them (%s)', (_, messages) => {
    const sent = sentSentences(messages)
    expect(sent.every(Boolean)).toBe(true)
    // Every mail as written: the acknowledgement of each lead form fills its "what happens next" in.
    const mails = [
      ...Object.values(messages.mail),
      ...LEAD_KINDS.map((kind) => messages.mail.lead_ack_body.replace('{{next}}', messages.forms[kind].next)),
    ]
    for (const mail of mails) for (const sentence of sent) expect(mail).not.toContain(sentence)
  })

  it.each(locales)('give the letter its button and the newsletter its unsubscribe texts (%s)', (_, messages) => {
    for (const text of [
      messages.mail.open_link,
      messages.mail.unsubscribe,
      messages.newsletter.unsubscribe_title,
      messages.newsletter.unsubscribe_intro,
      messages.newsletter.unsubscribe_submit,
      messages.newsletter.unsubscribed_title,
      messages.newsletter.unsubscribed_text,
    ])
      expect(text?.trim()).toBeTruthy()
  })
})
