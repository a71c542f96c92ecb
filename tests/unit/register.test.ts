import { describe, expect, it } from 'vitest'
import arabic from '../../demo/messages/ar.json'
import german from '../../demo/messages/de.json'
import greek from '../../demo/messages/el.json'
import spanish from '../../demo/messages/es.json'
import french from '../../demo/messages/fr.json'
import hebrew from '../../demo/messages/he.json'
import croatian from '../../demo/messages/hr.json'
import italian from '../../demo/messages/it.json'
import dutch from '../../demo/messages/nl.json'
import portuguese from '../../demo/messages/pt.json'
import slovenian from '../../demo/messages/sl.json'
import english from '../../src/i18n/en.json'

type Messages = { [key: string]: string | Messages }
const flatten = (messages: Messages, prefix = ''): Array<[string, string]> =>
  Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [[prefix + key, value] as [string, string]] : flatten(value, `${prefix}${key}.`),
  )
/** A sentence (it ends as one, or holds one), not a button's or a link's label. */
const sentence = (text: string) => /[.!?:…]\s*$|[.!?] /.test(text)

/**
 * The forms of the register each language does not use (docs/decisions/060): pronouns and possessives anywhere,
 * the second person's verbs in sentences (a button may keep the interface's short imperative: "Accedi", "Salva").
 */
const OTHER_REGISTER = {
  // Italian: Lei ("indica" is also the Lei form of the present). Verbs whose form is also a noun or the third person ("prova", "torna", "accetta") are left out.
  it: {
    messages: italian,
    anywhere: /(?<!\p{L})(tu|tuo|tua|tuoi|tue|te|ti|puoi|vuoi|hai|devi|potrai|vedrai|riceverai)(?!\p{L})/iu,
    inSentences:
      /(?<!\p{L})(scegli|controlla|riprova|trasferisci|apri|riduci|ritira|interrompi|contattaci|scrivici|inserisci|inseriscine|prenota|scopri|compila|clicca|procedi|fartel[ae])(?!\p{L})/iu,
  },
  // Spanish: usted. The imperatives that are also the third person ("revisa", "abre") are left out.
  es: {
    messages: spanish,
    anywhere:
      /(?<!\p{L})(tú|tu|tus|te|ti|contigo|puedes|quieres|tienes|eres|debes|podrás|recibirás|abriste|dejaste|saliste)(?!\p{L})/iu,
    inSentences:
      /(?<!\p{L})(elige|inténtalo|comprueba|compruébalo|recoge|transfiere|contáctanos|escríbenos)(?!\p{L})/iu,
  },
  // German: Sie. Dutch: u. French: vous. Portuguese: o senhor / você in the third person (o seu, a sua).
  de: { messages: german, anywhere: /(?<!\p{L})(du|dein|deine|deinen|deinem|deiner|dich|dir)(?!\p{L})/iu },
  nl: { messages: dutch, anywhere: /(?<!\p{L})(je|jij|jouw|jou|jezelf)(?!\p{L})/iu },
  fr: { messages: french, anywhere: /(?<!\p{L})(tu|toi|ton|ta|tes|t’as|t'as)(?!\p{L})/iu },
  pt: { messages: portuguese, anywhere: /(?<!\p{L})(tu|teu|tua|teus|tuas|contigo|podes|queres|tens)(?!\p{L})/iu },
  // Croatian and Slovenian: Vi (the plural of respect); "te" is also "these", so only the possessives.
  hr: { messages: croatian, anywhere: /(?<!\p{L})(tvoj|tvoja|tvoje|tvoju|tvojim|tvojeg|tebi)(?!\p{L})/iu },
  sl: { messages: slovenian, anywhere: /(?<!\p{L})(tvoj|tvoja|tvoje|tvojo|tvojim|tebi)(?!\p{L})/iu },
  // Greek: εσείς.
  el: { messages: greek, anywhere: /(?<!\p{L})(σου|εσύ|σένα)(?!\p{L})/iu },
  // Hebrew: the plural, which addresses everyone ("שלכם", "אתכם"), never the masculine or feminine singular.
  he: { messages: hebrew, anywhere: /(שלך|אותך|אליך|לך|בשבילך)(?!\p{L})/u },
  // Arabic: the customary singular (يمكنك، معك), never the plural of a group.
  ar: {
    messages: arabic,
    anywhere:
      /(?<!\p{L})(?!التحكم)\p{L}+كم(?!\p{L})|(?<!\p{L})(تحققوا|اشتركوا|افتحوا|افتحوه|أكّدوا|تجاهلوا|تكونوا)(?!\p{L})/u,
  },
  // English: "you" is both; nothing to check but that it says "you".
  en: { messages: english, anywhere: /(?<!\p{L})(thou|thee|thy)(?!\p{L})/iu },
} satisfies Record<string, { messages: Messages; anywhere: RegExp; inSentences?: RegExp }>

describe('one register per language (docs/decisions/060)', () => {
  for (const [locale, rule] of Object.entries(OTHER_REGISTER)) {
    const { messages, anywhere } = rule
    const inSentences = 'inSentences' in rule ? rule.inSentences : undefined
    it(`writes every ${locale} text in the register chosen for it`, () => {
      const strays = flatten(messages)
        .filter(
          ([, text]) => anywhere.test(text) || (inSentences !== undefined && sentence(text) && inSentences.test(text)),
        )
        .map(([key, text]) => `${key}: ${text.slice(0, 80)}`)
      expect(strays).toEqual([])
    })
  }

  it('catches the forms it is about (the old Italian cart, Spanish checkout, Dutch cart, Hebrew banner)', () => {
    expect(OTHER_REGISTER.it.anywhere.test('Il tuo carrello è vuoto.')).toBe(true)
    expect(OTHER_REGISTER.it.inSentences.test('Scegli un rivenditore per il ritiro.')).toBe(true)
    expect(OTHER_REGISTER.it.anywhere.test('Il Suo carrello è vuoto.')).toBe(false)
    expect(OTHER_REGISTER.es.anywhere.test('Revisa tu pedido')).toBe(true)
    expect(OTHER_REGISTER.nl.anywhere.test('Je winkelwagen is leeg.')).toBe(true)
    expect(OTHER_REGISTER.he.anywhere.test('הפרטיות שלך')).toBe(true)
  })
})
