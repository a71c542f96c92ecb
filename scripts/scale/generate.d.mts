/** What 1× adds to the demo; 10× and 100× multiply it. */
export const SCALE_UNIT: Record<
  'products' | 'articles' | 'dealers' | 'customers' | 'orders' | 'leads' | 'cases' | 'mails',
  number
>
/** The scales the benchmark measures. */
export const SCALES: number[]
/** The customer with many orders at every scale, and their password. */
export const MANY_ORDERS_CUSTOMER: { id: number; email: string; password: string; orders: number }
/** How many rows of each kind a scale adds. */
export function scaleCounts(scale: number): Record<keyof typeof SCALE_UNIT, number>
/** The statements that grow a database holding the demo seed to `scale`. */
export function scaleStatements(scale: number, demo: { dealers: unknown[] }): string[]
/** scripts/reindex-search.sql's statements, from its text. */
export function reindexStatements(sqlText: string): string[]
