/**
 * The diff view (src/view/diffView.ts) on the golden diff (tests/goldens/planted_changes.diff.json: B breaks on a
 * print, calls one more op and recompiles), in each host: the JupyterLab renderer (RenderedDiff), the standalone
 * page (mount with the diff embedded) and the anywidget. The header names both sides and the verdict opens the pair
 * of the first difference; a pair shows its differences and both sides side by side: the source with B's break
 * marked, the guard and the graph line only B has marked. Payloads it cannot read show why, in one line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyModel, RenderProps } from '@anywidget/types';
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import extensions, { DIFF_MIME_TYPE, MIME_TYPE, RenderedDiff } from '../src/index';
import widget, { type IExplorerState } from '../src/hosts/anywidget';
import { DIFF_ID, mount, ROOT_ID } from '../src/hosts/standalone';
import type { CompileDiff } from '../src/diffSchema';
import { checkDiff, oneSided, pairRows } from '../src/model/diffModel';
import { DiffView, ROWS_AT_ONCE } from '../src/view/diffView';
import { GOLDENS_DIR, settled } from './helpers';

function goldenDiff(): CompileDiff {
  return JSON.parse(readFileSync(join(GOLDENS_DIR, 'planted_changes.diff.json'), 'utf8')) as CompileDiff;
}

async function renderDiff(data: unknown): Promise<HTMLElement> {
  const w = new RenderedDiff(DIFF_MIME_TYPE);
  document.body.appendChild(w.node);
  const model = { trusted: false, data: { [DIFF_MIME_TYPE]: data as never }, metadata: {}, setData: () => undefined };
  await w.renderModel(model as IRenderMime.IMimeModel);
  return w.node;
}

const q = (root: ParentNode, selector: string): HTMLElement[] =>
  Array.from(root.querySelectorAll<HTMLElement>(selector));

afterEach(() => {
  document.body.textContent = '';
});

describe('the diff view', () => {
  it('is registered for the diff MIME type beside the report renderer', () => {
    const list = extensions as IRenderMime.IExtension[];
    expect(list.map(e => e.rendererFactory.mimeTypes)).toEqual([[MIME_TYPE], [DIFF_MIME_TYPE]]);
    expect(list.every(e => e.rendererFactory.safe)).toBe(true);
  });

  it('names both sides and opens the pair of the first difference', async () => {
    const diff = goldenDiff();
    const root = await renderDiff(diff);
    expect(root.dataset.status).toBe('ready');
    expect(root.dataset.view).toBe('diff');
    expect(q(root, '.jp-DynamoExplorer-diffSides tbody tr').map(r => r.dataset.side)).toEqual(['A', 'B']);
    expect(root.querySelector('.jp-DynamoExplorer-diffSides')!.textContent).toContain('planted_changes.b.json');
    const verdict = root.querySelector<HTMLElement>('.jp-DynamoExplorer-diffVerdict')!;
    expect(verdict.dataset.verdict).toBe('differs');
    expect(verdict.querySelector('.jp-DynamoExplorer-firstDifference')!.textContent).toBe(diff.first_difference);
    // every pair differs here: each has a row, and the first is open
    const rows = q(root, '[data-pair]');
    expect(rows.map(r => Number(r.dataset.pair))).toEqual([0, 1, 2]);
    expect(rows[0].getAttribute('aria-selected')).toBe('true');
    const detail = root.querySelector<HTMLElement>('[data-pane="diff-pair"]')!;
    expect(q(detail, '.jp-DynamoExplorer-diffItem').map(d => d.dataset.kind)).toEqual(
      diff.frames[0].differences.map(d => d.kind)
    );
    expect(detail.textContent).toContain(diff.frames[0].differences[0].summary);
  });

  it('draws both sides: the break marked in B’s source, the guard and the op only B has marked', async () => {
    const diff = goldenDiff();
    const root = await renderDiff(diff);
    const section = (name: string, side: string): HTMLElement =>
      root.querySelector<HTMLElement>(`[data-section="${name}"] [data-side="${side}"]`)!;
    const breakAt = diff.frames[0].view!.b!.breaks[0].line!;
    expect(q(section('source', 'A'), '.jp-mod-break')).toHaveLength(0);
    const marked = q(section('source', 'B'), '.jp-mod-break');
    expect(marked.map(l => Number(l.dataset.line))).toEqual([breakAt]);
    expect(marked[0].textContent).toContain('print("between")');
    expect(marked[0].title).toContain('Failed to trace builtin operator');
    const guardsB = q(section('guards', 'B'), '.jp-mod-added').map(l => l.textContent);
    expect(guardsB.some(g => g!.startsWith('ID_MATCH') && g!.includes("['print']"))).toBe(true);
    // B's f no longer guards on n: it is used after the break, in the resume function
    expect(q(section('guards', 'A'), '.jp-mod-removed').map(l => l.textContent)).toEqual(["EQUALS_MATCH L['n'] == 1"]);
    const graphB = q(section('graph', 'B'), '.jp-mod-added').map(l => l.textContent);
    expect(graphB.some(l => l!.includes('call_method cos'))).toBe(true);
  });

  it('opens another pair: a compile of B alone shows A did not compile it', async () => {
    const diff = goldenDiff();
    const root = await renderDiff(diff);
    const alone = diff.frames.findIndex(p => p.a === null);
    expect(alone).toBeGreaterThan(0);
    root.querySelector<HTMLElement>(`[data-pair="${alone}"]`)!.click();
    expect(root.querySelector<HTMLElement>(`[data-pair="${alone}"]`)!.getAttribute('aria-selected')).toBe('true');
    expect(root.querySelector<HTMLElement>('[data-pair="0"]')!.getAttribute('aria-selected')).toBe('false');
    const detail = root.querySelector<HTMLElement>('[data-pane="diff-pair"]')!;
    expect(detail.dataset.pairIndex).toBe(String(alone));
    expect(q(detail, '.jp-DynamoExplorer-diffItem').map(d => d.dataset.kind)).toEqual(['frame']);
    expect(detail.querySelector('[data-section="source"] [data-side="A"]')!.textContent).toContain(
      'did not compile it'
    );
  });

  it('says the same story, and lists every pair, when nothing differs', async () => {
    const diff = goldenDiff();
    diff.frames = diff.frames.map(p => ({ ...p, differences: [], view: undefined }));
    Object.assign(diff, { same_story: true, first_difference: null, differences: 0 });
    const root = await renderDiff(diff);
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-diffVerdict')!.dataset.verdict).toBe('same');
    expect(q(root, '[data-pair]')).toHaveLength(diff.frames.length);
    expect(root.querySelector('[data-pane="diff-pair"]')!.textContent).toContain('The same story on both sides');
  });

  it('lists only the pairs that differ, or all of them, a page at a time', () => {
    const diff = goldenDiff();
    const same = { ...diff.frames[0], differences: [], costs: [], view: undefined };
    diff.frames = [...diff.frames, ...Array.from({ length: ROWS_AT_ONCE + 10 }, () => same)];
    expect(pairRows(diff, true)).toHaveLength(3);
    const root = document.createElement('div');
    document.body.appendChild(root);
    new DiffView(root, diff).start();
    expect(q(root, '[data-pair]')).toHaveLength(3);
    const only = root.querySelector<HTMLInputElement>('.jp-DynamoExplorer-diffOnly input')!;
    only.checked = false;
    only.dispatchEvent(new Event('change'));
    expect(q(root, '[data-pair]')).toHaveLength(ROWS_AT_ONCE);
    const more = q(root, '.jp-DynamoExplorer-diffPairs > button:not([data-pair])');
    expect(more.map(b => b.textContent)).toEqual(['show 13 more of 13']);
    more[0].click();
    expect(q(root, '[data-pair]')).toHaveLength(diff.frames.length);
  });

  it('refuses what it cannot read, in one line', async () => {
    expect(checkDiff([1, 2])).toMatchObject({ ok: false, kind: 'malformed' });
    expect(checkDiff({ frames: [] })).toMatchObject({ ok: false, kind: 'malformed' });
    const future = { ...goldenDiff(), diff_version: { major: 2, minor: 0 } };
    const check = checkDiff(future);
    expect(check).toMatchObject({ ok: false, kind: 'version' });
    expect(!check.ok && check.message).toContain('schema v2');
    const root = await renderDiff(future);
    expect(root.dataset.status).toBe('ready');
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-unsupported')!.dataset.problem).toBe('version');
  });

  it('marks the surplus of a line one side holds more often', () => {
    expect([...oneSided(['a', 'b', 'a', 'c'], ['a', 'c'])]).toEqual([1, 2]);
    expect([...oneSided(['a'], ['a', 'a'])]).toEqual([]);
  });
});

describe('the diff view in the other hosts', () => {
  it('draws the diff embedded in a standalone page, in place of its static summary', async () => {
    const diff = goldenDiff();
    const data = document.createElement('script');
    data.type = 'application/json';
    data.id = DIFF_ID;
    data.textContent = JSON.stringify(diff);
    const root = document.createElement('div');
    root.id = ROOT_ID;
    root.textContent = 'the static summary';
    document.body.append(data, root);
    const view = await mount(document);
    expect(view).toBeInstanceOf(DiffView);
    expect(root.dataset.status).toBe('ready');
    expect(root.textContent).not.toContain('the static summary');
    expect(root.querySelector('.jp-DynamoExplorer-firstDifference')!.textContent).toBe(diff.first_difference);
  });

  it('draws a diff the widget’s kernel answers with', async () => {
    const diff = goldenDiff();
    const handlers = new Set<(m: unknown) => void>();
    const fake = {
      get: (key: string) => (key === 'summary' ? 'diff' : undefined),
      on: (_e: string, h: (m: unknown) => void) => handlers.add(h),
      off: (_e: string, h: (m: unknown) => void) => handlers.delete(h),
      send: () => setTimeout(() => handlers.forEach(h => h({ kind: 'report', report: diff, cell: null })), 0)
    } as unknown as AnyModel<IExplorerState>;
    const el = document.createElement('div');
    document.body.appendChild(el);
    const props = {
      model: fake,
      el,
      signal: new AbortController().signal,
      host: {} as never,
      experimental: {} as never
    };
    const dispose = await widget.render(props as RenderProps<IExplorerState>);
    const root = el.querySelector<HTMLElement>('.jp-DynamoExplorer')!;
    await settled(root);
    expect(root.dataset.view).toBe('diff');
    expect(q(root, '[data-pair]')).toHaveLength(3);
    (dispose as () => void)();
    expect(q(root, '[data-pair]')).toHaveLength(0);
  });
});
