export type Visitor = 'anonymous' | 'customer' | 'case_handler' | 'editor'
export type PageKind = { name: string; path: string; visitor: Visitor; shown: number }
/** What a page may read per item it shows, and the constant on top. */
export const ROWS_PER_ITEM: number
export const ROWS_CONSTANT: number
/** The page kinds and console lists issue 31 measures at scale. */
export const PAGE_KINDS: PageKind[]
/** The items a page showed. */
export function shownIn(kind: PageKind, body: string): number
/** The most D1 rows a request of a kind may read, by what it showed. */
export function rowsBound(shown: number): number
/** A kind's path at a scale, with the visitor's checkout code. */
export function pathOf(kind: PageKind, scale: number, code?: string): string
