/**
 * A report that holds a frame's guards and guard tree only in part (schema `parts_cut`, minor 9): the guards pane
 * says how much it holds and loads the whole from the kernel through the view's host (partsModel.ts,
 * view/panes/partControl.ts): here the widget host (src/hosts/anywidget.ts), whose kernel answers `part?` as
 * kernel_ext/parts.py does, a big part gzip + base64. Without a host (the MIME renderer in jsdom, no notebook),
 * the click says where to see it. The real kernel round trip runs in tests/browser/test_widget.py and
 * tests/kernel/test_kernel_widget.py.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyModel, RenderProps } from '@anywidget/types';
import widget, { type IExplorerState } from '../src/hosts/anywidget';
import { setReportHost } from '../src/view/reportHub';
import { guardRowsFromTree } from '../src/model/guardTree';
import { embedParts, embeddedLoader, heldIn, loadKey } from '../src/model/partsModel';
import { RenderedReport } from '../src/hosts/widget';
import { MIME_TYPE, PARTS_MIME_TYPE } from '../src/schema';
import type { CompileReport, PartCut } from '../src/schema';
import { golden, mimeModel, pane, render, settled } from './helpers';

/** The toy example with [0/0]'s guards cut to 2 and its tree to 3 lines, and what the kernel keeps whole. */
function cutReport(): { report: CompileReport; whole: Record<string, unknown> } {
  const report = golden('toy_example');
  const frame = report.frames[0];
  const guards = frame.guards;
  const tree = frame.guard_tree!;
  const kept = tree.split('\n').slice(0, 3).join('\n');
  const cuts: PartCut[] = [
    { key: 'k1:guards:0/0', part: 'guards', compile_id: frame.compile_id, kept: 2, total: guards.length },
    {
      key: 'k2:guard_tree:0/0',
      part: 'guard_tree',
      compile_id: frame.compile_id,
      kept: kept.length,
      total: tree.length
    }
  ];
  frame.guards = guards.slice(0, 2);
  frame.guard_tree = `${kept}\n... (truncated)`;
  report.parts_cut = cuts;
  return { report, whole: { 'k1:guards:0/0': guards, 'k2:guard_tree:0/0': tree } };
}

/** The toy example as a trace's report leaves a big guard tree: kept 0, both parts in the log (minor 24). */
function logReport(): { report: CompileReport; whole: Record<string, unknown> } {
  const report = golden('toy_example');
  const frame = report.frames[0];
  const guards = frame.guards;
  const tree = frame.guard_tree!;
  const log = { path: '/tmp/trace/dedicated_log_torch_trace_x.log', offset: 1200, length: tree.length + 40 };
  report.parts_cut = [
    { key: 'k3:guards:0/0', part: 'guards', compile_id: frame.compile_id, kept: 0, total: guards.length, log },
    { key: 'k4:guard_tree:0/0', part: 'guard_tree', compile_id: frame.compile_id, kept: 0, total: tree.length, log }
  ];
  frame.guard_count = guards.length;
  frame.guards = [];
  frame.guard_tree = null;
  return { report, whole: { 'k3:guards:0/0': guards, 'k4:guard_tree:0/0': tree } };
}

/** A widget model whose kernel answers the report and each part; a part's JSON over 200 bytes goes gzip + base64. */
function kernelModel(
  report: CompileReport,
  whole: Record<string, unknown>
): { model: AnyModel<IExplorerState>; asked: string[] } {
  const handlers = new Set<(m: unknown) => void>();
  const asked: string[] = [];
  const answer = (message: object): void => void setTimeout(() => handlers.forEach(h => h(message)), 0);
  const fake = {
    get: (key: string) => (key === 'summary' ? 'dynamo: 3 frames' : undefined),
    on: (_e: string, h: (m: unknown) => void) => handlers.add(h),
    off: (_e: string, h: (m: unknown) => void) => handlers.delete(h),
    send: (message: { kind: string; key?: string }) => {
      if (message.kind === 'report?') {
        answer({ kind: 'report', report, cell: null });
      } else if (message.kind === 'part?') {
        asked.push(message.key!);
        const value = whole[message.key!];
        const raw = JSON.stringify(value ?? null);
        const part =
          raw.length > 200
            ? { encoding: 'gzip+base64', data: gzipSync(raw).toString('base64'), bytes: raw.length }
            : value;
        answer(
          value === undefined
            ? { kind: 'part', key: message.key, part: null, error: 'no longer kept' }
            : { kind: 'part', key: message.key, part, error: null }
        );
      }
    }
  };
  return { model: fake as unknown as AnyModel<IExplorerState>, asked };
}

