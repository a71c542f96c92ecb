import type { ComponentType } from 'react'
import type { IslandName } from '../../client/islands/names'

type IslandProps<P extends object> = { name: IslandName; component: ComponentType<P>; props: P }

/**
 * Renders an interactive component on the server inside a marker the browser entry finds and hydrates with the
 * same props. Islands get their texts through props: the browser never loads the translations.
 */
export function Island<P extends object>({ name, component: Component, props }: IslandProps<P>) {
  return (
    <div className="island" data-island={name} data-props={JSON.stringify(props)}>
      <Component {...props} />
    </div>
  )
}
