// `npm run check:backend -- https://api.brand.example` (or `-- --embedded`): reads every area of the contract from a
// backend with the shared schemas and prints what conforms, what is missing and what fails (docs/backend.md). The
// checks are TypeScript (scripts/check-backend/), bundled here for Node by esbuild, out of the Worker's bundle.
import { runBundled } from './bundled.mjs'

await runBundled('scripts/check-backend/cli.ts', 'check-backend')
