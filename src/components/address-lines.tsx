import { countryName } from '../i18n/formats'
import type { PostalAddress } from '../../contract/account-schemas'
import { type AddressLinePiece, addressLines } from '../../contract/address-formats'

/**
 * A postal address as lines, in its country's order (contract/address-formats.ts: `24122 Bergamo (BG)`,
 * `San Francisco, CA 94103`, no postcode in the UAE), the country named in the market's language: the one renderer
 * of the checkout's review and result, the account's address book and orders. Each line is isolated and takes its
 * own direction from its text, aligned as the page is; the postcode and the phone number are isolated left-to-right
 * runs, so "24122 Bergamo" or "+39 035 555 0101" never come out reordered on a right-to-left page.
 */
export function AddressLines({ address, tag }: { address: PostalAddress; tag: string }) {
  const lines = addressLines(address, countryName(address.country_code, tag))
  return (
    <address>
      {lines.map((pieces, index) => (
        <span key={index} className="address-line">
          <bdi>
            {runsOf(pieces).map((run, at) =>
              run.postcode ? (
                <bdi key={at} dir="ltr">
                  {run.text}
                </bdi>
              ) : (
                run.text
              ),
            )}
          </bdi>
        </span>
      ))}
      {address.phone && (
        <span className="address-line">
          <bdi dir="ltr">{address.phone}</bdi>
        </span>
      )}
    </address>
  )
}

/** A line's pieces as runs: the postcode alone (a left-to-right run), the text around it joined into one. */
function runsOf(pieces: AddressLinePiece[]): Array<{ text: string; postcode: boolean }> {
  const runs: Array<{ text: string; postcode: boolean }> = []
  for (const piece of pieces) {
    const postcode = piece.part === 'postal_code'
    const last = runs.at(-1)
    if (last && !last.postcode && !postcode) last.text += piece.text
    else runs.push({ text: piece.text, postcode })
  }
  return runs
}
