/**
 * Renders every golden report through the real renderer (jsdom + real wasm graphviz) and checks what a
 * user sees: panes present, counts right, frame tree, links resolved, SVG drawn, breaks marked, hover links.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PANES, type CompileReport, type Frame, type Guard } from '../src/schema';
import { parseCompileId } from '../src/model/model';
import { guardTier } from '../src/model/guardsModel';
import { loadGoldens, pane, render, settled } from './helpers';

/** Graph kinds the FX pane draws: compiled graphs, and the partial graph of a fullgraph error. */
const DRAWN_KINDS = ['dynamo', 'dynamo_partial'];

afterEach(() => {
  document.body.textContent = '';
});

/** Compile ids whose second number is > 0 (recompiles), computed here independently of the renderer. */
function recompiles(report: CompileReport): number {
  return report.frames.filter(f => parseCompileId(f.compile_id).index > 0).length;
}

/** A frame's chain of recompiles: its compile id less the compile index ('1/2@1' -> '1@1'). */
function chainOf(compileId: string): string {
  const parts = parseCompileId(compileId);
  return `${parts.prefix}${parts.frameId}${parts.epoch ? `@${parts.epoch}` : ''}`;
}

async function select(root: HTMLElement, frame: Frame): Promise<void> {
  const chip = root.querySelector<HTMLElement>(`[data-pane="frames"] [data-compile-id="${frame.compile_id}"]`);
  expect(chip, `chip of [${frame.compile_id}]`).not.toBeNull();
  chip!.click();
  await settled(root);
  expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe(frame.compile_id);
}

