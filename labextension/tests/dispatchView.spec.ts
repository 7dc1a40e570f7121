/**
 * The Dispatch pane (issue 13 item 3) on the golden `dispatch` (scale(x, n) called with float32 and n == 2 twice,
 * float64, then n == 3: three cache entries [0/2] [0/1] [0/0], run with --profile; a print breaks the graph, so
 * the resume function [1/*] has its own two entries):
 * - the model: which dispatch a frame belongs to, the call's arguments, an entry's line, the fallback's title;
 * - the pane in the real renderer: the call box, the entries in the cache's order with their distinguishing
 *   guards and hits, the 'guards pass' and 'fail' arrows, the fallback box; clicking an entry selects its frame;
 *   the Python toggle shows the transformed_<fn> text; the resume function's dispatch for its frames;
 * - a report without the field (older minor) and a frame with no entry say so; report strings stay text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  DispatchViewPane,
  NO_DISPATCH_FIELD,
  NO_ENTRY,
  ORDER_NOTE,
  callArguments,
  dispatchFor,
  entryLine,
  fallbackTitle
} from '../src/view/panes/dispatchView';
import type { CompileReport } from '../src/schema';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

/** The golden's dispatch of `scale`. */
function scaleDispatch(report: CompileReport = golden('dispatch')) {
  return report.dispatch!.find(d => d.code.name === 'scale')!;
}

describe('dispatch model', () => {
  it('finds the dispatch of a frame by its compile id, the main code and the resume function apart', () => {
    const report = golden('dispatch');
    expect(dispatchFor(report.dispatch, '0/1')!.code.name).toBe('scale');
    expect(dispatchFor(report.dispatch, '1/1')!.code.is_resume).toBe(true);
    expect(dispatchFor(report.dispatch, '9/9')).toBeNull();
    expect(dispatchFor(undefined, '0/0')).toBeNull();
  });

  it('reads the arguments, one line per entry and the fallback', () => {
    const d = scaleDispatch();
    expect(callArguments(d)).toBe('x, n');
    expect(d.entries.map(e => e.compile_id)).toEqual(['0/2', '0/1', '0/0']);
    const [newest, , oldest] = d.entries;
    expect(entryLine(oldest, d.shared_guards)).toBe(
      `${oldest.guard_count} guards · ${d.shared_guards} shared with every entry folded · ×2 hits`
    );
    expect(entryLine({ ...newest, hits: null, live: false, in_run: false }, 0)).toBe(
      `${newest.guard_count} guards · no longer in the cache · your own torch.compile's entry`
    );
    expect(fallbackTitle(d)).toBe('recompile: a new entry for scale, tried first from then on');
    expect(fallbackTitle({ ...d, fallback: { ...d.fallback, action: 'eager' } })).toBe(
      'eager fallback: scale(x, n) runs as plain Python'
    );
  });
});

