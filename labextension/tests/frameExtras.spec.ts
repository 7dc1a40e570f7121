/**
 * The frame title's extras come from a registry (view/frameExtras.ts), as the panes do: the view shows each
 * entry's row in the registry's order under the title, marked with the entry's id as its `data-section`, and an
 * entry added to the registry shows up with no edit of the view. On the rerun_dynamic golden, whose frame has a
 * symbol and an input automatic dynamic marked in an earlier run, with a CUDA graph row added. Also the words of
 * the automatic-dynamic row (model/shapeText.ts `markedText`, `symbolsOf`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { h } from '../src/dom';
import { markedText, symbolsOf } from '../src/model/shapeText';
import type { AutomaticDynamic, CompileReport } from '../src/schema';
import { FRAME_EXTRAS, type IFrameExtra } from '../src/view/frameExtras';
import { cudagraphRow } from './cudagraphsFixtures';
import { golden, render } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

/** rerun_dynamic with a skipped CUDA graph row for its frame. */
function withCudaGraph(): CompileReport {
  const report = golden('rerun_dynamic');
  report.cudagraphs = [cudagraphRow({ compile_id: report.frames[0].compile_id, kind: 'inference', explanation: null })];
  return report;
}

/** The sections of the frame title's rows, in order. */
function sections(root: HTMLElement): string[] {
  const title = root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!;
  return Array.from(title.querySelectorAll<HTMLElement>(':scope > [data-section]'), el => el.dataset.section!);
}

describe('the frame extras registry', () => {
  it('names each extra once, in the order the title shows them', () => {
    const ids = FRAME_EXTRAS.map(e => e.id);
    expect(ids).toEqual(['symbols', 'automatic-dynamic', 'cudagraphs', 'caches']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("the title shows each extra's row in the registry's order, marked with its id", async () => {
    const { root } = await render(withCudaGraph());
    expect(sections(root)).toEqual(['symbols', 'automatic-dynamic', 'cudagraphs']);
    const title = root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!;
    expect(title.querySelector('[data-section="symbols"]')!.textContent).toContain('dynamic shapes:');
    expect(title.querySelector('[data-section="cudagraphs"]')!.textContent).toContain(
      'inference: skipped (no CUDA device)'
    );
  });

  it('an extra with nothing to say for the frame leaves no row', async () => {
    const { root } = await render(golden('rerun_dynamic'));
    expect(sections(root)).toEqual(['symbols', 'automatic-dynamic']);
  });

  it('an extra added to the registry shows up without an edit of the view', async () => {
    const extra: IFrameExtra = {
      id: 'test-extra',
      build: (ctx, frame) => h('div', { text: `${frame.compile_id} of ${ctx.report.frames.length}` })
    };
    const registry = FRAME_EXTRAS as IFrameExtra[];
    registry.push(extra);
    try {
      const { root } = await render(withCudaGraph());
      expect(sections(root)).toEqual(['symbols', 'automatic-dynamic', 'cudagraphs', 'test-extra']);
      expect(root.querySelector('[data-section="test-extra"]')!.textContent).toBe('0/0 of 1');
    } finally {
      registry.splice(registry.indexOf(extra), 1);
    }
  });
});

describe('the automatic-dynamic row in words', () => {
  const input: AutomaticDynamic = {
    source: "L['x']",
    kind: 'tensor',
    dims: [0],
    now: 'size (?)',
    marked_in: '0/1',
    was: 'size (8)',
    was_from_earlier_run: false
  };

  it('says who marked an input, seen from the frame', () => {
    expect(markedText(input, { compile_id: '0/1' })).toBe('marked by this compile, was size (8)');
    expect(markedText({ ...input, was_from_earlier_run: true }, { compile_id: '0/1' })).toBe(
      'marked by this compile, was size (8) in an earlier run'
    );
    expect(markedText({ ...input, was: null }, { compile_id: '0/1' })).toBe('marked by this compile');
    expect(markedText(input, { compile_id: '0/2' })).toBe('marked in [0/1]');
    expect(markedText({ ...input, marked_in: null }, { compile_id: '0/1' })).toBe('marked by an earlier run');
  });

  it("a compile's symbols, and none for another", () => {
    const report = golden('rerun_dynamic');
    expect(symbolsOf(report, '0/0').map(s => s.source)).toEqual(report.symbols.map(s => s.source));
    expect(symbolsOf(report, '9/9')).toEqual([]);
  });
});
