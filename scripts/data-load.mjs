// `npm run data:load -- --from <folder> [--env local|staging|production] [--dry-run]`: checks the brand's data files
// against the contract's schemas and upserts them into a D1 (docs/data.md, docs/decisions/054). The loader is
// TypeScript (scripts/brand-data/), bundled here for Node by esbuild, as `npm run check:backend` is.
import { runBundled } from './bundled.mjs'

await runBundled('scripts/brand-data/cli.ts', 'data-load')
