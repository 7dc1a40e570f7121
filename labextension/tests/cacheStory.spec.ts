/**
 * The frame title's cache row (view/cacheStory.ts, frames[].cache_story and caches, minor 16): the engine's line
 * as it is, and for a miss each differing key component with its changed lines, folded; no row without a record.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cacheDifferences } from '../src/model/cachesModel';
import type { CompileReport } from '../src/schema';
import { golden, render } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

const STORY = 'AOT miss (full_miss): gm differs from [0/0@1] → inductor miss (full_miss): gm differs from [0/0@1]';

/** rerun_dynamic with the cache story of a miss whose graph changed. */
function withCaches(): CompileReport {
  const report = golden('rerun_dynamic');
  const frame = report.frames[0];
  frame.cache_story = STORY;
  frame.caches = [
    {
      compile_id: frame.compile_id,
      cache: 'fx_graph',
      status: 'miss',
      key: 'fteiiw',
      reason: null,
      detail: 'full_miss',
      exception_type: null,
      time_saved_ms: null,
      components: 635,
      compared_with: '0/0@1',
      differs: [
        {
          component: 'gm',
          before: 'yeyr6t',
          after: 'klxm2k',
          lines: ['- mul = torch.ops.aten.mul.Tensor(arg0_1, 2.0)', '+ mul = torch.ops.aten.mul.Tensor(arg0_1, 3.0)']
        }
      ]
    }
  ];
  return report;
}

describe('the cache story of a compile', () => {
  it("shows the engine's line and, folded, what differs with the lines that changed", async () => {
    const { root } = await render(withCaches());
    const row = root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle [data-section="caches"]')!;
    expect(row.querySelector('.jp-DynamoExplorer-cacheStory')!.textContent).toBe(STORY);
    const differs = row.querySelector<HTMLDetailsElement>('details.jp-DynamoExplorer-cacheDiffers')!;
    expect(differs.open).toBe(false);
    const gm = differs.querySelector<HTMLElement>('[data-component="gm"]')!;
    expect(gm.textContent).toContain('fx_graph, against [0/0@1]: gm');
    expect(gm.querySelector('pre')!.textContent).toBe(
      '- mul = torch.ops.aten.mul.Tensor(arg0_1, 2.0)\n+ mul = torch.ops.aten.mul.Tensor(arg0_1, 3.0)'
    );
  });

  it('a compile without a cache record, or a report before minor 16, has no row', async () => {
    const report = golden('rerun_dynamic');
    delete (report.frames[0] as { cache_story?: string | null }).cache_story;
    delete (report.frames[0] as { caches?: unknown }).caches;
    const { root } = await render(report);
    expect(root.querySelector('[data-section="caches"]')).toBeNull();
    expect(cacheDifferences(report.frames[0])).toEqual([]);
  });

  it('lists every differing component of every miss, with the cache it is of', () => {
    const frame = withCaches().frames[0];
    frame.caches![0].differs!.push({ component: 'torch_version', before: 'a', after: 'b', lines: [] });
    expect(cacheDifferences(frame).map(d => `${d.cache}:${d.component}`)).toEqual([
      'fx_graph:gm',
      'fx_graph:torch_version'
    ]);
  });
});
