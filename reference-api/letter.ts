/**
 * The HTML part of the reference API's mails (docs/mail.md, docs/decisions/050): one layout in the brand's look — a
 * text wordmark, no image at all, tables for layout as mail clients need them, light and dark colour schemes — in the
 * recipient's language and direction. A mail is its plain text cut into paragraphs; a paragraph that is a link alone
 * becomes a button, and a kind may put a block of its own (an order's lines, its amounts) in place of a paragraph.
 * A new kind needs nothing more than its text; one with a table passes it as a `LetterBlock`.
 */

/** A table of a letter: label and value per row, the last row stressed when `total`. */
export type LetterTable = { kind: 'table'; rows: readonly (readonly [string, string])[]; total?: boolean }

/** A part of a letter: a paragraph (its lines kept), a button to a link, or a table. */
export type LetterBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'button'; href: string; label: string }
  | LetterTable

/** What a letter is made of: its language, its subject (the HTML title and heading) and its blocks. */
export type Letter = { locale: string; subject: string; blocks: readonly LetterBlock[]; footer?: LetterFooter }

/** The letter's last line: an unsubscribe link (the newsletter's mails). */
export type LetterFooter = { href: string; label: string }

const RIGHT_TO_LEFT = new Set(['he', 'ar', 'fa'])
const LINK_ALONE = /^https:\/\/\S+$|^http:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?\/\S*$/

const INK = '#1d1d1b'
const PAPER = '#ffffff'
const CANVAS = '#f2efe9'
const ACCENT = '#8a3b12'
const RULE = '#ddd6ca'
const MUTED = '#5c5a55'

/**
 * A plain-text mail as a letter: its paragraphs (cut at blank lines), each one that is a link alone a button labelled
 * `linkLabel` (or the link itself), and `parts[name]` in place of a paragraph that is exactly `{{name}}`'s marker
 * (`partMarker(name)`).
 *
 * @example letterOf('it', subject, body, { linkLabel: 'Conferma' })
 */
export function letterOf(
  locale: string,
  subject: string,
  body: string,
  options: { linkLabel?: string; parts?: Record<string, LetterBlock>; footer?: LetterFooter } = {},
): Letter {
  const blocks = body
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph): LetterBlock => {
      const part = paragraph.startsWith(MARKER) ? options.parts?.[paragraph.slice(MARKER.length)] : undefined
      if (part) return part
      if (LINK_ALONE.test(paragraph)) return { kind: 'button', href: paragraph, label: options.linkLabel ?? paragraph }
      return { kind: 'paragraph', text: paragraph }
    })
  return { locale, subject, blocks, footer: options.footer }
}

const MARKER = '\u0001part:'

/** The stand-in for a block in a mail's text, to fill a template and cut it into a letter's blocks. */
export const partMarker = (name: string): string => `${MARKER}${name}`

/**
 * The letter as a whole HTML document: `lang` and `dir` of its locale, `color-scheme` light and dark, the width of
 * the screen up to 600 px, long words and links wrapped, every text escaped.
 *
 * @example const html = letterHtml(letterOf('he', subject, body))
 */