describe.each(loadGoldens())('golden %s', (_name, report) => {
  it('renders every pane and reaches ready', async () => {
    const { root } = await render(report);
    expect(root.classList.contains('jp-DynamoExplorer')).toBe(true);
    expect(root.dataset.status).toBe('ready');
    // every pane of the schema's list, whatever the report holds, once each
    for (const name of PANES) {
      expect(root.querySelectorAll(`[data-pane="${name}"]`), name).toHaveLength(1);
    }
    expect(root.querySelector('.jp-DynamoExplorer-unsupported')).toBeNull();
  });

  it('shows the right counts', async () => {
    const { root } = await render(report);
    const count = (name: string): number => Number(root.querySelector(`[data-count="${name}"]`)!.textContent);
    expect(count('frames')).toBe(report.frames.length);
    expect(count('graphs')).toBe(report.graphs.filter(g => g.kind === 'dynamo').length);
    expect(count('breaks')).toBe(report.frames.reduce((n, f) => n + f.graph_breaks.length, 0));
    expect(count('recompiles')).toBe(recompiles(report));
    const breakCards = pane(root, 'graph-breaks').querySelectorAll<HTMLElement>('.jp-DynamoExplorer-break');
    const unique = new Set(
      report.frames.flatMap(f =>
        f.graph_breaks.map(gb => JSON.stringify([gb.gb_type, gb.reason, gb.filename, gb.line]))
      )
    );
    expect(breakCards).toHaveLength(unique.size);
    const total = Array.from(breakCards).reduce((n, c) => n + Number(c.dataset.count), 0);
    expect(total).toBe(count('breaks'));
  });

  it('nests resume functions under their parent and chains recompiles', async () => {
    const { root } = await render(report);
    const nav = pane(root, 'frames');
    expect(nav.querySelectorAll('[data-compile-id]')).toHaveLength(report.frames.length);
    for (const frame of report.frames) {
      const chip = nav.querySelector<HTMLElement>(`[data-compile-id="${frame.compile_id}"]`)!;
      expect(chip.dataset.status).toBe(frame.status);
      if (frame.parent_compile_id && report.frames.some(f => f.compile_id === frame.parent_compile_id)) {
        const ownItem = chip.closest('li')!;
        const parentItem = ownItem.parentElement!.closest('li');
        expect(parentItem, `[${frame.compile_id}] nested`).not.toBeNull();
        const parentIds = Array.from(
          parentItem!
            .querySelector(':scope > .jp-DynamoExplorer-treeRow')!
            .querySelectorAll<HTMLElement>('[data-compile-id]')
        ).map(c => c.dataset.compileId);
        const parent = report.frames.find(f => f.compile_id === frame.parent_compile_id)!;
        const parentChain = chainOf(parent.compile_id);
        expect(parentIds.some(id => chainOf(id!) === parentChain)).toBe(true);
      }
      const chainKey = chainOf(frame.compile_id);
      const sameChain = report.frames.filter(f => chainOf(f.compile_id) === chainKey);
      const row = chip.closest('.jp-DynamoExplorer-treeRow')!;
      expect(row.querySelectorAll('[data-compile-id]')).toHaveLength(sameChain.length);
    }
  });

  it('resolves __compiled_fn_* and __resume_at_* links', async () => {
    const { root } = await render(report);
    const graphIds = new Set(report.graphs.map(g => g.id));
    const frameIds = new Set(report.frames.map(f => f.compile_id));
    for (const frame of report.frames) {
      await select(root, frame);
      const modified = pane(root, 'modified-bytecode');
      for (const ins of frame.modified_bytecode) {
        const ref = ins.ref;
        if (ref?.kind === 'compiled_fn' && ref.graph_id !== null && graphIds.has(ref.graph_id)) {
          expect(
            modified.querySelector(`a[data-ref-kind="compiled_fn"][data-graph-id="${ref.graph_id}"]`),
            ref.name
          ).not.toBeNull();
        }
        if (ref?.kind === 'resume' && ref.compile_id !== null && frameIds.has(ref.compile_id)) {
          expect(
            modified.querySelector(`a[data-ref-kind="resume"][data-compile-id="${ref.compile_id}"]`),
            ref.name
          ).not.toBeNull();
        }
      }
    }
    // Follow each link once: a compiled_fn link shows its graph, a resume link shows its frame.
    for (const frame of report.frames) {
      for (const ins of frame.modified_bytecode) {
        const ref = ins.ref;
        if (
          !ref ||
          !(
            (ref.kind === 'compiled_fn' && ref.graph_id !== null && graphIds.has(ref.graph_id)) ||
            (ref.kind === 'resume' && ref.compile_id && frameIds.has(ref.compile_id))
          )
        ) {
          continue;
        }
        await select(root, frame);
        const selector =
          ref.kind === 'compiled_fn'
            ? `a[data-graph-id="${ref.graph_id}"]`
            : `a[data-ref-kind="resume"][data-compile-id="${ref.compile_id}"]`;
        pane(root, 'modified-bytecode').querySelector<HTMLElement>(selector)!.click();
        await settled(root);
        if (ref.kind === 'compiled_fn') {
          expect(pane(root, 'fx-graph').dataset.graphId).toBe(String(ref.graph_id));
          const graph = report.graphs.find(g => g.id === ref.graph_id)!;
          expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe(
            graph.compile_id
          );
        } else {
          expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe(
            ref.compile_id
          );
        }
      }
    }
  });

  it('draws each frame graph as SVG with one box per FX node', async () => {
    const { root } = await render(report);
    for (const frame of report.frames) {
      await select(root, frame);
      const fx = pane(root, 'fx-graph');
      const graph = report.graphs.find(g => frame.graph_ids.includes(g.id) && DRAWN_KINDS.includes(g.kind));
      if (!graph) {
        expect(fx.querySelector('svg')).toBeNull();
        continue;
      }
      expect(fx.dataset.state).toBe('drawn');
      const drawn = Array.from(fx.querySelectorAll<SVGGElement>('svg g.node[data-node]')).map(g =>
        g.getAttribute('data-node')
      );
      expect(drawn.sort()).toEqual(graph.nodes.map(n => n.name).sort());
      // Clicking a node shows its details.
      const node = graph.nodes.find(n => n.op === 'call_function') ?? graph.nodes[0];
      fx.querySelector(`svg g.node[data-node="${node.name}"]`)!.dispatchEvent(
        new MouseEvent('click', { bubbles: true })
      );
      const details = fx.querySelector('.jp-DynamoExplorer-nodeDetails')!;
      expect(details.querySelector('[data-node]')!.textContent).toBe(node.name);
      expect(details.textContent).toContain(node.target);
    }
  });

  it('marks graph-break lines in the source gutter and jumps to them', async () => {
    const { root } = await render(report);
    for (const frame of report.frames) {
      const breaks = frame.graph_breaks.filter(gb => gb.line !== null && gb.filename === report.cell.filename);
      if (!frame.code.in_cell || breaks.length === 0) {
        continue;
      }
      await select(root, frame);
      const source = pane(root, 'source');
      for (const gb of breaks) {
        const row = source.querySelector<HTMLElement>(`[data-line="${gb.line}"]`)!;
        expect(row.classList.contains('jp-mod-break')).toBe(true);
        expect(row.querySelector('[data-mark="break"]')).not.toBeNull();
        expect(row.textContent).toContain(report.cell.source.split('\n')[gb.line! - 1].trim());
      }
      const jump = pane(root, 'graph-breaks').querySelector<HTMLElement>(`[data-jump="${breaks[0].line}"]`)!;
      jump.click();
      await settled(root);
      expect(
        pane(root, 'source').querySelector(`[data-line="${breaks[0].line}"]`)!.classList.contains('jp-mod-selected')
      ).toBe(true);
    }
  });

  it('links a hovered source line to its bytecode rows and FX nodes', async () => {
    const { root } = await render(report);
    for (const frame of report.frames.filter(f => f.code.in_cell)) {
      await select(root, frame);
      const line = frame.original_bytecode.find(i => i.line !== null && i.line > frame.code.firstlineno)?.line;
      if (line === undefined) {
        continue;
      }
      pane(root, 'source')
        .querySelector(`[data-line="${line}"] .jp-DynamoExplorer-lineCode`)!
        .dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      const linkedOriginal = pane(root, 'original-bytecode').querySelectorAll('.jp-mod-linked');
      expect(linkedOriginal.length).toBe(frame.original_bytecode.filter(i => i.line === line).length);
      const graph = report.graphs.find(g => frame.graph_ids.includes(g.id) && DRAWN_KINDS.includes(g.kind));
      const nodesOnLine = graph
        ? graph.nodes.filter(
            n => n.line === line && (n.filename === report.cell.filename || n.filename === frame.code.filename)
          )
        : [];
      expect(pane(root, 'fx-graph').querySelectorAll('svg g.node.jp-mod-linked')).toHaveLength(nodesOnLine.length);
      root.dispatchEvent(new MouseEvent('mouseleave'));
      expect(root.querySelectorAll('.jp-mod-linked')).toHaveLength(0);
      // And back: hovering an FX node of that line lights the source line.
      const node = pane(root, 'fx-graph').querySelector(`svg g.node[data-line-key="cell:${line}"]`);
      if (node && frame.code.filename === report.cell.filename) {
        node.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
        expect(pane(root, 'source').querySelector(`[data-line="${line}"]`)!.classList.contains('jp-mod-linked')).toBe(
          true
        );
        root.dispatchEvent(new MouseEvent('mouseleave'));
      }
    }
  });

  it('shows guards grouped by source, with the failed guard of a recompile', async () => {
    const { root } = await render(report);
    for (const frame of report.frames) {
      await select(root, frame);
      const guards = pane(root, 'guards');
      for (
        let more = guards.querySelector<HTMLElement>('.jp-DynamoExplorer-more');
        more;
        more = guards.querySelector<HTMLElement>('.jp-DynamoExplorer-more')
      ) {
        more.click();
      }
      expect(guards.querySelectorAll('.jp-DynamoExplorer-guardGroup .jp-DynamoExplorer-guard')).toHaveLength(
        frame.guards.length
      );
      // One group per source; the root guards (no source) split into the shape guards, the checks between inputs
      // and the global state.
      const shapeExprs = new Set(report.shape_guards.filter(s => s.compile_id === frame.compile_id).map(s => s.expr));
      const rootKind = (g: Guard): string => (g.source ? '' : guardTier(g, shapeExprs));
      expect(guards.querySelectorAll('.jp-DynamoExplorer-guardGroup')).toHaveLength(
        new Set(frame.guards.map(g => `${g.source}|${rootKind(g)}`)).size
      );
      if (frame.recompile_reasons.length > 0) {
        const reasons = guards.querySelector('[data-section="recompile-reasons"]')!;
        for (const r of frame.recompile_reasons) {
          expect(reasons.textContent).toContain(r.reason);
        }
        expect(guards.querySelector('[data-section="guard-diff"]')).not.toBeNull();
      }
    }
  });
});

