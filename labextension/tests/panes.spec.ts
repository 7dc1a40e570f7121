/**
 * The pane registry and the `Pane` base class: the registry follows the schema's pane list, the view lays
 * the panes out in that order (header on top, frames in the navigator, rows of side-by-side panes), titles
 * come from the schema, and a pane releases the line links it made when it redraws or is disposed while
 * report-wide links (graph-break cards) stay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PANE_REGISTRY } from '../src/view/panes/registry';
import { PANE_TITLES, PANES } from '../src/schema';
import type { ReportView } from '../src/view/view';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

async function view(name = 'toy_example'): Promise<{ root: HTMLElement; view: ReportView }> {
  const { widget, root } = await render(golden(name));
  expect(widget.view).not.toBeNull();
  return { root, view: widget.view! };
}

async function select(root: HTMLElement, compileId: string): Promise<void> {
  pane(root, 'frames').querySelector<HTMLElement>(`[data-compile-id="${compileId}"]`)!.click();
  await settled(root);
}

/** Line keys of the rows a pane has registered (its elements with data-line-key). */
function keysIn(el: HTMLElement): string[] {
  return [...new Set(Array.from(el.querySelectorAll('[data-line-key]'), r => r.getAttribute('data-line-key')!))];
}

describe('pane registry', () => {
  it("lists the schema's panes, in the schema's order, once each", () => {
    expect(PANE_REGISTRY.map(e => e.name)).toEqual([...PANES]);
    expect(new Set(PANES).size).toBe(PANES.length);
  });

  it("lays the panes out in the schema's order and keeps the layout", async () => {
    const { root, view: v } = await view();
    expect([...v.panes.keys()]).toEqual([...PANES]);
    expect(Array.from(root.querySelectorAll<HTMLElement>('[data-pane]'), el => el.dataset.pane)).toEqual([...PANES]);
    expect(root.firstElementChild).toBe(pane(root, 'header'));
    expect(pane(root, 'frames').parentElement!.tagName).toBe('NAV');
    const main = root.querySelector('.jp-DynamoExplorer-main')!;
    expect(main.firstElementChild!.classList.contains('jp-DynamoExplorer-frameTitle')).toBe(true);
    const codeRow = pane(root, 'source').parentElement!;
    expect(codeRow.className).toBe('jp-DynamoExplorer-columns');
    // (between the panes of a row: layout.ts's splitters, tested in bytecode.spec.ts)
    expect(Array.from(codeRow.querySelectorAll<HTMLElement>(':scope > [data-pane]'), c => c.dataset.pane)).toEqual([
      'source',
      'original-bytecode',
      'modified-bytecode'
    ]);
    const checksRow = pane(root, 'guards').parentElement!;
    expect(checksRow.className).toBe('jp-DynamoExplorer-columns jp-DynamoExplorer-columns2');
    expect(Array.from(checksRow.querySelectorAll<HTMLElement>(':scope > [data-pane]'), c => c.dataset.pane)).toEqual([
      'guards',
      'graph-breaks'
    ]);
    expect(pane(root, 'fx-graph').parentElement).toBe(main);
    expect(pane(root, 'code').parentElement).toBe(main);
    expect(pane(root, 'fx-graph').nextElementSibling).toBe(pane(root, 'code'));
  });

  it("titles each pane with the schema's title", async () => {
    const { root } = await view();
    expect(pane(root, 'header').querySelector('.jp-DynamoExplorer-brand')!.textContent).toBe(PANE_TITLES.header);
    for (const name of PANES.filter(n => n !== 'header')) {
      const title = pane(root, name).querySelector('.jp-DynamoExplorer-paneTitleText')!.textContent!;
      expect(title.startsWith(PANE_TITLES[name]), `${name}: ${title}`).toBe(true);
    }
  });
});

describe('Pane base class', () => {
  it('releases the links of the previous frame when it redraws', async () => {
    const { root, view: v } = await view();
    const before = keysIn(pane(root, 'source'));
    expect(before.length).toBeGreaterThan(0);
    const drawn = before.flatMap(key => v.linker.rowsFor(key));
    await select(root, '1/0');
    const stale = drawn.filter(el => !el.isConnected);
    expect(stale.length).toBeGreaterThan(0); // the source and bytecode rows of [0/0] are gone from the page...
    for (const key of before) {
      for (const el of v.linker.rowsFor(key)) {
        expect(el.isConnected, `${key}: a row of a previous drawing is still linked`).toBe(true); // ...and from the linker
      }
    }
  });

  it('keeps report-wide links (graph-break cards) across frame selections', async () => {
    const { root, view: v } = await view();
    const card = pane(root, 'graph-breaks').querySelector<HTMLElement>('.jp-DynamoExplorer-break[data-line-key]')!;
    const key = card.dataset.lineKey!;
    await select(root, '1/0');
    await select(root, '0/0');
    expect(v.linker.rowsFor(key)).toContain(card);
  });

  it('releases every link it made when disposed, and draws nothing more', async () => {
    const { view: v } = await view();
    const source = v.panes.get('source')!;
    const keys = keysIn(source.element);
    const own = new Set(source.element.querySelectorAll('[data-line-key]'));
    expect(keys.some(key => v.linker.rowsFor(key).some(el => own.has(el)))).toBe(true);
    source.dispose();
    for (const key of keys) {
      expect(v.linker.rowsFor(key).filter(el => own.has(el))).toHaveLength(0);
    }
    // the other panes keep theirs
    expect(keys.some(key => v.linker.rowsFor(key).length > 0)).toBe(true);
    const text = source.element.textContent;
    await source.update(null);
    expect(source.element.textContent).toBe(text);
    const breaks = v.panes.get('graph-breaks')!;
    const cardKey = keysIn(breaks.element)[0];
    breaks.dispose();
    expect(v.linker.rowsFor(cardKey).filter(el => breaks.element.contains(el))).toHaveLength(0);
  });

  it("shows the '<no frame>' state in every per-frame pane of a report without frames, the cell in the source pane", async () => {
    const report = golden('toy_example');
    report.frames = [];
    report.graphs = [];
    report.output_code = [];
    const { root } = await render(report);
    await settled(root);
    expect(root.dataset.status).toBe('ready');
    for (const name of ['original-bytecode', 'modified-bytecode', 'guards', 'fx-graph'] as const) {
      expect(pane(root, name).querySelector('.jp-DynamoExplorer-empty')!.textContent, name).toBe('<no frame>');
    }
    const source = pane(root, 'source');
    expect(source.querySelector('.jp-DynamoExplorer-empty')).toBeNull();
    expect(source.querySelectorAll('.jp-DynamoExplorer-row')).toHaveLength(report.cell.source.split('\n').length);
    report.cell.source = '';
    const { root: empty } = await render(report);
    await settled(empty);
    expect(pane(empty, 'source').querySelector('.jp-DynamoExplorer-empty')!.textContent).toBe('<no frame>');
    expect(pane(root, 'code').querySelector('.jp-DynamoExplorer-empty')!.textContent).toBe(
      '<no graph code or output code for this frame>'
    );
    expect(pane(root, 'frames').textContent).toContain('Dynamo compiled no frame in this cell.');
  });
});
