import { z } from 'zod';
import type { CollectionId } from '../../../shared/contract';
import { useKeptView } from '../../stores/kept-view';

/** What a list keeps besides its layout: filters, sort, the typed text filter, the selection, the active row and the scroll position. */
const KeptList = z.object({
  sort: z.object({ key: z.string().max(100), dir: z.enum(['asc', 'desc']) }).nullable(),
  filters: z.record(z.string().max(100), z.array(z.string().max(300)).max(50)),
  typed: z.string().max(500),
  selected: z.array(z.tuple([z.string().max(300), z.string().max(1000)])).max(10_000),
  active: z.number().int().nonnegative(),
  scrollTop: z.number().nonnegative(),
});
export type KeptList = z.infer<typeof KeptList>;

const EMPTY: KeptList = { sort: null, filters: {}, typed: '', selected: [], active: 0, scrollTop: 0 };

/** The list as it was left (Back, Forward, a restart), and `keep` to record what it shows now. */
export const useKeptList = (collection: CollectionId) => useKeptView(`list:${collection}`, KeptList, EMPTY);