describe('FX node search', () => {
  it('finds a node by name, draws it and shows its details', async () => {
    // a report whose first frame (the one shown first) has a Dynamo graph of a few nodes
    const [, report] = loadGoldens().find(([, r]) =>
      r.graphs.some(g => g.kind === 'dynamo' && g.compile_id === r.frames[0]?.compile_id && g.nodes.length > 3)
    )!;
    const { root } = await render(report);
    const fx = pane(root, 'fx-graph');
    const graphId = Number(fx.dataset.graphId);
    const graph = report.graphs.find(g => g.id === graphId)!;
    const target = graph.nodes[graph.nodes.length - 2];
    const input = fx.querySelector<HTMLInputElement>('input[type="search"]')!;
    input.value = target.name;
    input.dispatchEvent(new Event('input'));
    const hit = fx.querySelector<HTMLElement>(`.jp-DynamoExplorer-searchResults button[data-node="${target.name}"]`)!;
    expect(hit).not.toBeNull();
    hit.click();
    await settled(root);
    await new Promise(r => setTimeout(r, 50));
    expect(fx.querySelector(`svg g.node[data-node="${target.name}"]`)!.classList.contains('jp-mod-selected')).toBe(
      true
    );
    expect(fx.querySelector('.jp-DynamoExplorer-detailsTitle')!.textContent).toBe(target.name);
    input.value = 'no-such-node-anywhere';
    input.dispatchEvent(new Event('input'));
    expect(fx.querySelector('.jp-DynamoExplorer-searchResults')!.textContent).toContain('no node matches');
  });

  it('shows the table view', async () => {
    const [, report] = loadGoldens().find(([, r]) => r.graphs.some(g => g.kind === 'dynamo'))!;
    const { root } = await render(report);
    const fx = pane(root, 'fx-graph');
    const graph = report.graphs.find(g => g.id === Number(fx.dataset.graphId))!;
    fx.querySelector<HTMLElement>('.jp-DynamoExplorer-toggle button[data-value="table"]')!.click();
    await new Promise(r => setTimeout(r, 20));
    const rows = fx.querySelectorAll('table tbody tr');
    expect(rows).toHaveLength(graph.nodes.length);
    expect(fx.querySelector('.jp-DynamoExplorer-picture')!.hasAttribute('hidden')).toBe(true);
  });
});

