/**
 * The cache story of a compile (frames[].caches and cache_story, minor 16; [Note: cache story] in
 * compiler/collectors/caches/cache_story.py): inductor's FX graph cache and AOTAutograd's cache, hit, miss or bypass.
 * The words are the engine's (`frame.cache_story`); this module only picks what a view lists.
 *
 * - `cacheDifferences(frame)`: each key component a miss's key has with another hash than the entry it was compared
 *   with, with the lines that changed, in the order of the frame's records.
 */
import type { Frame } from '../schema';

/** One differing component of a miss. */
export interface ICacheDifference {
  /** The cache, by torch's name: 'fx_graph' (inductor's FX graph cache) or 'aotautograd'. */
  cache: string;
  /** The compile id of the entry compared with. */
  comparedWith: string;
  /** The component, as torch names it ('gm', 'example_inputs[0]', 'inductor_config[...]'). */
  component: string;
  /** The changed lines, '- ' before and '+ ' after. */
  lines: string[];
}

/** Every differing component of the frame's misses (none for a report before minor 16). */
export function cacheDifferences(frame: Frame): ICacheDifference[] {
  const out: ICacheDifference[] = [];
  for (const c of frame.caches ?? []) {
    for (const d of c.differs ?? []) {
      out.push({
        cache: c.cache,
        comparedWith: c.compared_with ?? '?',
        component: d.component,
        lines: d.lines
      });
    }
  }
  return out;
}
