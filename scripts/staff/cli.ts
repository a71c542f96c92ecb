import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { STAFF_ROLES, type StaffRole } from '../../contract/staff-schemas'
import { persistArgs, runTool } from '../local.mjs'
import { d1ExecuteArgs } from '../brand-data/target'
import { staffAddition, staffDisabling } from './statements'

const USAGE = `usage: npm run staff -- add <email> --role ${STAFF_ROLES.join('|')} --name "Full Name" [--env E]
       npm run staff -- disable <email> [--env E]
  --env E   local (the default) or a wrangler environment's remote D1 (needs \`wrangler login\`)
  add: the password is STAFF_PASSWORD from the environment, else a new one printed once; the TOTP enrolment is printed
  once. Neither is stored in clear or logged.`

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { role: { type: 'string' }, name: { type: 'string' }, env: { type: 'string', default: 'local' } },
})
const [action, email] = positionals
const role = STAFF_ROLES.find((each) => each === values.role) as StaffRole | undefined
if (!email?.includes('@') || !(action === 'disable' || (action === 'add' && role && values.name))) {
  console.error(USAGE)
  process.exit(2)
}

const given = process.env.STAFF_PASSWORD
const password = given || randomBytes(18).toString('base64url')
const change =
  action === 'add' && role && values.name ? await staffAddition({ email, name: values.name, role, password }) : null
// A file only this user reads, gone after the call: the hash and the TOTP secret never appear in a process list.
const folder = mkdtempSync(join(tmpdir(), 'staff-'))
const file = join(folder, 'staff.sql')
writeFileSync(file, change ? change.sql : staffDisabling(email), { mode: 0o600 })
try {
  runTool(
    'wrangler',
    [...d1ExecuteArgs({ env: values.env ?? 'local' }, file), ...(values.env === 'local' ? persistArgs() : [])],
    { quiet: true },
  )
} finally {
  rmSync(folder, { recursive: true, force: true })
}
if (!change) console.log(`${email}: disabled, signed out everywhere`)
else {
  console.log(`${email}: ${role} in the ${values.env} D1. Shown once (the password nowhere stored in clear):`)
  if (!given) console.log(`  password: ${password}`)
  console.log(`  TOTP secret: ${change.secret}`)
  console.log(`  enrolment: ${change.otpauth}`)
}