describe('recompiles', () => {
  const withRecompile = loadGoldens().filter(([, r]) =>
    r.frames.some(f => f.recompile_reasons.length > 0 && /tensor '/.test(f.recompile_reasons[0].reason))
  );

  it.runIf(withRecompile.length > 0)('highlights the tensor guard that failed', async () => {
    const [, report] = withRecompile[0];
    const { root } = await render(report);
    const frame = report.frames.find(f => f.recompile_reasons.length > 0)!;
    await select(root, frame);
    const failed = pane(root, 'guards').querySelectorAll('.jp-mod-failed');
    expect(failed.length).toBeGreaterThan(0);
    const name = /tensor '([^']+)'/.exec(frame.recompile_reasons[0].reason)![1];
    expect(Array.from(failed).some(el => el.textContent!.includes(name))).toBe(true);
  });

  it('has a golden with a recompile', () => {
    expect(withRecompile.length).toBeGreaterThan(0);
  });
});

describe('code in an earlier notebook cell', () => {
  const goldens = loadGoldens().filter(([, r]) => (r.sources ?? []).some(s => s.kind === 'notebook-cell'));

  it('has a golden whose frames live in an earlier cell', () => {
    expect(goldens.length).toBeGreaterThan(0);
  });

  it.runIf(goldens.length > 0)(
    'shows that cell in the source pane and names it In [n] in every line link',
    async () => {
      const [, report] = goldens[0];
      const earlier = report.sources!.find(s => s.kind === 'notebook-cell')!;
      const frame = report.frames.find(f => f.code.filename === earlier.filename && f.graph_breaks.length > 0)!;
      const gb = frame.graph_breaks.find(b => b.filename === earlier.filename)!;
      const { root } = await render(report);
      await select(root, frame);
      const source = pane(root, 'source');
      expect(source.textContent).toContain(`Source (${earlier.label})`);
      const lines = earlier.excerpts[0].text.split('\n');
      const row = source.querySelector<HTMLElement>(`[data-line="${gb.line}"]`)!;
      expect(row.textContent).toContain(lines[gb.line! - earlier.excerpts[0].first_line].trim());
      expect(row.classList.contains('jp-mod-break')).toBe(true);
      // the break card names the cell as IPython does, and jumping to it selects that row
      const jump = pane(root, 'graph-breaks').querySelector<HTMLElement>(`[data-jump="${gb.line}"]`)!;
      expect(jump.textContent).toBe(`${earlier.label}, line ${gb.line}`);
      jump.click();
      await settled(root);
      expect(
        pane(root, 'source').querySelector(`[data-line="${gb.line}"]`)!.classList.contains('jp-mod-selected')
      ).toBe(true);
      expect(root.textContent).not.toContain(earlier.filename);
    }
  );
});

