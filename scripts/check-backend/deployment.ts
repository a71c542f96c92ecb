import { declaredAreas } from '../../src/upstream/areas'

/**
 * A deployment's variables as `npm start` gives them to the Worker: the environment first, then `.dev.vars` (its
 * `NAME=value` lines, a value in quotes taken without them), which wrangler reads itself.
 *
 * @example
 * const variables = deploymentVariables(process.env, readFileSync('.dev.vars', 'utf8'))
 * variables('UPSTREAM_AREAS') // 'content,news'
 */
export function deploymentVariables(
  environment: Record<string, string | undefined>,
  devVars = '',
): (name: string) => string | undefined {
  const file = new Map<string, string>()
  for (const line of devVars.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line)
    if (match?.[1]) file.set(match[1], (match[2] ?? '').replace(/^(["'])(.*)\1$/, '$2'))
  }
  return (name) => environment[name] ?? file.get(name)
}

/**
 * The areas a deployment declares its backend serves, read as the Worker reads `UPSTREAM_AREAS` (empty: every area),
 * from `--areas` when given, else from the deployment's variables; the names that are no area, to refuse.
 *
 * @example
 * declarationOf('content,news', variables) // { declared: Set { 'content', 'news' }, unknown: [] }
 */
export function declarationOf(
  flag: string | undefined,
  variables: (name: string) => string | undefined,
): { declared: ReadonlySet<string> | 'all'; unknown: string[] } {
  const { areas, unknown } = declaredAreas(flag ?? variables('UPSTREAM_AREAS'))
  return { declared: areas, unknown }
}
