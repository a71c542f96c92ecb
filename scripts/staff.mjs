// `npm run staff -- add <email> --role editor --name "…" [--env …]` / `npm run staff -- disable <email>`: adds or
// disables a console staff member and prints the TOTP enrolment once (docs/operations.md "Data and staff").
import { runBundled } from './bundled.mjs'

await runBundled('scripts/staff/cli.ts', 'staff')
