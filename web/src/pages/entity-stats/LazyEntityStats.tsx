/** The entity statistics as a chunk of their own, fetched when a catalog page first shows them. */
import { lazy, Suspense, type ComponentProps } from 'react';

const EntityStats = lazy(() => import('./EntityStats.tsx'));

export function LazyEntityStats(props: ComponentProps<typeof EntityStats>) {
  return (
    <Suspense fallback={null}>
      <EntityStats {...props} />
    </Suspense>
  );
}
