/**
 * The frame title's cache row (frames[].cache_story, minor 16): the compile's cache story in the engine's words
 * ('AOT miss (full_miss) → inductor hit (21.3 s saved)'), and for a miss what differs from the entry it was compared
 * with, each component with the lines that changed, folded. Registered in view/frameExtras.ts (section 'caches');
 * a frame without a cache record (an eager backend, a report before minor 16) has no row.
 */
import { h } from '../dom';
import { cacheDifferences } from '../model/cachesModel';
import type { Frame } from '../schema';

/** The frame title's cache row, or null without a cache record. */
export function frameCacheStory(frame: Frame): HTMLElement | null {
  const story = frame.cache_story;
  if (!story) {
    return null;
  }
  const row = h(
    'div',
    { class: 'jp-DynamoExplorer-symbols jp-DynamoExplorer-caches' },
    h('span', {
      class: 'jp-DynamoExplorer-muted',
      text: 'caches:',
      title:
        "inductor's FX graph cache and AOTAutograd's cache for this compile: hit, miss (full_miss: no entry under " +
        'the key; guard_miss: no entry whose guards held) or bypass, and for a miss the parts of the key whose hash ' +
        'changed since the nearest earlier entry of this code'
    }),
    h('span', { class: 'jp-DynamoExplorer-cacheStory', text: story })
  );
  const differences = cacheDifferences(frame);
  if (differences.length > 0) {
    const details = h('details', { class: 'jp-DynamoExplorer-cacheDiffers' }, h('summary', { text: 'what differs' }));
    for (const d of differences) {
      details.appendChild(
        h(
          'div',
          { data: { component: d.component } },
          h('span', { class: 'jp-DynamoExplorer-muted', text: `${d.cache}, against [${d.comparedWith}]: ` }),
          h('code', { text: d.component }),
          d.lines.length > 0 ? h('pre', { class: 'jp-DynamoExplorer-cacheLines', text: d.lines.join('\n') }) : null
        )
      );
    }
    row.appendChild(details);
  }
  return row;
}
