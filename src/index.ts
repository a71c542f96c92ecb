import { app } from './app'
import type { Bindings } from './env'

export default app satisfies ExportedHandler<Bindings>
