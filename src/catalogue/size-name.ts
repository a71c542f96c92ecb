/** The catalogue's size of articles that come in one size only (the others are S, M, L… or 20"). */
const ONE_SIZE = 'One size'

/**
 * A variant's size as the page's language writes it: the catalogue's "One size" translated (`order.one_size`), any
 * other size (`M`, `54`, `20"`) as it is, the same in every language.
 *
 * @example sizeName(t, 'One size') // 'Taglia unica' in it-it
 */
export function sizeName(t: (key: string) => string, size: string): string {
  return size === ONE_SIZE ? t('order.one_size') : size
}