describe('fullgraph partial report', () => {
  const goldens = loadGoldens().filter(([, r]) => r.graphs.some(g => g.kind === 'dynamo_partial'));

  it('has a golden with a partial graph', () => {
    expect(goldens.length).toBeGreaterThan(0);
  });

  it.runIf(goldens.length > 0)('draws the graph traced before the error, marked as never compiled', async () => {
    const [, report] = goldens[0];
    const graph = report.graphs.find(g => g.kind === 'dynamo_partial')!;
    const frame = report.frames.find(f => f.compile_id === graph.compile_id)!;
    const { root } = await render(report);
    await select(root, frame);
    const fx = pane(root, 'fx-graph');
    expect(fx.dataset.graphId).toBe(String(graph.id));
    expect(fx.textContent).toContain('partial graph: traced before the error, never compiled');
    expect(fx.querySelectorAll('svg g.node').length).toBe(graph.nodes.length);
    // the frame's original bytecode is there although Dynamo made no modified code
    expect(pane(root, 'original-bytecode').querySelectorAll('[data-offset]').length).toBe(
      frame.original_bytecode.length
    );
    expect(root.querySelector('[data-count="graphs"]')!.textContent).toBe('0');
  });
});

describe('compile ids after a reset', () => {
  it('reads the reset a compile id came after and keeps its chain apart', () => {
    expect(parseCompileId('1/2@3')).toEqual({ prefix: '', frameId: 1, index: 2, epoch: 3 });
    expect(parseCompileId('!0/1/2')).toEqual({ prefix: '!0/', frameId: 1, index: 2, epoch: 0 });
    expect(chainOf('0/1@1')).not.toBe(chainOf('0/1'));
  });
});
