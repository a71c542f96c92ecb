import { it } from 'vitest'
import { visit } from '../fixtures/worker'
it('dumps', async () => {
  const { text } = await visit('/it-it/products/aurora-strada-9')
  console.log('@@@' + /<main[\s\S]*<\/main>/.exec(text)?.[0].replace(/<div class="product-section[\s\S]*/, ''))
})