describe('dispatch pane', () => {
  it('draws the call, the entries in the order Dynamo tries them with their guards and hits, and the fallback', async () => {
    const { root, widget } = await render(golden('dispatch'));
    await widget.view!.selectFrame('0/1');
    await settled(root);
    const el = pane(root, 'dispatch');
    expect(el.querySelector('.jp-DynamoExplorer-paneTitleText')!.textContent).toBe('Dispatch of scale');
    expect(el.querySelector('.jp-DynamoExplorer-dispatchCall')!.textContent).toBe('call scale(x, n)');
    const entries = Array.from(el.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-dispatchEntry'));
    expect(entries.map(e => e.dataset.compileId)).toEqual(['0/2', '0/1', '0/0']);
    expect(entries.map(e => e.classList.contains('jp-mod-selected'))).toEqual([false, true, false]);
    const guards = (e: HTMLElement): string[] =>
      Array.from(e.querySelectorAll('.jp-DynamoExplorer-dispatchGuard code')).map(c => c.textContent!);
    expect(guards(entries[0])).toEqual(["type(L['n']) is int", "L['x'] dtype torch.float32"]);
    expect(guards(entries[1])).toEqual(["L['n'] == 2", "L['x'] dtype torch.float64"]);
    expect(guards(entries[2])).toEqual(["L['x'] dtype torch.float32"]);
    // the verbatim Dynamo guard text on hover, the TENSOR_MATCH kind beside it
    const dtype = entries[1].querySelectorAll<HTMLElement>('.jp-DynamoExplorer-dispatchGuard')[1];
    expect(dtype.title).toMatch(/^TENSOR_MATCH: check_tensor\(L\['x'\], Tensor, .*torch\.float64/);
    expect(dtype.dataset.kind).toBe('TENSOR_MATCH');
    expect(entries[2].querySelector('.jp-DynamoExplorer-dispatchMeta')!.textContent).toContain('×2 hits');
    expect(entries.map(e => e.parentElement!.querySelector('.jp-DynamoExplorer-dispatchPass')!.textContent)).toEqual(
      Array(3).fill('guards pass →')
    );
    expect(entries[0].parentElement!.querySelector('.jp-DynamoExplorer-dispatchRun')!.textContent).toBe(
      '__transformed_code_0_2(x, n)'
    );
    const arrows = Array.from(el.querySelectorAll('.jp-DynamoExplorer-dispatchArrow')).map(a => a.textContent);
    expect(arrows).toEqual([
      `↓ ${ORDER_NOTE}`,
      '↓ fail: try the next entry',
      '↓ fail: try the next entry',
      '↓ fail: no entry matched'
    ]);
    const fallback = el.querySelector<HTMLElement>('.jp-DynamoExplorer-dispatchFallback')!;
    expect(fallback.dataset.action).toBe('recompile');
    expect(fallback.textContent).toContain('3 of recompile_limit = 8 entries used');
    // the order in the DOM: call, entries, fallback
    const boxes = Array.from(
      el.querySelectorAll(
        '.jp-DynamoExplorer-dispatchCall, .jp-DynamoExplorer-dispatchEntry, .jp-DynamoExplorer-dispatchFallback'
      )
    );
    expect(boxes[0].classList.contains('jp-DynamoExplorer-dispatchCall')).toBe(true);
    expect(boxes[boxes.length - 1]).toBe(fallback);
  });

  it("selects an entry's frame when its id is clicked, and shows the resume function's dispatch there", async () => {
    const { root, widget } = await render(golden('dispatch'));
    await widget.view!.selectFrame('0/1');
    await settled(root);
    const el = pane(root, 'dispatch');
    el.querySelector<HTMLElement>(
      '.jp-DynamoExplorer-dispatchEntry[data-compile-id="0/0"] button.jp-DynamoExplorer-dispatchId'
    )!.click();
    await settled(root);
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe('0/0');
    expect(el.querySelector('.jp-DynamoExplorer-dispatchEntry.jp-mod-selected')!.getAttribute('data-compile-id')).toBe(
      '0/0'
    );
    await widget.view!.selectFrame('1/1');
    await settled(root);
    expect(el.querySelector('.jp-DynamoExplorer-paneTitleText')!.textContent).toBe(
      'Dispatch of torch_dynamo_resume_in_scale_at_5'
    );
    expect(
      Array.from(el.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-dispatchEntry')).map(e => e.dataset.compileId)
    ).toEqual(['1/0', '1/1']);
  });

  it('toggles to the transformed_<fn> text and back', async () => {
    const { root, widget } = await render(golden('dispatch'));
    await widget.view!.selectFrame('0/0');
    await settled(root);
    const el = pane(root, 'dispatch');
    el.querySelector<HTMLElement>('[data-value="text"]')!.click();
    await settled(root);
    const pre = el.querySelector('.jp-DynamoExplorer-dispatchText')!;
    expect(pre.textContent).toBe(scaleDispatch().text);
    expect(pre.textContent).toMatch(/^def transformed_scale\(x, n\):\n/);
    const order = [
      '__guard_0_2_for_scale',
      '__guard_0_1_for_scale',
      '__guard_0_0_for_scale',
      '__compile_and_run_scale'
    ];
    const at = order.map(name => pre.textContent!.indexOf(name));
    expect(at.every(i => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(el.querySelector('.jp-DynamoExplorer-dispatchFlow')).toBeNull();
    const p = widget.view!.panes.get('dispatch') as DispatchViewPane;
    expect(p.mode).toBe('text');
    await p.setMode('flow');
    expect(el.querySelector('.jp-DynamoExplorer-dispatchFlow')).not.toBeNull();
  });

  it('draws an eager fallback and entries no longer in the cache', async () => {
    const report = golden('dispatch');
    const d = scaleDispatch(report);
    d.fallback = {
      ...d.fallback,
      action: 'eager',
      limit: 2,
      limit_hit: true,
      reason: 'recompile_limit = 2 is reached'
    };
    d.entries[2].live = false;
    const { root, widget } = await render(report);
    await widget.view!.selectFrame('0/2');
    await settled(root);
    const el = pane(root, 'dispatch');
    expect(el.querySelectorAll('.jp-DynamoExplorer-dispatchEntry')).toHaveLength(2);
    const fallback = el.querySelector<HTMLElement>('.jp-DynamoExplorer-dispatchFallback')!;
    expect(fallback.classList.contains('jp-mod-eager')).toBe(true);
    expect(fallback.textContent).toContain('eager fallback: scale(x, n) runs as plain Python');
    expect(el.querySelector('.jp-DynamoExplorer-dispatchGone')!.textContent).toBe('Not tried any more: [0/0] ');
  });

  it('says so for a report without the field and for a frame with no entry, and keeps report strings as text', async () => {
    const old = golden('dispatch');
    delete old.dispatch;
    const first = await render(old);
    expect(pane(first.root, 'dispatch').textContent).toContain(NO_DISPATCH_FIELD);
    document.body.textContent = '';
    const report = golden('dispatch');
    report.dispatch = report.dispatch!.filter(d => d.code.name !== 'scale');
    const resume = report.dispatch[0].entries[0];
    resume.distinguishing.push({ ...resume.distinguishing[0], summary: '<img src=x onerror=alert(1)>' });
    const { root, widget } = await render(report);
    await widget.view!.selectFrame('0/0');
    await settled(root);
    expect(pane(root, 'dispatch').textContent).toContain(NO_ENTRY);
    await widget.view!.selectFrame('1/0');
    await settled(root);
    const el = pane(root, 'dispatch');
    expect(el.querySelector('img')).toBeNull();
    expect(el.textContent).toContain('<img src=x onerror=alert(1)>');
  });
});