/** The explorer the widget host draws for `model`, once it is ready. */
async function drawWidget(model: AnyModel<IExplorerState>): Promise<HTMLElement> {
  const el = document.createElement('div');
  document.body.appendChild(el);
  const props = { model, el, signal: new AbortController().signal, host: {}, experimental: {} };
  await widget.render(props as unknown as RenderProps<IExplorerState>);
  const root = el.querySelector<HTMLElement>('.jp-DynamoExplorer')!;
  await settled(root);
  return root;
}

afterEach(() => {
  document.body.textContent = '';
});

describe('parts a report holds only in part', () => {
  it('loads all the guards and the whole guard tree from the kernel on request', async () => {
    const { report, whole } = cutReport();
    const total = (whole['k1:guards:0/0'] as unknown[]).length;
    const { model, asked } = kernelModel(report, whole);
    const root = await drawWidget(model);
    const guards = pane(root, 'guards');
    const line = guards.querySelector<HTMLElement>('.jp-DynamoExplorer-partCut[data-part="guards"]')!;
    expect(line.textContent).toContain(`The report holds the first 2 of ${total} guards`);
    line.querySelector<HTMLButtonElement>('button')!.click();
    await vi.waitFor(() => expect(guards.querySelector('.jp-DynamoExplorer-partCut[data-part="guards"]')).toBeNull());
    expect(asked).toEqual(['k1:guards:0/0']);
    expect(report.frames[0].guards.length).toBe(total);
    expect(guards.textContent).toContain(`(${total})`);
    // the tree: its line sits in the tree's <details>; the whole tree replaces the cut one, the details open
    const treeLine = guards.querySelector<HTMLElement>('.jp-DynamoExplorer-guardTree .jp-DynamoExplorer-partCut')!;
    treeLine.querySelector<HTMLButtonElement>('button')!.click();
    // the details open and the whole tree drawn in them (a loaded machine may draw the tree a tick after opening)
    await vi.waitFor(() => {
      expect(guards.querySelector('.jp-DynamoExplorer-guardTree')?.hasAttribute('open')).toBe(true);
      expect(guards.querySelector('.jp-DynamoExplorer-guardTree pre')).not.toBeNull();
    });
    expect(report.frames[0].guard_tree).toBe(whole['k2:guard_tree:0/0']);
    expect(report.parts_cut).toEqual([]);
    expect(guards.querySelector('.jp-DynamoExplorer-guardTree pre')!.textContent).not.toContain('(truncated)');
  });

  it("loads a frame's whole modified bytecode and a graph's whole code from the kernel (minor 25)", async () => {
    const report = golden('toy_example');
    const frame = report.frames.find(f => f.modified_bytecode.length > 4)!;
    const graph = report.graphs.find(g => g.compile_id === frame.compile_id && g.kind === 'dynamo')!;
    const listing = frame.modified_bytecode;
    const code = graph.code;
    const cid = frame.compile_id;
    const cutAt = code.indexOf('\n', 10);
    report.parts_cut = [
      { key: 'b:modified_bytecode', part: 'modified_bytecode', compile_id: cid, kept: 3, total: listing.length },
      { key: 'c:graph_code', part: 'graph_code', compile_id: cid, kept: cutAt, total: code.length, graph: graph.id }
    ];
    frame.modified_bytecode = listing.slice(0, 3);
    graph.code = code.slice(0, cutAt);
    const { model, asked } = kernelModel(report, { 'b:modified_bytecode': listing, 'c:graph_code': code });
    const root = await drawWidget(model);
    pane(root, 'frames').querySelector<HTMLElement>(`[data-compile-id="${cid}"]`)?.click();
    await settled(root);
    const bytecode = pane(root, 'modified-bytecode');
    const line = bytecode.querySelector<HTMLElement>('.jp-DynamoExplorer-partCut[data-part="modified_bytecode"]')!;
    expect(line.textContent).toContain(`The report holds the first 3 of ${listing.length} instructions`);
    line.querySelector<HTMLButtonElement>('button')!.click();
    await vi.waitFor(() => expect(bytecode.querySelector('.jp-DynamoExplorer-partCut')).toBeNull());
    expect(frame.modified_bytecode).toEqual(listing);
    const codePane = pane(root, 'code');
    const codeLine = codePane.querySelector<HTMLElement>('.jp-DynamoExplorer-partCut[data-part="graph_code"]')!;
    expect(codeLine.textContent).toContain(
      `The report holds the first ${cutAt} of ${code.length} characters of its code`
    );
    codeLine.querySelector<HTMLButtonElement>('button')!.click();
    await vi.waitFor(() => expect(codePane.querySelector('.jp-DynamoExplorer-partCut')).toBeNull());
    expect(graph.code).toBe(code);
    expect(codePane.querySelectorAll('.jp-DynamoExplorer-codeLines .jp-DynamoExplorer-row').length).toBe(
      code.split('\n').length
    );
    expect(asked).toEqual(['b:modified_bytecode', 'c:graph_code']);
    expect(report.parts_cut).toEqual([]);
  });

  it('says why when the kernel no longer keeps the part, and the button stays', async () => {
    const { report } = cutReport();
    const { model } = kernelModel(report, {});
    const root = await drawWidget(model);
    const line = pane(root, 'guards').querySelector<HTMLElement>('.jp-DynamoExplorer-partCut[data-part="guards"]')!;
    line.querySelector<HTMLButtonElement>('button')!.click();
    await vi.waitFor(() => expect(line.dataset.state).toBe('error'));
    expect(line.textContent).toContain('Not loaded: no longer kept');
    expect(line.querySelector<HTMLButtonElement>('button')!.disabled).toBe(false);
  });

  it("loads a trace's big guard tree and its rows from the log through the kernel that opened it", async () => {
    const { report, whole } = logReport();
    const total = (whole['k3:guards:0/0'] as unknown[]).length;
    const { model, asked } = kernelModel(report, whole);
    const root = await drawWidget(model);
    const guards = pane(root, 'guards');
    // one count before anything is loaded: the frame's guard_count; no '<no guards>' for guards still in the log
    expect(guards.textContent).toContain(`(${total})`);
    expect(guards.textContent).not.toContain('<no guards>');
    const line = guards.querySelector<HTMLElement>('.jp-DynamoExplorer-partCut[data-part="guards"]')!;
    expect(line.textContent).toContain(`The report left ${total} guards in the trace's log (/tmp/trace/`);
    expect(line.querySelector('button')!.textContent).toBe(`Load all ${total} from the trace's log`);
    line.querySelector<HTMLButtonElement>('button')!.click();
    await vi.waitFor(() => expect(guards.querySelector('.jp-DynamoExplorer-partCut[data-part="guards"]')).toBeNull());
    expect(report.frames[0].guards).toEqual(whole['k3:guards:0/0']);
    // the tree: a <details> with only its line until loaded, then the whole tree
    const tree = guards.querySelector<HTMLElement>('.jp-DynamoExplorer-guardTree')!;
    expect(tree.querySelector('summary')!.textContent).toContain('in the log');
    tree.querySelector<HTMLButtonElement>('.jp-DynamoExplorer-partCut button')!.click();
    await vi.waitFor(() => expect(guards.querySelector('.jp-DynamoExplorer-guardTree pre')).not.toBeNull());
    expect(report.frames[0].guard_tree).toBe(whole['k4:guard_tree:0/0']);
    expect(asked).toEqual(['k3:guards:0/0', 'k4:guard_tree:0/0']);
    expect(report.parts_cut).toEqual([]);
  });

  it("without a kernel, a part in a trace's log names the two ways to see it", async () => {
    setReportHost(null);
    const { report } = logReport();
    const { root } = await render(report);
    const line = pane(root, 'guards').querySelector<HTMLElement>('.jp-DynamoExplorer-partCut[data-part="guards"]')!;
    line.querySelector<HTMLButtonElement>('button')!.click();
    await vi.waitFor(() => expect(line.dataset.state).toBe('no-kernel'));
    expect(line.textContent).toContain('%dynamo_open /tmp/trace/dedicated_log_torch_trace_x.log');
    expect(line.textContent).toContain('--html');
  });

  it("in a page that holds a trace's trees, loads the rows and the tree from the page", async () => {
    setReportHost(null);
    const { report, whole } = logReport();
    const tree = whole['k4:guard_tree:0/0'] as string;
    const big = {
      encoding: 'gzip+base64',
      data: gzipSync(JSON.stringify(tree)).toString('base64'),
      bytes: tree.length
    };
    embedParts({ keys: { 'k3:guards:0/0': 0, 'k4:guard_tree:0/0': 0 }, blobs: [big] }); // one tree for both parts
    try {
      const { root } = await render(report);
      const guards = pane(root, 'guards');
      const line = guards.querySelector<HTMLElement>('.jp-DynamoExplorer-partCut[data-part="guards"]')!;
      expect(line.querySelector('button')!.textContent).toContain('from this page');
      line.querySelector<HTMLButtonElement>('button')!.click();
      await vi.waitFor(() => expect(guards.querySelector('.jp-DynamoExplorer-partCut[data-part="guards"]')).toBeNull());
      const frame = report.frames[0];
      expect(frame.guards).toEqual(guardRowsFromTree(tree, frame.code.filename)); // derived in the view
      expect(frame.guards.length).toBeGreaterThan(0);
      guards
        .querySelector<HTMLButtonElement>('.jp-DynamoExplorer-guardTree .jp-DynamoExplorer-partCut button')!
        .click();
      await vi.waitFor(() => expect(report.parts_cut).toEqual([]));
      expect(frame.guard_tree).toBe(tree);
    } finally {
      embedParts(null);
    }
  });

  it("a notebook's output holds its parts beside its report: Load all without a kernel, let go when disposed", async () => {
    setReportHost(null); // a saved notebook opened without a kernel
    const { report, whole } = cutReport();
    const rows = whole['k1:guards:0/0'] as unknown[];
    const raw = JSON.stringify(rows);
    const stored = { encoding: 'gzip+base64', data: gzipSync(raw).toString('base64'), bytes: raw.length };
    const widget = new RenderedReport(MIME_TYPE);
    document.body.appendChild(widget.node);
    const held = { keys: { 'k1:guards:0/0': 0, 'k2:guard_tree:0/0': 1 }, blobs: [stored, whole['k2:guard_tree:0/0']] };
    const model = mimeModel(report);
    await widget.renderModel({ ...model, data: { ...model.data, [PARTS_MIME_TYPE]: held as never } });
    const guards = pane(widget.node, 'guards');
    const line = guards.querySelector<HTMLElement>('.jp-DynamoExplorer-partCut[data-part="guards"]')!;
    expect(line.querySelector('button')!.textContent).toBe(`Load all ${rows.length} from this notebook`);
    line.querySelector<HTMLButtonElement>('button')!.click();
    await vi.waitFor(() => expect(guards.querySelector('.jp-DynamoExplorer-partCut[data-part="guards"]')).toBeNull());
    expect(report.frames[0].guards).toEqual(rows);
    expect(heldIn('k2:guard_tree:0/0')).toBe('notebook');
    widget.dispose();
    expect(heldIn('k2:guard_tree:0/0')).toBeNull();
    expect(embeddedLoader()).toBeNull();
  });

  it('asks the kernel once to complete an output that lacks a part, and keeps its view when the parts come', async () => {
    // [Note: an output completed once drawn] (kernel_ext/parts.py)
    const asked: Array<[HTMLElement, string]> = [];
    const release = setReportHost({
      cellSource: () => null,
      runBelow: async () => undefined,
      completeParts: async (node, key) => {
        asked.push([node, key]);
        return { key, held: 2, error: null };
      }
    });
    const { report, whole } = cutReport();
    const widget = new RenderedReport(MIME_TYPE);
    document.body.appendChild(widget.node);
    try {
      const model = mimeModel(report); // shown with none of its parts (past the output's first budget)
      await widget.renderModel(model);
      await vi.waitFor(() => expect(asked).toHaveLength(1));
      expect(asked[0]).toEqual([widget.node, 'k1:guards:0/0']);
      expect(widget.node.dataset.partsHeld).toBe('0');
      const drawn = widget.view;
      const firstPane = pane(widget.node, 'guards');
      // the kernel's display update: the same report, every part beside it
      const held = { keys: { 'k1:guards:0/0': 0, 'k2:guard_tree:0/0': 1 }, blobs: Object.values(whole) };
      await widget.renderModel({ ...model, data: { ...model.data, [PARTS_MIME_TYPE]: held as never } });
      expect(widget.view).toBe(drawn); // not drawn again
      expect(pane(widget.node, 'guards')).toBe(firstPane);
      expect(widget.node.dataset.partsHeld).toBe('2');
      expect(heldIn('k1:guards:0/0')).toBe('notebook');
      await new Promise(r => setTimeout(r, 50));
      expect(asked).toHaveLength(1); // once
      // another report in the same output is drawn
      await widget.renderModel(mimeModel(golden('recompile_dtype')));
      expect(widget.view).not.toBe(drawn);
    } finally {
      widget.dispose();
      release();
    }
  });

  it("reads a tree a page holds as the trace's log held it, each line after a tab", async () => {
    const tree =
      "TREE_GUARD_MANAGER:\n+- RootGuardManager\n| +- TENSOR_MATCH: check_tensor(L['x'])  # x + 1  # a.py:3 in f";
    const tabbed = gzipSync(`\t${tree.replaceAll('\n', '\n\t')}`).toString('base64');
    embedParts({ keys: { t: 0, r: 1 }, blobs: [{ tabbed }, [{ type: 'X' }]] });
    try {
      const loader = embeddedLoader()!;
      expect(await loadKey(loader, 't')).toBe(tree);
      expect(await loadKey(loader, 'r')).toEqual([{ type: 'X' }]);
      await expect(loadKey(loader, 'gone')).rejects.toThrow('this page does not hold it');
    } finally {
      embedParts(null);
    }
    expect(embeddedLoader()).toBeNull();
  });

  it('without a kernel to ask, says where to see the whole', async () => {
    setReportHost(null); // the widget host the tests above set: the MIME renderer here has no notebook host
    const { report } = cutReport();
    const { root } = await render(report);
    const line = pane(root, 'guards').querySelector<HTMLElement>('.jp-DynamoExplorer-partCut[data-part="guards"]')!;
    line.querySelector<HTMLButtonElement>('button')!.click();
    await vi.waitFor(() => expect(line.dataset.state).toBe('no-kernel'));
    expect(line.textContent).toContain('TORCH_LOGS=guards');
    expect(report.frames[0].guards.length).toBe(2);
  });
});
