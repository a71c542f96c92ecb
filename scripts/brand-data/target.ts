/** A D1 to write to: this machine's (`--local`) or a deployment's (`--remote`, with its wrangler environment). */
export type Target = { env: string }

/**
 * The arguments of `wrangler d1 execute DB` for a target: `local` (the default) is `npm start`'s D1, any other name a
 * wrangler environment's remote D1 (`--env staging --remote`), which needs an account (`wrangler login`).
 *
 * @example
 * d1ExecuteArgs({ env: 'staging' }, 'dist/brand-data/load.sql')
 * // ['d1', 'execute', 'DB', '--remote', '--env', 'staging', '--file', 'dist/brand-data/load.sql']
 */
export function d1ExecuteArgs({ env }: Target, file: string): string[] {
  const where = env === 'local' ? ['--local'] : ['--remote', '--env', env]
  return ['d1', 'execute', 'DB', ...where, '--file', file, '--yes']
}