export function letterHtml(letter: Letter): string {
  const dir = RIGHT_TO_LEFT.has(letter.locale) ? 'rtl' : 'ltr'
  const start = dir === 'rtl' ? 'right' : 'left'
  const end = dir === 'rtl' ? 'left' : 'right'
  const blocks = letter.blocks.map((block) => blockHtml(block, start, end, dir === 'rtl')).join('\n')
  const footer = letter.footer
    ? `<tr><td class="muted" style="padding:16px 32px 28px;font-size:13px;line-height:20px;color:${MUTED};text-align:${start};border-top:1px solid ${RULE}"><a href="${attribute(letter.footer.href)}" style="color:${MUTED};text-decoration:underline">${text(letter.footer.label)}</a></td></tr>`
    : ''
  return `<!DOCTYPE html>
<html lang="${attribute(letter.locale)}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${text(letter.subject)}</title>
<style>
:root { color-scheme: light dark; supported-color-schemes: light dark; }
body { margin: 0; padding: 0; }
table { border-collapse: collapse; }
td, p, a { overflow-wrap: anywhere; word-break: break-word; }
@media (prefers-color-scheme: dark) {
  .canvas { background-color: #161614 !important; }
  .paper { background-color: #22211f !important; }
  .ink, .ink td, .ink p { color: #f2efe9 !important; }
  .muted, .muted a { color: #bdb8ae !important; border-color: #45423d !important; }
  .rule td { border-color: #45423d !important; }
  .button { background-color: #e0a073 !important; }
  .button a { color: #161614 !important; }
  .wordmark { color: #f2efe9 !important; }
}
</style>
</head>
<body class="canvas" style="margin:0;padding:0;background-color:${CANVAS}">
<table role="presentation" class="canvas" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;background-color:${CANVAS}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" class="paper ink" dir="${dir}" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:${PAPER};color:${INK};font-family:'Helvetica Neue',Helvetica,Arial,sans-serif;font-size:16px;line-height:24px;text-align:${start}">
<tr><td class="wordmark" dir="ltr" style="padding:28px 32px 8px;font-size:15px;line-height:20px;letter-spacing:4px;font-weight:700;color:${INK};text-align:${start}">AURORA&nbsp;CYCLES</td></tr>
<tr><td style="padding:0 32px"><table role="presentation" width="48" cellpadding="0" cellspacing="0" border="0"><tr><td height="3" style="height:3px;line-height:3px;font-size:0;background-color:${ACCENT}">&nbsp;</td></tr></table></td></tr>
<tr><td style="padding:20px 32px 4px"><h1 style="margin:0;font-size:22px;line-height:30px;font-weight:600">${lines(letter.subject, dir === 'rtl')}</h1></td></tr>
${blocks}
<tr><td style="height:12px;line-height:12px;font-size:0">&nbsp;</td></tr>
${footer}
</table>
</td></tr>
</table>
</body>
</html>
`
}

function blockHtml(block: LetterBlock, start: string, end: string, rtl: boolean): string {
  if (block.kind === 'paragraph')
    return `<tr><td style="padding:12px 32px 0"><p style="margin:0">${lines(block.text, rtl)}</p></td></tr>`
  if (block.kind === 'button')
    return `<tr><td style="padding:16px 32px 4px"><table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td class="button" style="background-color:${ACCENT};border-radius:3px"><a href="${attribute(block.href)}" style="display:inline-block;padding:12px 22px;color:#ffffff;font-weight:600;text-decoration:none"><bdi>${text(block.label)}</bdi></a></td></tr></table></td></tr>`
  const rows = block.rows
    .map(([label, value], index) => {
      const stressed = block.total && index === block.rows.length - 1 ? 'font-weight:700;' : ''
      return `<tr class="rule"><td style="${stressed}padding:8px 0;border-top:1px solid ${RULE};text-align:${start}">${lines(label, rtl)}</td><td style="${stressed}padding:8px 0;padding-${start}:16px;border-top:1px solid ${RULE};text-align:${end};white-space:nowrap"><bdi>${text(value)}</bdi></td></tr>`
    })
    .join('')
  return `<tr><td style="padding:12px 32px 0"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%">${rows}</table></td></tr>`
}

/**
 * A text's lines, escaped, each link in it isolated left to right; in a right-to-left letter every run of Latin
 * letters and digits too (an order's code, a brand's name, an address inside Hebrew or Arabic).
 */
function lines(value: string, rtl: boolean): string {
  return value
    .split('\n')
    .map((line) => {
      let html = ''
      let from = 0
      for (const match of line.matchAll(rtl ? LEFT_TO_RIGHT_RUN : LINK)) {
        const [run, link] = match
        html += text(line.slice(from, match.index))
        html += link
          ? `<a href="${attribute(link)}" dir="ltr" style="color:inherit;text-decoration:underline"><bdi>${text(link)}</bdi></a>`
          : `<bdi dir="ltr">${text(run)}</bdi>`
        from = match.index + run.length
      }
      return html + text(line.slice(from))
    })
    .join('<br>')
}

const LINK = /(https?:\/\/\S+)/g
const LEFT_TO_RIGHT_RUN = /(https?:\/\/\S+)|[A-Za-z0-9](?:[A-Za-z0-9\-_.@+/ ]*[A-Za-z0-9])?/g

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

const text = (value: string): string => value.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character)
const attribute = text
